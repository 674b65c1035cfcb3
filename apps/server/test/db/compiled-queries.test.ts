import { STATEMENT_ORIGINS } from '@portal/domain';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { accountId, post } from '../../src/modules/ledger/ledger.js';
import { bearer, registerDriver, useTestApp } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';

/**
 * Issue 9: the session lookup and the balance run queries compiled once (db/compiled-query.ts).
 * Each call must still run with its own values: concurrent drivers see their own name-bound
 * session and their own balances, and a revoked session stops at once.
 */
describeEachDatabase('caminho quente: consultas compiladas uma vez', (dialect) => {
  const ctx = useTestApp(dialect);

  it('concurrent drivers each get their own balances; a revoked token is 401 on the next call', async () => {
    const { app, db } = ctx();
    const drivers = await Promise.all([1, 2, 3].map(() => registerDriver(app)));
    await db.kysely.transaction().execute(async (trx) => {
      for (const [i, d] of drivers.entries()) {
        for (const kind of ['own', 'third'] as const) {
          await post(trx, {
            accountId: await accountId(trx, d.id, kind),
            amountCents: (i + 1) * (kind === 'own' ? 1_000 : 250),
            origin: STATEMENT_ORIGINS.thirdPartyCredit,
            event: null,
            placeName: 'Teste',
            isThird: kind === 'third',
            idempotencyKey: `hot-${d.id}-${kind}`,
          });
        }
      }
    });
    const answers = await Promise.all(
      [...drivers, ...drivers].map((d) => app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) })),
    );
    expect(answers.map((a) => a.json())).toEqual(
      [...drivers, ...drivers].map((_, n) => ({
        Sucesso: true,
        Mensagem: 'Saldo consultado com sucesso',
        Saldo: ((n % 3) + 1) * 10,
        SaldoTerceiro: ((n % 3) + 1) * 2.5,
      })),
    );

    const [first] = drivers;
    const logout = await app.inject({ method: 'POST', url: '/api/tokens/logout', headers: bearer(first!.token) });
    expect(logout.statusCode).toBeLessThan(300);
    const after = await app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(first!.token) });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ Sucesso: false });
  });

  it('a balance read while another request is between BEGIN and COMMIT sees only committed money', async () => {
    const { app, db } = ctx();
    const driver = await registerDriver(app);
    const saldo = () => app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(driver.token) });
    for (const outcome of ['rollback', 'commit'] as const) {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const transaction = db.kysely
        .transaction()
        .execute(async (trx) => {
          await post(trx, {
            accountId: await accountId(trx, driver.id, 'own'),
            amountCents: 5_000,
            origin: STATEMENT_ORIGINS.thirdPartyCredit,
            event: null,
            placeName: 'Teste',
            isThird: false,
            idempotencyKey: `uncommitted-${outcome}`,
          });
          entered();
          await held;
          if (outcome === 'rollback') throw new Error('desfeita');
        })
        .then(
          () => 'committed',
          () => 'rolled back',
        );
      await inside;
      const during = saldo();
      await sleep(50);
      release();
      expect(await transaction).toBe(outcome === 'rollback' ? 'rolled back' : 'committed');
      // Never the credit that was rolled back. SQLite's one connection makes the read wait for the
      // COMMIT (50.00); PostgreSQL answers from what was committed when it read (0.00).
      const committed = outcome === 'commit' && dialect === 'sqlite' ? 50 : 0;
      expect((await during).json()).toMatchObject({ Sucesso: true, Saldo: committed });
    }
  });
});
