import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../../src/db/connection.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { accountId, balances, openAccounts, post, postGuardedDebit } from '../../../src/modules/ledger/ledger.js';
import type { EntryInput } from '../../../src/modules/ledger/ledger.js';
import { createTestDatabase, describeEachDatabase } from '../../helpers/databases.js';
import type { TestDatabase } from '../../helpers/databases.js';

describeEachDatabase('ledger', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let seq = 0;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.open();
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.kysely.destroy();
    await database.drop();
  });

  async function newDriver(): Promise<{ driverId: number; own: number; third: number }> {
    seq += 1;
    return db.kysely.transaction().execute(async (trx) => {
      const d = await trx
        .insertInto('drivers')
        .values({
          name: `Motorista ${seq}`,
          cpf_cnpj: `LEDGER${seq}`,
          phone_number: '+5511900000000',
          password_hash: 'x',
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await openAccounts(trx, d.id);
      return { driverId: d.id, own: await accountId(trx, d.id, 'own'), third: await accountId(trx, d.id, 'third') };
    });
  }

  const entry = (accountIdValue: number, amountCents: number, key: string): EntryInput => ({
    accountId: accountIdValue,
    amountCents,
    origin: 'teste',
    placeName: 'Teste',
    idempotencyKey: key,
  });

  /** balance = sum(entries) for every account. */
  async function expectInvariant(): Promise<void> {
    const rows = await db.kysely
      .selectFrom('accounts')
      .leftJoin('ledger_entries', 'ledger_entries.account_id', 'accounts.id')
      .select(['accounts.id', 'accounts.balance_cents'])
      .select(sql<number>`coalesce(sum(ledger_entries.amount_cents), 0)`.as('total'))
      .groupBy(['accounts.id', 'accounts.balance_cents'])
      .execute();
    for (const r of rows) expect(Number(r.balance_cents), `account ${r.id}`).toBe(Number(r.total));
  }

  it('post inserts the entry and moves the balance in the same transaction; balances may go negative', async () => {
    const a = await newDriver();
    const r1 = await db.kysely.transaction().execute((trx) => post(trx, entry(a.own, 10_000, `k${a.driverId}-1`)));
    expect(r1).toMatchObject({ status: 'posted', balanceCents: 10_000 });
    const r2 = await db.kysely.transaction().execute((trx) =>
      post(trx, {
        ...entry(a.own, -15_000, `k${a.driverId}-2`),
        origin: 'passagem',
        isThird: true,
        event: null,
        placeName: 'Praça Itatiba',
      }),
    );
    expect(r2).toMatchObject({ status: 'posted', balanceCents: -5_000 });
    expect(await balances(db.kysely, a.driverId)).toEqual({ own: -5_000, third: 0, vpo: 0 });
    const stored = await db.kysely.selectFrom('ledger_entries').selectAll().where('driver_id', '=', a.driverId).orderBy('id').execute();
    expect(stored.map((e) => [Number(e.amount_cents), e.origin, e.is_third, e.account_id])).toEqual([
      [10_000, 'teste', 0, a.own],
      [-15_000, 'passagem', 1, a.own],
    ]);
    await expectInvariant();
  });

  it('a repeated idempotency key changes nothing', async () => {
    const a = await newDriver();
    const key = `dup-${a.driverId}`;
    const first = await db.kysely.transaction().execute((trx) => post(trx, entry(a.third, 2_500, key)));
    const again = await db.kysely.transaction().execute((trx) => post(trx, entry(a.third, 2_500, key)));
    expect(first.status).toBe('posted');
    expect(again).toEqual({ status: 'duplicate', entryId: first.status === 'posted' ? first.entryId : -1 });
    expect(await balances(db.kysely, a.driverId)).toEqual({ own: 0, third: 2_500, vpo: 0 });
    await expectInvariant();
  });

  it('a guarded debit passes while the balance covers it and writes nothing when it does not', async () => {
    const a = await newDriver();
    await db.kysely.transaction().execute((trx) => post(trx, entry(a.own, 5_000, `g${a.driverId}-c`)));
    const ok = await db.kysely.transaction().execute((trx) => postGuardedDebit(trx, entry(a.own, -5_000, `g${a.driverId}-1`)));
    expect(ok).toMatchObject({ status: 'posted', balanceCents: 0 });
    const refused = await db.kysely.transaction().execute((trx) => postGuardedDebit(trx, entry(a.own, -1, `g${a.driverId}-2`)));
    expect(refused).toEqual({ status: 'insufficient' });
    expect(await db.kysely.selectFrom('ledger_entries').select('id').where('idempotency_key', '=', `g${a.driverId}-2`).execute()).toEqual(
      [],
    );
    expect(await balances(db.kysely, a.driverId)).toEqual({ own: 0, third: 0, vpo: 0 });
    const dup = await db.kysely.transaction().execute((trx) => postGuardedDebit(trx, entry(a.own, -5_000, `g${a.driverId}-1`)));
    expect(dup.status).toBe('duplicate');
    await expect(db.kysely.transaction().execute((trx) => postGuardedDebit(trx, entry(a.own, 100, 'x')))).rejects.toThrow(RangeError);
    await expect(db.kysely.transaction().execute((trx) => post(trx, entry(a.own, 1.5, 'y')))).rejects.toThrow(RangeError);
    await expectInvariant();
  });

  it('concurrent guarded debits never take the balance below zero', async () => {
    const a = await newDriver();
    await db.kysely.transaction().execute((trx) => post(trx, entry(a.own, 5_000, `c${a.driverId}-credit`)));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.kysely.transaction().execute((trx) => postGuardedDebit(trx, entry(a.own, -1_000, `c${a.driverId}-${i}`))),
      ),
    );
    expect(results.filter((r) => r.status === 'posted')).toHaveLength(5);
    expect(results.filter((r) => r.status === 'insufficient')).toHaveLength(15);
    expect(await balances(db.kysely, a.driverId)).toEqual({ own: 0, third: 0, vpo: 0 });
    await expectInvariant();
  });

  it('concurrent posts with the same idempotency key credit once', async () => {
    const a = await newDriver();
    const key = `same-${a.driverId}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => db.kysely.transaction().execute((trx) => post(trx, entry(a.own, 700, key)))),
    );
    expect(results.filter((r) => r.status === 'posted')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(7);
    const guarded = await Promise.all(
      Array.from({ length: 8 }, () => db.kysely.transaction().execute((trx) => postGuardedDebit(trx, entry(a.own, -300, `${key}-d`)))),
    );
    expect(guarded.filter((r) => r.status === 'posted')).toHaveLength(1);
    expect(await balances(db.kysely, a.driverId)).toEqual({ own: 400, third: 0, vpo: 0 });
    await expectInvariant();
  });

  it('lists a driver statement newest first through its index', async () => {
    const a = await newDriver();
    for (let i = 1; i <= 3; i++) {
      await db.kysely
        .transaction()
        .execute((trx) =>
          post(trx, { ...entry(a.own, i * 100, `s${a.driverId}-${i}`), createdAt: new Date(Date.UTC(2026, 0, i)).toISOString() }),
        );
    }
    const rows = await db.kysely
      .selectFrom('ledger_entries')
      .select('amount_cents')
      .where('driver_id', '=', a.driverId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect(rows.map((r) => Number(r.amount_cents))).toEqual([300, 200, 100]);
  });
});
