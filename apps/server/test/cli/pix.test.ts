import type { AddressInfo } from 'node:net';
import { formatBrl } from '@portal/domain';
import { expect, it } from 'vitest';
import { bearer, json, registerDriver, useTestApp } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createCharge, FakePixProvider, ownBalance } from '../helpers/pix.js';
import { runCli } from '../helpers/cli.js';

describeEachDatabase('cli pix:pay / pix:expire', (dialect) => {
  const ctx = useTestApp(dialect, {}, { pixProvider: new FakePixProvider() });

  it('pays a local charge through the running server, and says so when it cannot', async () => {
    const { app, config } = ctx();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const env = { DATABASE_URL: config.databaseUrl, SERVER_URL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
    const d = await registerDriver(app);
    const paid = await createCharge(app, d, 150);
    const expired = await createCharge(app, d, 120);

    const [ok, expire, unknown, missing, down] = await Promise.all([
      runCli(['pix:pay', paid.id], env),
      runCli(['pix:expire', expired.id], env),
      runCli(['pix:pay', 'chg_nao_existe'], env),
      runCli(['pix:pay'], env),
      runCli(['pix:pay', paid.id], { ...env, SERVER_URL: 'http://127.0.0.1:9' }),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`PAYMENT_RECEIVED enviado para a cobrança ${paid.id} (${formatBrl(15_000)}): Evento processado`);
    expect(await ownBalance(app, d)).toBe(150);
    const status = await app.inject({ method: 'GET', url: `/api/transacoes/qrcode/${paid.id}`, headers: bearer(d.token) });
    expect(json(status)).toMatchObject({ qrCode: { status: 'RECEIVED' } });

    expect(expire.code, expire.stderr).toBe(0);
    const row = await ctx().db.kysely.selectFrom('pix_charges').select('status').where('id', '=', expired.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('OVERDUE');

    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Cobrança Pix não encontrada: chg_nao_existe');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Nenhuma cobrança Pix aguardando pagamento do motorista de demonstração');
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('O servidor não respondeu em http://127.0.0.1:9');
    expect(await ownBalance(app, d)).toBe(150);
  });
});
