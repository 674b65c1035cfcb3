import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isValidCpfCnpj } from '@portal/domain';
import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../apps/server/src/db/schema.js';
import { bucketOf } from '../apps/server/src/db/migrations/015-statement-buckets.js';
import { COUNTER_CENTS } from '../apps/server/src/db/migrations/020-statement-account-sums.js';
import type { FillContext } from './scale-fill-people.js';
import { repoRoot } from './paths.js';
import { monthsBetween, nextMonth } from '../apps/server/src/db/partitions.js';
import { affected, dropHelpers, scalar } from './scale-steps.js';

/** The tables the year is poured into: their plain indexes and foreign keys are made once, after the rows (a bulk load's usual order). */
const BULK_TABLES = ['ledger_entries', 'passages', 'passage_payments', 'pix_charges'] as const;
/**
 * The ledger's counters, made from the entries a month at a time (countYear): their primary keys
 * wait with the rest, as no two months share a key. Upserted into their keys and checked against
 * drivers row by row, they were the build's longest step (88 of 238 s at 1/50, 110 min at 0.69).
 */
const COUNTER_TABLES = ['ledger_entry_counts', 'ledger_scope_counts'] as const;

/**
 * A module of the server that may not exist yet (migration 028 and its partitions are being
 * written beside this bench): its exports, or null when the file is absent.
 */
async function optionalServerModule(relative: string): Promise<Record<string, unknown> | null> {
  const file = path.join(repoRoot, 'apps/server/src', relative);
  if (!existsSync(file)) return null;
  const loaded: unknown = await import(pathToFileURL(file).href);
  return typeof loaded === 'object' && loaded !== null ? (loaded as Record<string, unknown>) : null;
}

type DbTask = (db: Kysely<Database>) => Promise<unknown>;

/**
 * Decision 80 (migration 028, when present): the month partitions of the year's months, made before
 * the rows (else they would land in the default partition). Answers whether the server partitions.
 */
export async function createYearPartitions(ctx: FillContext): Promise<boolean> {
  const partitions = await optionalServerModule('db/partitions.ts');
  const create = partitions?.createMonthPartitions;
  const between = partitions?.monthsBetween;
  const tables = partitions?.PARTITIONED_TABLES;
  const partitioned = await scalar(ctx.db, sql`select count(*) from pg_partitioned_table`);
  if (partitioned === 0) return false;
  if (typeof create !== 'function' || typeof between !== 'function' || !Array.isArray(tables))
    throw new Error('tabelas particionadas, mas db/partitions.ts não exporta createMonthPartitions, monthsBetween e PARTITIONED_TABLES');
  const first = new Date(ctx.startMs - 40 * 86_400_000);
  const last = new Date(ctx.nowMs + 100 * 86_400_000);
  const months = (between as (a: Date, b: Date) => Date[])(first, last);
  await ctx.steps.run('month partitions', async (trx) => {
    let made = 0;
    for (const spec of tables as unknown[]) {
      const table = typeof spec === 'object' && spec !== null && 'table' in spec ? String(spec.table) : null;
      if (table === null) continue;
      const created = await (create as (db: Kysely<Database>, t: string, m: Date[]) => Promise<string[]>)(trx, table, months);
      made += created.length;
    }
    return made;
  });
  return true;
}

/** The plain indexes and foreign keys of the bulk tables, kept in scale_deferred, then dropped. */
/** What a deferred key is, as scale_deferred names it, and the step that makes it again. */
const DEFERRED_KINDS = { pk: 'primary key', index: 'index', fk: 'foreign key' } as const;

/** The plain indexes and foreign keys of the bulk tables, and the counters' keys, kept in scale_deferred, then dropped. */
export async function deferIndexes(ctx: FillContext): Promise<void> {
  const list = (names: readonly string[]) => sql.join(names.map((t) => sql`${t}`));
  const tables = list([...BULK_TABLES, ...COUNTER_TABLES]);
  await ctx.steps.run('indexes and foreign keys deferred', async (trx) => {
    await sql`create table scale_deferred (name text primary key, tbl text not null, kind text not null, def text not null)`.execute(trx);
    await sql`insert into scale_deferred
      select i.indexname, i.tablename, 'index', replace(i.indexdef, ' ON ONLY ', ' ON ') from pg_indexes i
      where i.schemaname = current_schema() and i.tablename in (${tables})
        and not exists (select 1 from pg_constraint c where c.conindid = to_regclass(quote_ident(i.indexname)))`.execute(trx);
    await sql`insert into scale_deferred
      select c.conname, c.conrelid::regclass::text, 'fk', pg_get_constraintdef(c.oid) from pg_constraint c
      where c.contype = 'f' and c.conparentid = 0 and c.conrelid::regclass::text in (${tables})`.execute(trx);
    await sql`insert into scale_deferred
      select c.conname, c.conrelid::regclass::text, 'pk', pg_get_constraintdef(c.oid) from pg_constraint c
      where c.contype = 'p' and c.conrelid::regclass::text in (${list(COUNTER_TABLES)})`.execute(trx);
    const { rows } = await sql<{ name: string; tbl: string; kind: string }>`select name, tbl, kind from scale_deferred`.execute(trx);
    for (const r of rows) {
      if (r.kind === 'index') await sql`drop index ${sql.ref(r.name)}`.execute(trx);
      else await sql`alter table ${sql.table(r.tbl)} drop constraint ${sql.ref(r.name)}`.execute(trx);
    }
    return rows.length;
  });
}

/** The deferred keys made again, one step each: primary keys, indexes, then the foreign keys (checked over every row). */
export async function restoreIndexes(ctx: FillContext): Promise<void> {
  const { rows } = await sql<{ name: string; tbl: string; kind: keyof typeof DEFERRED_KINDS; def: string }>`
    select name, tbl, kind, def from scale_deferred order by kind desc, name`.execute(ctx.db);
  for (const r of rows) {
    await ctx.steps.run(`${DEFERRED_KINDS[r.kind]} ${r.name}`, async (trx) => {
      if (r.kind === 'index') await sql.raw(r.def).execute(trx);
      else await sql`alter table ${sql.table(r.tbl)} add constraint ${sql.ref(r.name)} ${sql.raw(r.def)}`.execute(trx);
      return 0;
    });
  }
}

/**
 * What the ledger keeps beside its entries, made from them for every driver at once (ledger.ts
 * countEntries' sums, migrations 015, 020 and 027): ledger_entry_counts per driver and
 * ledger_scope_counts per vehicle, per UTC month, day and hour, one UTC month of entries at a time
 * (one month partition each: no bucket spans two, so each month's rows are new keys, checked when
 * the keys are made again); then each account's balance, the sum of its entries; the VPO counters
 * (VPO lists) and each tag's month usage (decision 53, the billing's waiver). Runs before the
 * deferred keys are made again.
 */
export async function countYear(ctx: FillContext): Promise<void> {
  const sums = sql.join(
    Object.entries(COUNTER_CENTS).map(
      ([kind, column]) => sql`coalesce(sum(case when e.kind = ${sql.lit(kind)} then e.amount_cents end), 0) as ${sql.ref(column)}`,
    ),
  );
  const cents = sql.join(Object.values(COUNTER_CENTS).map((c) => sql.ref(c)));
  const units = ['month', 'day', 'hour'] as const;
  const perUnit = (select: (unit: (typeof units)[number]) => RawBuilder<unknown>) => sql.join(units.map(select), sql` union all `);
  const first = await scalar(ctx.db, sql`select extract(epoch from min(created_at)) * 1000 from ledger_entries`);
  const last = await scalar(ctx.db, sql`select extract(epoch from max(created_at)) * 1000 from ledger_entries`);
  for (const month of monthsBetween(new Date(first), new Date(last))) {
    await ctx.steps.run(`counters ${month.toISOString().slice(0, 7)}`, async (trx) => {
      // A month's entries are grouped three times (month, day, hour) in memory rather than on disk.
      await sql`set local work_mem = '64MB'`.execute(trx);
      const { rows } = await sql<{ written: string }>`
        with e as materialized (
          select e.driver_id, e.vehicle_id, e.created_at, e.amount_cents, a.kind from ledger_entries e join accounts a on a.id = e.account_id
          where e.created_at >= ${month.toISOString()} and e.created_at < ${nextMonth(month).toISOString()}),
        drivers as (insert into ledger_entry_counts (driver_id, unit, bucket, entries, ${cents})
          ${perUnit((unit) => sql`select e.driver_id, ${sql.lit(unit)}, ${bucketOf(unit, 'postgres')}, count(*), ${sums} from e group by 1, 3`)}
          returning 1),
        vehicles as (insert into ledger_scope_counts (driver_id, scope, scope_id, unit, bucket, entries, ${cents})
          ${perUnit(
            (unit) => sql`select e.driver_id, 'vehicle', e.vehicle_id, ${sql.lit(unit)}, ${bucketOf(unit, 'postgres')}, count(*), ${sums}
            from e where e.vehicle_id is not null group by 1, 3, 5`,
          )}
          returning 1)
        select (select count(*) from drivers) + (select count(*) from vehicles) as written`.execute(trx);
      return Number(rows[0]?.written ?? 0);
    });
  }
  await ctx.steps.run('balances', (trx) =>
    affected(
      trx,
      sql`update accounts a set balance_cents = s.total
      from (select account_id, sum(amount_cents) as total from ledger_entries group by account_id) s
      where a.id = s.account_id`,
    ),
  );
  await ctx.steps.run('vpo counters', (trx) =>
    affected(trx, sql`insert into driver_vpo_counters (driver_id, vpo_count) select driver_id, count(*) from vpos group by driver_id`),
  );
  await ctx.steps.run('tag month usage', (trx) =>
    affected(
      trx,
      sql`insert into tag_month_usage (tag_id, period, vpo_passages, other_passages)
      select p.tag_id, to_char(p.occurred_at at time zone 'America/Sao_Paulo', 'YYYY-MM'),
        count(*) filter (where pp.account = 'vpo'), count(*) filter (where pp.account <> 'vpo')
      from passages p join passage_payments pp on pp.passage_id = p.id group by 1, 2`,
    ),
  );
}

/** The year's invariants, each a count that must be 0 (the message names it). */
export async function checkYear(ctx: FillContext): Promise<void> {
  const zero = async (what: string, query: RawBuilder<unknown>) => {
    const found = await scalar(ctx.db, query);
    if (found !== 0) throw new Error(`${what}: ${found}`);
  };
  await ctx.steps.plain('checks', async () => {
    await zero(
      'contas com saldo diferente da soma dos lançamentos',
      sql`select count(*) from accounts a left join (select account_id, sum(amount_cents) as total from ledger_entries group by account_id) s
        on s.account_id = a.id where a.balance_cents <> coalesce(s.total, 0)`,
    );
    await sql`create temporary table scale_check_entries as select e.driver_id, count(*) as entries,
        count(*) filter (where e.vehicle_id is not null) as with_vehicle,
        coalesce(sum(e.amount_cents) filter (where a.kind = 'own'), 0) as own_cents
      from ledger_entries e join accounts a on a.id = e.account_id group by e.driver_id`.execute(ctx.db);
    for (const unit of ['month', 'day', 'hour'] as const) {
      await zero(
        `contadores (${unit}) diferentes dos lançamentos`,
        sql`select count(*) from scale_check_entries e full join (select driver_id, sum(entries) as entries, sum(own_cents) as own_cents
          from ledger_entry_counts where unit = ${unit} group by driver_id) c using (driver_id)
          where e.entries is distinct from c.entries or e.own_cents is distinct from c.own_cents`,
      );
      await zero(
        `contadores por veículo (${unit}) diferentes dos lançamentos`,
        sql`select count(*) from scale_check_entries e left join (select driver_id, sum(entries) as entries
          from ledger_scope_counts where scope = 'vehicle' and unit = ${unit} group by driver_id) c using (driver_id)
          where e.with_vehicle <> coalesce(c.entries, 0)`,
      );
    }
    await sql`drop table scale_check_entries`.execute(ctx.db);
    await zero(
      'passagens sem o pagamento e o lançamento com a chave do serviço',
      sql`select (select count(*) from passages) - (select count(*) from passages p join passage_payments pp on pp.passage_id = p.id
        join ledger_entries e on e.id = pp.entry_id
        where e.idempotency_key = 'partner:' || p.partner_id || ':passage:' || p.external_id
          || case when pp.account = 'vpo' then ':vpo:' || pp.vpo_id else '' end and e.amount_cents = -pp.paid_cents)`,
    );
    await zero(
      'VPOs com held <> used + left + refunded',
      sql`select count(*) from vpos where held_cents <> used_cents + left_cents + refunded_cents`,
    );
    await zero(
      'contas de VPO diferentes do que resta nos VPOs abertos',
      sql`select count(*) from accounts a left join (select driver_id, sum(left_cents) as left_cents from vpos group by driver_id) v
        on v.driver_id = a.driver_id where a.kind = 'vpo' and a.balance_cents <> coalesce(v.left_cents, 0)`,
    );
    const { rows } = await sql<{ cpf_cnpj: string }>`select cpf_cnpj from drivers order by id limit 50`.execute(ctx.db);
    const invalid = rows.filter((r) => !isValidCpfCnpj(r.cpf_cnpj)).length;
    if (invalid > 0) throw new Error(`${invalid} documentos inválidos entre os 50 primeiros motoristas`);
  });
}

/** Migration 028's key tables (when present) made from the entries and passages, and checked. */
export async function fillKeys(ctx: FillContext): Promise<boolean> {
  const migration = await optionalServerModule('db/migrations/028-monthly-partitions.ts');
  const fill = migration?.fillKeyTables;
  if (typeof fill !== 'function') return false;
  await ctx.steps.run('key tables', async (trx) => {
    await (fill as DbTask)(trx);
    return scalar(trx, sql`select (select count(*) from ledger_entry_keys) + (select count(*) from passage_keys)`);
  });
  const missing = await scalar(
    ctx.db,
    sql`select (select count(*) from ledger_entries e where not exists (select 1 from ledger_entry_keys k where k.idempotency_key = e.idempotency_key))
      + (select count(*) from passages p where not exists (select 1 from passage_keys k where k.partner_id = p.partner_id and k.external_id = p.external_id))`,
  );
  if (missing !== 0) throw new Error(`${missing} lançamentos ou passagens sem a sua chave`);
  return true;
}

/** The plan tables and helpers dropped, then VACUUM ANALYZE (what autovacuum would leave: statistics, the visibility map). */
export async function finish(ctx: FillContext): Promise<void> {
  await ctx.steps.plain('plan dropped', async () => {
    for (const table of [
      'scale_carriers',
      'scale_tags',
      'scale_vpos',
      'scale_months',
      'scale_due',
      'scale_ff',
      'scale_credits',
      'scale_purchases',
      'scale_deferred',
    ])
      await sql`drop table if exists ${sql.table(table)}`.execute(ctx.db);
    await dropHelpers(ctx.db);
  });
  await ctx.steps.plain('vacuum analyze', async () => {
    await sql`vacuum analyze`.execute(ctx.db);
  });
}
