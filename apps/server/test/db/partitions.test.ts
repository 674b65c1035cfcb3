import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STATEMENT_ORIGINS } from '@portal/domain';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/connection.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';
import { fillKeyTables } from '../../src/db/migrations/028-monthly-partitions.js';
import { attachedMonths, createMonthsAhead, partitionName, partitionedTable } from '../../src/db/partitions.js';
import { accountId, post } from '../../src/modules/ledger/ledger.js';
import { archiveMonth, archiveMonthsBefore, restoreArchive } from '../../src/modules/retention/month-archive.js';
import { ledgerCutoff } from '../../src/modules/retention/service.js';
import { restoreMonth } from '../../src/cli/months.js';
import { bearer } from '../helpers/app.js';
import { describeOneDatabase } from '../helpers/databases.js';
import { minutes, spAt, useVpoApp } from '../helpers/vpos.js';
import type { VpoDriver } from '../helpers/vpos.js';

/**
 * Decision 80 on PostgreSQL: the ledger's entries and the passages partitioned by month. The
 * migration from single tables over a database holding a history (VPO, passages, a contest, fees,
 * entries years apart) and back changes no answer the portal gives; a month no partition covers
 * lands in the default one and moves to its month when the job creates it; a month past retention
 * is archived to a compressed file with its SHA-256 and comes back whole.
 */
describeOneDatabase('meses particionados', 'postgres', () => {
  const t = useVpoApp('postgres');

  async function postAt(db: Db, driverId: number, createdAt: string, key: string, cents = -150): Promise<void> {
    await db.kysely.transaction().execute(async (trx) => {
      const result = await post(trx, {
        accountId: await accountId(trx, driverId, 'own'),
        amountCents: cents,
        origin: cents < 0 ? STATEMENT_ORIGINS.passage : STATEMENT_ORIGINS.pixPurchase,
        placeName: `Praça ${key}`,
        isThird: false,
        idempotencyKey: `${driverId}-${key}`,
        createdAt,
      });
      if (result.status !== 'posted') throw new Error(`não lançado: ${key}`);
    });
  }

  /** What the portal answers the driver, and every row of the two tables, in one comparable value. */
  async function answers(d: VpoDriver) {
    const db = t.db();
    const csv = await t.get(d, '/api/extrato/exportar?formato=csv&periodo=tudo');
    expect(csv.statusCode, csv.body).toBe(200);
    const passages = await t.get(d, '/api/veiculo/passagens?page=1');
    const contests = await t.get(d, '/api/motorista/contestacoes');
    expect([passages.statusCode, contests.statusCode]).toEqual([200, 200]);
    const rows = async (table: 'ledger_entries' | 'passages') =>
      JSON.stringify(await sql`select * from ${sql.table(table)} order by id`.execute(db.kysely).then((r) => r.rows));
    return {
      statement: await t.statement(d, '&periodo=tudo'),
      saldo: await t.saldo(d),
      csv: csv.body,
      passages: passages.body,
      contests: contests.body,
      entries: await rows('ledger_entries'),
      passageRows: await rows('passages'),
    };
  }

  async function history(): Promise<VpoDriver> {
    const d = await t.driver();
    const db = t.db();
    const s = await t.shipper('Embarcadora Partições');
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 30 });
    await t.passed(d.tag, 22.4, spAt(-minutes(50)), { placeName: 'Praça do VPO' });
    await t.passed(d.tag, 15, spAt(-minutes(40)), { placeName: 'Praça além do VPO' });
    const passage = (await t.statement(d)).find((r) => r.placeName === 'Praça do VPO' && r.value < 0)?.passagem?.id;
    const opened = await t.app().inject({
      method: 'POST',
      url: '/api/motorista/contestacoes',
      headers: bearer(d.token),
      payload: { passagemId: passage, motivo: 'CATEGORIA' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    expect((await t.close(s, vpo.externalId)).statusCode).toBe(200);
    // Entries years and months apart: many months, and dates before any partition the migration makes.
    const now = Date.now();
    for (let i = 0; i < 30; i++) await postAt(db, d.id, new Date(now - i * 41 * 86_400_000 - 3_600_000).toISOString(), `antes-${i}`);
    return d;
  }

  it('the migration from single tables, over a history, and back, changes no answer, no row and no key', async () => {
    const db = t.db();
    const d = await history();
    const partitioned = await answers(d);
    expect(partitioned.statement.length).toBeGreaterThan(30);
    const keys = async () =>
      JSON.stringify(await sql`select * from ledger_entry_keys order by idempotency_key`.execute(db.kysely).then((r) => r.rows));
    const keysBefore = await keys();

    await migrateTo(db, '027-entry-vehicles');
    const kind = await sql<{ relkind: string }>`select relkind from pg_class where relname = 'ledger_entries'`.execute(db.kysely);
    expect(kind.rows[0]?.relkind).toBe('r');
    expect(await answers(d)).toEqual(partitioned);

    await migrateToLatest(db);
    expect(await attachedMonths(db.kysely, 'ledger_entries')).toHaveLength(monthsFromOldest(partitioned.entries));
    expect(await answers(d)).toEqual(partitioned);
    expect(await keys()).toEqual(keysBefore);
    // The benches' fills make the key tables from the rows: the same keys the ledger claimed.
    await sql`delete from ledger_entry_keys`.execute(db.kysely);
    await sql`delete from passage_keys`.execute(db.kysely);
    await fillKeyTables(db.kysely);
    expect(await keys()).toEqual(keysBefore);
    const passageKeys = await sql<{ n: number }>`select count(*) as n from passage_keys`.execute(db.kysely);
    expect(Number(passageKeys.rows[0]?.n)).toBe(JSON.parse(partitioned.passageRows).length);
    // Each entry in its month's partition, none left in the default one.
    const outside = await sql<{ n: number }>`select count(*) as n from ledger_entries_default`.execute(db.kysely);
    expect(Number(outside.rows[0]?.n)).toBe(0);

    // After it, the ledger still refuses a key twice, whatever month the retry is dated.
    await postAt(db, d.id, new Date().toISOString(), 'depois');
    await expect(postAt(db, d.id, new Date(Date.now() - 400 * 86_400_000).toISOString(), 'depois')).rejects.toThrow(/não lançado/);
  });

  it('an entry dated where no month exists waits in the default partition and moves into its month when the job creates it', async () => {
    const db = t.db();
    const d = await t.driver();
    const far = new Date(Date.UTC(new Date().getUTCFullYear() + 3, 4, 10, 12));
    await postAt(db, d.id, far.toISOString(), 'futuro', 500);
    const before = await t.statement(d, '&periodo=tudo');
    const inDefault = await sql<{ n: number }>`select count(*) as n from ledger_entries_default where driver_id = ${d.id}`.execute(
      db.kysely,
    );
    expect(Number(inDefault.rows[0]?.n)).toBe(1);

    const created = await createMonthsAhead(db.kysely, new Date(Date.UTC(far.getUTCFullYear(), 3, 2)));
    const month = partitionName('ledger_entries', new Date(Date.UTC(far.getUTCFullYear(), 4, 1)));
    expect(created).toContain(month);
    expect(created).toContain(partitionName('passages', new Date(Date.UTC(far.getUTCFullYear(), 6, 1))));
    const moved = await sql<{ n: number }>`select count(*) as n from ${sql.table(month)} where driver_id = ${d.id}`.execute(db.kysely);
    expect(Number(moved.rows[0]?.n)).toBe(1);
    expect(await t.statement(d, '&periodo=tudo')).toEqual(before);
    // Run again: nothing more to create.
    expect(await createMonthsAhead(db.kysely, new Date(Date.UTC(far.getUTCFullYear(), 3, 2)))).toEqual([]);
  });

  it('a month past retention goes to a compressed file with its SHA-256, leaves the balance as it was, and comes back whole', async () => {
    const db = t.db();
    const d = await t.driver();
    const old = new Date(Date.UTC(2018, 2, 1));
    for (let i = 0; i < 12; i++)
      await postAt(db, d.id, new Date(old.getTime() + i * 86_400_000 + 7_200_000).toISOString(), `2018-${i}`, 1_000);
    await postAt(db, d.id, new Date(Date.UTC(2018, 3, 2)).toISOString(), 'abril-2018', -300);
    const month = partitionName('ledger_entries', old);
    await createMonthsAhead(db.kysely, old);
    const counters = async () =>
      JSON.stringify(
        await sql`select * from ledger_entry_counts where driver_id = ${d.id} order by unit, bucket`.execute(db.kysely).then((r) => r.rows),
      );
    const rowsOfMonth = async () =>
      JSON.stringify(await sql`select * from ledger_entries where driver_id = ${d.id} order by id`.execute(db.kysely).then((r) => r.rows));
    const before = {
      statement: await t.statement(d, '&periodo=tudo'),
      saldo: await t.saldo(d),
      counters: await counters(),
      rows: await rowsOfMonth(),
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-archive-'));
    try {
      // Lei 9.613/1998 art. 10: five whole years after the month's year.
      expect(ledgerCutoff(new Date('2026-11-30T12:00:00Z'), 5).toISOString()).toBe('2021-01-01T00:00:00.000Z');
      const archived = await archiveMonthsBefore(db, new Date(Date.UTC(2018, 3, 1)), dir);
      const mine = archived.find((a) => a.partition === month);
      expect(mine?.rows).toBeGreaterThanOrEqual(12);
      const file = path.join(dir, `${month}.csv.gz`);
      expect(fs.readFileSync(`${file}.sha256`, 'utf8')).toBe(`${mine?.sha256}  ${month}.csv.gz\n`);
      expect((await attachedMonths(db.kysely, 'ledger_entries')).some((p) => p.name === month)).toBe(false);
      const gone = await sql<{ name: string | null }>`select to_regclass(${month}) as name`.execute(db.kysely);
      expect(gone.rows[0]?.name).toBeNull();

      // The balance is the same; the statement lists what is kept, each with its balance as before.
      const after = await t.statement(d, '&periodo=tudo');
      expect(await t.saldo(d)).toEqual(before.saldo);
      expect(after).toEqual(before.statement.filter((r) => !r.placeName.startsWith('Praça 2018-')));

      // A corrupted copy is refused and changes nothing.
      const bad = path.join(dir, 'copia', `${month}.csv.gz`);
      fs.mkdirSync(path.dirname(bad));
      const bytes = fs.readFileSync(file);
      bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 0xff;
      fs.writeFileSync(bad, bytes);
      fs.copyFileSync(`${file}.sha256`, `${bad}.sha256`);
      await expect(restoreMonth(db, bad)).rejects.toThrow(/não confere com o seu SHA-256/);
      expect(await t.statement(d, '&periodo=tudo')).toEqual(after);

      // The CLI's restore: every row, key and counter back; a second restore is refused.
      expect(await restoreMonth(db, file)).toMatch(new RegExp(`^${month}: \\d+ linha\\(s\\) de volta ao banco`));
      expect(await rowsOfMonth()).toBe(before.rows);
      expect(await counters()).toBe(before.counters);
      expect(await t.statement(d, '&periodo=tudo')).toEqual(before.statement);
      await expect(restoreArchive(db, file)).rejects.toThrow(/já está no banco/);
      await expect(postAt(db, d.id, new Date(Date.UTC(2018, 5, 1)).toISOString(), '2018-0')).rejects.toThrow(/não lançado/);

      // A run stopped after detaching is finished by the next one.
      const spec = partitionedTable('ledger_entries');
      await sql`alter table ledger_entries detach partition ${sql.table(month)}`.execute(db.kysely);
      const finished = await archiveMonthsBefore(db, new Date(Date.UTC(2000, 0, 1)), dir);
      expect(finished.map((a) => a.partition)).toEqual([month]);
      await restoreMonth(db, file);
      await archiveMonth(db, spec, old, dir);
      await restoreMonth(db, file);
      expect(await t.statement(d, '&periodo=tudo')).toEqual(before.statement);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Months from the oldest entry's through three ahead of now. */
function monthsFromOldest(entriesJson: string): number {
  const rows = JSON.parse(entriesJson) as { created_at: string }[];
  const oldest = new Date(Math.min(...rows.map((r) => Date.parse(r.created_at))));
  const now = new Date();
  return (now.getUTCFullYear() - oldest.getUTCFullYear()) * 12 + now.getUTCMonth() - oldest.getUTCMonth() + 4;
}
