import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../../src/db/migrate.js';
import { bucketOf } from '../../../src/db/migrations/015-statement-buckets.js';
import { describeEachDatabase, useFreshDatabase } from '../../helpers/databases.js';
import { expectStatementInDateOrder } from '../../helpers/statement-order.js';

/**
 * Migration 020 (decision 63) over a history written before it: every counter of every driver
 * learns what each account moved in its month, day and hour, so each row's balance is right at once.
 */
describeEachDatabase('migração 020: o que cada conta movimentou nos contadores do extrato', (dialect) => {
  const freshDb = useFreshDatabase(dialect);

  it('fills the sums of Saldo, SaldoTerceiro and the VPOs from the entries already there', async () => {
    const db = freshDb();
    await migrateTo(db, '018-pix-automatic');
    const now = new Date().toISOString();
    const drivers: number[] = [];
    for (const doc of ['MIG22A', 'MIG22B']) {
      const { rows } = await sql<{ id: number }>`insert into drivers (name, cpf_cnpj, phone_number, password_hash, created_at)
        values ('M', ${doc}, '+5511900000000', 'x', ${now}) returning id`.execute(db.kysely);
      const driverId = rows[0]!.id;
      drivers.push(driverId);
      const accounts: Record<string, number> = {};
      for (const kind of ['own', 'third', 'vpo']) {
        const created = await sql<{ id: number }>`insert into accounts (driver_id, kind, balance_cents)
          values (${driverId}, ${kind}, 0) returning id`.execute(db.kysely);
        accounts[kind] = created.rows[0]!.id;
      }
      // Entries over months, days and hours, in every account (the VPO's without a VPO row: the sums do not read it).
      const entries = [
        ['own', 10_000, '2026-01-31T23:59:59.000Z'],
        ['own', -1_590, '2026-02-01T00:00:00.000Z'],
        ['third', 12_000, '2026-02-01T00:30:00.000Z'],
        ['vpo', 66_830, '2026-02-01T00:45:00.000Z'],
        ['vpo', -2_240, '2026-02-01T01:10:00.000Z'],
        ['own', -755, '2026-02-01T01:20:00.000Z'],
        ['third', -4_550, '2026-03-15T12:00:00.000Z'],
      ] as const;
      for (const [i, [kind, cents, at]] of entries.entries()) {
        await sql`insert into ledger_entries (account_id, driver_id, amount_cents, origin, place_name, is_third, idempotency_key, created_at)
          values (${accounts[kind]}, ${driverId}, ${cents}, 'passagem', 'Praça', ${kind === 'third' ? 1 : 0}, ${`mig22-${doc}-${i}`}, ${at})`.execute(
          db.kysely,
        );
      }
    }
    // The counters as migration 015 and the ledger wrote them before 020: counts only.
    for (const unit of ['month', 'day', 'hour'] as const) {
      await sql`insert into ledger_entry_counts (driver_id, unit, bucket, entries)
        select driver_id, ${sql.lit(unit)}, ${bucketOf(unit, dialect)}, count(*) from ledger_entries group by driver_id, 3`.execute(
        db.kysely,
      );
    }

    await migrateToLatest(db);
    for (const driverId of drivers) await expectStatementInDateOrder(db, driverId);
    const month = await db.kysely
      .selectFrom('ledger_entry_counts')
      .select(['own_cents', 'third_cents', 'vpo_cents'])
      .where('driver_id', '=', drivers[0]!)
      .where('unit', '=', 'month')
      .orderBy('bucket')
      .execute();
    expect(month.map((m) => [Number(m.own_cents), Number(m.third_cents), Number(m.vpo_cents)])).toEqual([
      [10_000, 0, 0],
      [-2_345, 12_000, 64_590],
      [0, -4_550, 0],
    ]);
  });
});
