import { formatBrl } from '@portal/domain';
import { afterAll, expect, it } from 'vitest';
import { registerDriver, useTestApp } from '../helpers/app.js';
import { listWebhookEvents } from '../../src/cli/pix-ops.js';
import { runCli } from '../helpers/cli.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { FakeAsaas } from '../helpers/fake-asaas.js';
import { createCharge, ownBalance, sendWebhook } from '../helpers/pix.js';

const fake = new FakeAsaas('chave-de-teste');
await fake.start();
afterAll(() => fake.stop());

const asaasEnv = { PIX_PROVIDER: 'asaas', ASAAS_API_URL: fake.url, ASAAS_API_KEY: 'chave-de-teste', ASAAS_TIMEOUT_MS: '2000' };

describeEachDatabase('cli pix:events / pix:events:resolve / pix:reconcile', (dialect) => {
  const ctx = useTestApp(dialect, asaasEnv);

  it('the operator lists what was not applied, reconciles with Asaas (idempotent) and resolves the rest', async () => {
    const { app, db, config } = ctx();
    const env = { ...asaasEnv, DATABASE_URL: config.databaseUrl, LOG_LEVEL: 'silent' };
    const d = await registerDriver(app);
    const c = await createCharge(app, d, 150);
    const { provider_charge_id: payId } = await db.kysely
      .selectFrom('pix_charges')
      .select('provider_charge_id')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    // An orphan event, and a payment Asaas received whose event arrived before Asaas confirmed it.
    await sendWebhook(app, { id: 'evt_orfao_cli', event: 'PAYMENT_RECEIVED', payment: { id: 'pay_desconhecido', value: 10 } });
    await sendWebhook(app, fake.paymentWebhook('PAYMENT_RECEIVED', payId));
    fake.pay(payId);
    const orphan = await db.kysely
      .selectFrom('webhook_events')
      .select('id')
      .where('dedupe_key', '=', 'evt_orfao_cli')
      .executeTakeFirstOrThrow();

    const [listed, reconciled, badUsage] = await Promise.all([
      runCli(['pix:events'], env),
      runCli(['pix:reconcile'], env),
      runCli(['pix:events:resolve', 'abc'], env),
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`#${orphan.id}`);
    expect(listed.stdout).toContain('PAYMENT_RECEIVED  pay_desconhecido  Cobrança não encontrada no portal; nenhum crédito lançado');
    expect(reconciled.code, reconciled.stderr).toBe(0);
    expect(reconciled.stdout).toContain(`Cobrança ${c.id} (${formatBrl(15_000)}): paga; saldo creditado.`);
    expect(await ownBalance(app, d)).toBe(150);
    expect(badUsage.code).toBe(1);
    expect(badUsage.stderr).toContain('Uso: pix:events:resolve <id do evento> [nota]');

    const [again, resolved] = await Promise.all([
      runCli(['pix:reconcile'], env),
      runCli(['pix:events:resolve', String(orphan.id), 'cobrança', 'de', 'outro', 'sistema'], env),
    ]);
    expect(again.stdout).toContain('Reconciliação com o provedor asaas: 0 atualização(ões)');
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stdout).toBe(`Evento #${orphan.id} (PAYMENT_RECEIVED) marcado como resolvido: cobrança de outro sistema.\n`);
    expect(await ownBalance(app, d)).toBe(150);
    const rows = await db.kysely
      .selectFrom('webhook_events')
      .select(['provider_ref', 'status', 'note'])
      .where('provider_ref', 'in', ['pay_desconhecido', payId])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { provider_ref: 'pay_desconhecido', status: 'resolved', note: 'cobrança de outro sistema' },
      { provider_ref: payId, status: 'resolved', note: 'resolvido por pix:reconcile' },
    ]);
    expect(await listWebhookEvents(db)).not.toContain('pay_desconhecido');
  });

  it('pix:contradiction:apply is an operator command: usage, and a refusal for an id it does not know (decision 60)', async () => {
    const env = { ...asaasEnv, DATABASE_URL: ctx().config.databaseUrl, LOG_LEVEL: 'silent' };
    const [usage, unknown] = await Promise.all([
      runCli(['pix:contradiction:apply'], env),
      runCli(['pix:contradiction:apply', 'nao-existe'], env),
    ]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('Uso: pix:contradiction:apply <id do saque ou da cobrança>');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Saque ou cobrança não encontrado: nao-existe');
    // Two operator processes, each opening the database: on a loaded machine that alone took 11 s.
  }, 60_000);
});
