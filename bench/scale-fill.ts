import { sql } from 'kysely';
import type { Db } from '../apps/server/src/db/connection.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { PasswordHasher } from '../apps/server/src/modules/auth/passwords.js';
import { PartnerService } from '../apps/server/src/modules/partners/service.js';
import { ensureTerms } from '../apps/server/src/modules/terms/bootstrap.js';
import { TermsService } from '../apps/server/src/modules/terms/service.js';
import { scaleConfig } from './scale-app.js';
import { checkYear, countYear, createYearPartitions, deferIndexes, fillKeys, finish, restoreIndexes } from './scale-fill-derived.js';
import { fillContests, fillFees, fillPassages, fillVpoMoney } from './scale-fill-money.js';
import { fillPeople, fillVpos, planYear } from './scale-fill-people.js';
import type { FillContext } from './scale-fill-people.js';
import { fillFreeFlow, fillMoneyIn, fillRetained } from './scale-fill-side.js';
import { SCALE_OPERATORS, SCALE_PASSWORD, SCALE_SHIPPERS, shapeAt } from './scale-shape.js';
import type { ScaleShape } from './scale-shape.js';
import { createHelpers, scalar, Steps } from './scale-steps.js';
import type { StepRecord } from './scale-steps.js';

const DAY = 86_400_000;

/** The tables whose rows a build reports (and the test checks). */
const COUNTED_TABLES = [
  'drivers',
  'accounts',
  'vehicles',
  'tags',
  'ledger_entries',
  'passages',
  'passage_payments',
  'vpos',
  'contests',
  'tag_fee_charges',
  'pix_charges',
  'free_flow_tolls',
  'ledger_entry_counts',
  'ledger_scope_counts',
  'access_records',
  'sessions',
  'notification_outbox',
] as const;

export interface FillReport {
  shape: ScaleShape;
  /** The build's now: the year ends there (ISO). */
  anchor: string;
  seconds: number;
  steps: StepRecord[];
  rows: Record<string, number>;
  /** pg_database_size after VACUUM ANALYZE. */
  databaseBytes: number;
  /** Migration 028 present: month partitions made and key tables filled. */
  partitioned: boolean;
  keyTables: boolean;
  /** The skew: entries of the heaviest driver, and of the median one. */
  skew: { heaviestEntries: number; medianEntries: number; carriersShareOfPassages: number };
}

/** Greatest common divisor: a stride prime to n visits every one of n slots. */
function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * Issue 38: a year of the portal at `fraction` of its full size, written by the database itself
 * (INSERT ... SELECT over generate_series and the plan tables, in chunks of about 2 million rows,
 * each chunk its own transaction; a stopped build resumes after its last step when run again with
 * the same `fingerprint`), on `db`, a database the server's own migrateToLatest prepares. Every row
 * in the shape the services write it (the keys and references they spell). Prints its progress.
 */
export async function fillScale(db: Db, fraction: number, fingerprint: string, log: (line: string) => void): Promise<FillReport> {
  if (db.dialect !== 'postgres') throw new Error('o bench de escala roda no PostgreSQL');
  const t0 = performance.now();
  const shape = shapeAt(fraction);
  await migrateToLatest(db);
  const steps = new Steps(db.kysely, log);
  if ((await steps.open(fingerprint)) === 'mismatch') throw new Error('banco começado por outra versão do preenchimento: apague-o');
  const config = scaleConfig('postgres://unused');
  await createHelpers(db.kysely);
  const partners = new PartnerService(db);
  const operators = [];
  for (const [i, o] of SCALE_OPERATORS.entries()) {
    const p = await partners.ensure('operator', `${o.name} (escala)`, o.cnpj);
    operators.push({ op: i + 1, id: p.id, cnpj: o.cnpj });
  }
  const shippers = [];
  for (let s = 1; s <= SCALE_SHIPPERS; s++) {
    const p = await partners.ensure('shipper', `Embarcador Escala ${s}`);
    const cnpj = await scalar(db.kysely, sql`select scale_cnpj(${40_000_000 + s}::bigint * 10000 + 1)::bigint`);
    shippers.push({ id: p.id, name: p.name, cnpj: String(cnpj).padStart(14, '0') });
  }
  const platform = await partners.ensure('platform', 'Plataforma de terceiros (escala)');
  const concessionaire = await partners.ensure('concessionaire', 'Concessionária sem cancela (escala)');
  const terms = new TermsService(db.kysely);
  await ensureTerms(terms);
  const term = await terms.current();
  if (!term) throw new Error('sem termos de uso');
  const nowMs = await steps.keep('now', Math.floor(Date.now() / 60_000) * 60_000);
  const ctx: FillContext = {
    db: db.kysely,
    shape,
    steps,
    nowMs,
    startMs: nowMs - 365 * DAY,
    operators,
    shippers,
    platformId: platform.id,
    concessionaireId: concessionaire.id,
    passwordHash: await new PasswordHasher(config.argon2).hash(SCALE_PASSWORD),
    termId: term.id,
  };
  log(
    `  shape: ${shape.drivers.toLocaleString('en')} drivers (${shape.carriers.toLocaleString('en')} carriers), ${shape.tags.toLocaleString('en')} tags, ` +
      `${shape.passages.toLocaleString('en')} passages, ${shape.movements.toLocaleString('en')} movements, ${shape.vpos.toLocaleString('en')} VPOs, ` +
      `${shape.contests.toLocaleString('en')} contests; the year ends ${new Date(nowMs).toISOString()}`,
  );
  await planYear(ctx);
  await fillPeople(ctx);
  const partitioned = await createYearPartitions(ctx);
  await deferIndexes(ctx);
  let stride = 7919;
  while (gcd(stride, shape.carrierTags) !== 1) stride += 2;
  await fillVpos(ctx, stride);
  await fillPassages(ctx);
  await fillVpoMoney(ctx);
  await fillFees(ctx);
  await fillContests(ctx);
  await fillFreeFlow(ctx);
  await fillMoneyIn(ctx);
  await countYear(ctx);
  await restoreIndexes(ctx);
  await fillRetained(ctx, {
    sessionTtlHours: config.sessionTtlHours,
    sessionsDays: config.retention.sessionsDays,
    idempotencyKeysHours: config.retention.idempotencyKeysHours,
    pushSentDays: config.retention.pushSentDays,
  });
  await checkYear(ctx);
  const keyTables = await fillKeys(ctx);
  const skew = await skewOf(ctx);
  await finish(ctx);
  await sql`drop table if exists scale_progress`.execute(db.kysely);
  const rows: Record<string, number> = {};
  for (const table of COUNTED_TABLES) rows[table] = await scalar(db.kysely, sql`select count(*) from ${sql.table(table)}`);
  const databaseBytes = await scalar(db.kysely, sql`select pg_database_size(current_database())`);
  return {
    shape,
    anchor: new Date(nowMs).toISOString(),
    // A resumed build: the steps of the earlier runs count too.
    seconds: (performance.now() - t0) / 1000 + steps.done.filter((x) => x.resumed).reduce((sum, x) => sum + x.seconds, 0),
    steps: steps.done,
    rows,
    databaseBytes,
    partitioned,
    keyTables,
    skew,
  };
}

/** The heaviest driver's entries against the median driver's, and the carriers' share of the passages. */
async function skewOf(ctx: FillContext): Promise<FillReport['skew']> {
  const { rows } = await sql<{ heaviest: string; median: string; carriers: string }>`select
      (select max(entries) from (select sum(entries) as entries from ledger_entry_counts where unit = 'month' group by driver_id) a) as heaviest,
      (select percentile_disc(0.5) within group (order by entries) from
        (select sum(entries) as entries from ledger_entry_counts where unit = 'month' group by driver_id) a) as median,
      (select coalesce(sum(passages), 0)::float8 / greatest(1, (select sum(passages) from scale_tags)) from scale_tags where carrier) as carriers`.execute(
    ctx.db,
  );
  const row = rows[0];
  return {
    heaviestEntries: Number(row?.heaviest ?? 0),
    medianEntries: Number(row?.median ?? 0),
    carriersShareOfPassages: Number(row?.carriers ?? 0),
  };
}
