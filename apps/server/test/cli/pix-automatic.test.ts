import type { AddressInfo } from 'node:net';
import type { AttentionResponse } from '@portal/contract';
import { pixAutomaticMessages } from '@portal/domain';
import { expect, it } from 'vitest';
import { bearer, json, registerDriver, useTestApp } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { FakePixProvider, ownBalance } from '../helpers/pix.js';
import { authorizationOf, automaticCalls, createdAutomatic } from '../helpers/pix-automatic.js';

/** Decision 58: the operator's CLI plays the payer's bank of the local provider against the running server. */
describeEachDatabase('cli pix:auto:*', (dialect) => {
  const ctx = useTestApp(dialect, {}, { pixProvider: new FakePixProvider() });

  it('activates, debits a cycle, refuses the next and cancels from the bank app, through the running server', async () => {
    const { app, config } = ctx();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const env = { DATABASE_URL: config.databaseUrl, SERVER_URL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
    const d = await registerDriver(app);
    const created = await createdAutomatic(app, d, 150, 'MENSAL');

    const help = await runCli(['help'], env);
    for (const command of ['pix:auto:activate --driver', 'pix:auto:cycle --driver', 'pix:auto:refuse --driver', 'pix:auto:cancel --driver'])
      expect(help.stdout).toContain(command);

    const [missing, unknown, tooSoon] = await Promise.all([
      runCli(['pix:auto:activate'], env),
      runCli(['pix:auto:cycle', '--driver', '111.444.777-35'], env),
      runCli(['pix:auto:cycle', '--driver', d.cpfCnpj], env),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Informe o motorista: pix:auto:activate --driver <CPF/CNPJ ou id>');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Motorista não encontrado: 111.444.777-35');
    expect(tooSoon.code).toBe(1);
    expect(tooSoon.stderr).toContain(
      `A recarga automática ${created.id} está aguardando autorização: pix:auto:cycle precisa de uma ativa.`,
    );

    const activated = await runCli(['pix:auto:activate', '--driver', d.cpfCnpj], env);
    expect(activated.code, activated.stderr).toBe(0);
    expect(activated.stdout).toContain(`Primeiro Pix de R$\u00a0150,00 pago (recarga automática ${created.id}): Evento processado`);
    expect(activated.stdout).toContain('Autorização ativada no banco: Evento processado');
    expect(await ownBalance(app, d)).toBe(150);
    expect(authorizationOf(await automaticCalls.current(app, d)).estado).toBe('ATIVA');

    // Monthly: the next debit is a month away, so the bank debits a new cycle today.
    const cycle = await runCli(['pix:auto:cycle', '--driver', String(d.id)], env);
    expect(cycle.code, cycle.stderr).toBe(0);
    expect(cycle.stdout).toMatch(/Ciclo 2 de R\$\u00a0150,00 \(\d{2}\/\d{2}\/\d{4}\) agendado no banco: Evento processado/);
    expect(cycle.stdout).toContain('Débito feito (cobrança chg_');
    expect(await ownBalance(app, d)).toBe(300);

    const refused = await runCli(['pix:auto:refuse', '--driver', d.cpfCnpj, '--motivo', 'Limite diário excedido'], env);
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stdout).toContain('recusado pelo banco ("Limite diário excedido"): Evento processado');
    expect(await ownBalance(app, d)).toBe(300);
    const avisos = json<AttentionResponse>(
      await app.inject({ method: 'GET', url: '/api/motorista/avisos', headers: bearer(d.token) }),
    ).Avisos;
    expect(avisos.find((n) => n.tipo === 'recarga-automatica-falhou')?.Mensagem).toContain('Limite diário excedido');

    const cancelled = await runCli(['pix:auto:cancel', '--driver', d.cpfCnpj], env);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain(`Recarga automática ${created.id} (R$\u00a0150,00) cancelada no app do banco: Evento processado`);
    expect(authorizationOf(await automaticCalls.current(app, d))).toMatchObject({
      estado: 'CANCELADA',
      motivoEncerramento: pixAutomaticMessages.endReasons.bank,
    });
  });
});
