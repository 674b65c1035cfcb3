import { LEDGER_LIMIT_CENTS, Refusal, serverMessages } from '@portal/domain';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { nowIso, toIso } from '../../db/connection.js';
import type { Trx } from '../../db/connection.js';
import { COUNTER_CENTS } from '../../db/migrations/020-statement-account-sums.js';
import type { EntryScope } from '../../db/migrations/027-entry-vehicles.js';
import type { AccountKind, Database } from '../../db/schema.js';

/**
 * The ledger refuses a movement whose amount or resulting balance would leave the safe range
 * (LEDGER_LIMIT_CENTS): the client's value is at fault ('invalid', on `value`), and nothing was written.
 */
export class LedgerLimitError extends Refusal {
  constructor() {
    super('invalid', serverMessages.ledger.limitExceeded, { fields: ['value'] });
  }
}

export interface EntryInput {
  accountId: number;
  amountCents: number;
  origin: string;
  event?: string | null;
  placeName: string;
  isThird?: boolean;
  reference?: string | null;
  idempotencyKey: string;
  /** When the movement happened (a passage reported late is older than the entries before it); now by default. */
  createdAt?: string;
  /** The VPO whose money moves, or that ran short for this passage (decision 52). */
  vpoId?: number | null;
  /** Decision 79: the vehicle the movement is for; the entry takes the vehicle's cost centre of now. */
  vehicleId?: number | null;
}

export type PostResult = { status: 'posted'; entryId: number; balanceCents: number } | { status: 'duplicate'; entryId: number };

export type GuardedDebitResult = PostResult | { status: 'insufficient' };

type MovementListener = (origin: string) => void;
const movementListeners = new Set<MovementListener>();

/**
 * Called with the origin of every entry written (the metrics count them). Inside the
 * transaction: one that later rolls back has still been counted. Returns the unsubscribe.
 */
export function onLedgerMovement(listener: MovementListener): () => void {
  movementListeners.add(listener);
  return () => movementListeners.delete(listener);
}

/** A driver's accounts (Saldo, SaldoTerceiro, the VPOs' money: decision 52), created with the driver. */
export async function openAccounts(trx: Trx, driverId: number): Promise<void> {
  await trx
    .insertInto('accounts')
    .values([
      { driver_id: driverId, kind: 'own', balance_cents: 0 },
      { driver_id: driverId, kind: 'third', balance_cents: 0 },
      { driver_id: driverId, kind: 'vpo', balance_cents: 0 },
    ])
    .execute();
}

export async function balances(db: Kysely<Database>, driverId: number): Promise<Record<AccountKind, number>> {
  const rows = await db.selectFrom('accounts').select(['kind', 'balance_cents']).where('driver_id', '=', driverId).execute();
  const result: Record<AccountKind, number> = { own: 0, third: 0, vpo: 0 };
  for (const row of rows) result[row.kind] = row.balance_cents;
  return result;
}

export async function accountId(db: Kysely<Database>, driverId: number, kind: AccountKind): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('driver_id', '=', driverId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Unguarded movement (credits, toll passages, refunds): the entry and the balance change in the
 * same transaction. A repeated idempotency key changes nothing and reports the first entry.
 * Like every movement, refused with LedgerLimitError (nothing written) when the amount or the
 * resulting balance would pass LEDGER_LIMIT_CENTS either way.
 */
export async function post(trx: Trx, entry: EntryInput): Promise<PostResult> {
  const result = await apply(trx, entry, false);
  if (result.status === 'insufficient') throw new Error('Lançamento sem garantia não pode ser recusado');
  return result;
}

/**
 * Debit that may not take the balance below zero: one conditional UPDATE decides, so two
 * concurrent debits can never both pass. Zero rows updated -> 'insufficient', nothing written.
 */
export async function postGuardedDebit(trx: Trx, entry: EntryInput): Promise<GuardedDebitResult> {
  if (Number.isSafeInteger(entry.amountCents) && entry.amountCents > 0) throw new RangeError('Débito deve ter valor negativo');
  return apply(trx, entry, true);
}

/**
 * Locks are always taken in the same order (account row, then the driver's counter rows of the
 * entry's month, day and hour), so concurrent movements on PostgreSQL queue instead of
 * deadlocking. The range of the resulting balance (and, for a guarded debit, its floor of zero)
 * is decided by the same conditional UPDATE, so no concurrent movement can pass it: balance = sum
 * of entries always holds, and every balance and sum stays an exact JavaScript number. The entry's
 * place in the statement is its (created_at, id); nothing else moves (decision 54), whatever its date.
 */
async function apply(trx: Trx, entry: EntryInput, guarded: boolean): Promise<GuardedDebitResult> {
  assertPostable(entry.amountCents);
  // One text form on both databases: SQLite compares these dates as text.
  const createdAt = entry.createdAt === undefined ? nowIso() : toIso(entry.createdAt);
  const existing = await findByKey(trx, entry.idempotencyKey);
  if (existing) return { status: 'duplicate', entryId: existing };
  const updated = await moveBalance(trx, entry.accountId, entry.amountCents, guarded);
  if (!updated) return refusal(trx, entry, guarded);
  const centres = await centresOf(trx, [entry]);
  const row = entryRow(entry, updated.driver_id, createdAt, centres);
  const inserted = await insertEntry(trx, row);
  if (inserted === null) {
    // A concurrent request with the same key won the insert: undo the balance.
    await trx
      .updateTable('accounts')
      .set((eb) => ({ balance_cents: eb('balance_cents', '-', entry.amountCents) }))
      .where('id', '=', entry.accountId)
      .execute();
    return { status: 'duplicate', entryId: await findByKeyOrThrow(trx, entry.idempotencyKey) };
  }
  await countEntries(trx, [{ ...row, kind: updated.kind }]);
  for (const listener of movementListeners) listener(entry.origin);
  return { status: 'posted', entryId: inserted, balanceCents: updated.balance_cents };
}

/** An entry of postMany: `guarded` debits may not take their account below zero. */
export interface ManyEntryInput extends EntryInput {
  guarded?: boolean;
}

/**
 * Decision 55: many movements of a chunk of partner passages in a few statements: the keys seen
 * before (one read), each account's sum by one conditional UPDATE (the same range and floor as
 * post and postGuardedDebit: a refusal throws and the caller's transaction rolls back whole), the
 * new entries by one INSERT, their counters by one upsert. The caller holds the accounts' locks
 * (the chunk's lock order), so no twin can insert a key between the read and the insert. Answers
 * each key's entry id and whether it was posted now.
 */
export async function postMany(trx: Trx, entries: readonly ManyEntryInput[]): Promise<Map<string, { entryId: number; posted: boolean }>> {
  const result = new Map<string, { entryId: number; posted: boolean }>();
  if (entries.length === 0) return result;
  for (const entry of entries) assertPostable(entry.amountCents);
  const seen = await entriesOfKeys(
    trx,
    entries.map((e) => e.idempotencyKey),
  );
  for (const row of seen) result.set(row.idempotency_key, { entryId: row.id, posted: false });
  const fresh = entries.filter(
    (e, i) => !result.has(e.idempotencyKey) && entries.findIndex((x) => x.idempotencyKey === e.idempotencyKey) === i,
  );
  if (fresh.length === 0) return result;
  const byAccount = new Map<number, { delta: number; guarded: boolean }>();
  for (const e of fresh) {
    const sum = byAccount.get(e.accountId) ?? { delta: 0, guarded: false };
    sum.delta += e.amountCents;
    sum.guarded ||= e.guarded === true;
    byAccount.set(e.accountId, sum);
  }
  const ownerOf = await moveBalances(trx, byAccount);
  const centres = await centresOf(trx, fresh);
  const rows = fresh.map((e) =>
    entryRow(e, ownerOf.get(e.accountId)?.driver_id ?? 0, e.createdAt === undefined ? nowIso() : toIso(e.createdAt), centres),
  );
  // The caller's locks keep twins out; a key claimed meanwhile would still fail the insert whole.
  await trx
    .insertInto('ledger_entry_keys')
    .values(rows.map((r) => ({ idempotency_key: r.idempotency_key, created_at: r.created_at })))
    .execute();
  const inserted = await trx.insertInto('ledger_entries').values(rows).returning(['id', 'idempotency_key']).execute();
  for (const row of inserted) result.set(row.idempotency_key, { entryId: row.id, posted: true });
  await countEntries(
    trx,
    rows.map((row) => ({ ...row, kind: ownerOf.get(row.account_id)?.kind ?? 'own' })),
  );
  for (const row of rows) for (const listener of movementListeners) listener(row.origin);
  return result;
}

/** Why the conditional UPDATE changed nothing: no account, a short balance (guarded), or the range. */
async function refusal(trx: Trx, entry: EntryInput, guarded: boolean): Promise<{ status: 'insufficient' }> {
  const account = await trx.selectFrom('accounts').select('balance_cents').where('id', '=', entry.accountId).executeTakeFirst();
  if (!account) throw new Error(`Conta ${entry.accountId} não encontrada`);
  if (guarded && account.balance_cents + entry.amountCents < 0) return { status: 'insufficient' };
  throw new LedgerLimitError();
}

/**
 * The first instants of the UTC month, day and hour of `createdAt` (toISOString text), in the
 * text form created_at has: the keys of the driver's counters (ledger_entry_counts, migration 015).
 */
export function bucketsOf(createdAt: string): { month: string; day: string; hour: string } {
  return {
    month: `${createdAt.slice(0, 7)}-01T00:00:00.000Z`,
    day: `${createdAt.slice(0, 10)}T00:00:00.000Z`,
    hour: `${createdAt.slice(0, 13)}:00:00.000Z`,
  };
}

/** An entry as its counters see it: its driver, its date, its amount, its account's kind, its vehicle and centre. */
interface CountedEntry {
  driver_id: number;
  created_at: string;
  amount_cents: number;
  kind: AccountKind;
  vehicle_id: number | null;
  cost_centre_id: number | null;
}

type CounterCents = Record<(typeof COUNTER_CENTS)[AccountKind], number>;
type Unit = 'month' | 'day' | 'hour';

/** Adds an entry to the counter of `id` in `counters`, made by `start` the first time. */
function addTo<C extends { entries: number } & CounterCents>(
  counters: Map<string, C>,
  id: string,
  start: () => C,
  entry: CountedEntry,
): void {
  const counted = counters.get(id) ?? start();
  counted.entries += 1;
  counted[COUNTER_CENTS[entry.kind]] += entry.amount_cents;
  counters.set(id, counted);
}

const NO_CENTS: CounterCents = { own_cents: 0, third_cents: 0, vpo_cents: 0 };

/**
 * The entries in their drivers' counters of their month, day and hour, with what each account
 * moved (migration 020), and (decision 79) in their vehicle's and cost centre's: one upsert each,
 * whatever the entries' dates (the statement finds places and balances by summing them:
 * statement/queries.ts).
 */
async function countEntries(trx: Trx, entries: readonly CountedEntry[]): Promise<void> {
  type Counter = { driver_id: number; unit: Unit; bucket: string; entries: number } & CounterCents;
  type ScopeCounter = Counter & { scope: EntryScope; scope_id: number };
  const buckets = new Map<string, Counter>();
  const scoped = new Map<string, ScopeCounter>();
  for (const entry of entries) {
    const scopes: [EntryScope, number | null][] = [
      ['vehicle', entry.vehicle_id],
      ['centre', entry.cost_centre_id],
    ];
    for (const [unit, bucket] of Object.entries(bucketsOf(entry.created_at)) as [Unit, string][]) {
      const base = { driver_id: entry.driver_id, unit, bucket, entries: 0, ...NO_CENTS };
      addTo(buckets, `${entry.driver_id}|${unit}|${bucket}`, () => ({ ...base }), entry);
      for (const [scope, id] of scopes) {
        if (id !== null)
          addTo(scoped, `${entry.driver_id}|${scope}|${id}|${unit}|${bucket}`, () => ({ ...base, scope, scope_id: id }), entry);
      }
    }
  }
  await trx
    .insertInto('ledger_entry_counts')
    .values([...buckets.values()])
    .onConflict((oc) => oc.columns(['driver_id', 'unit', 'bucket']).doUpdateSet(addedUp('ledger_entry_counts')))
    .execute();
  if (scoped.size === 0) return;
  await trx
    .insertInto('ledger_scope_counts')
    .values([...scoped.values()])
    .onConflict((oc) => oc.columns(['driver_id', 'scope', 'scope_id', 'unit', 'bucket']).doUpdateSet(addedUp('ledger_scope_counts')))
    .execute();
}

/** A counter's upsert: the new entries added to what it held. */
function addedUp(table: 'ledger_entry_counts' | 'ledger_scope_counts') {
  const plus = (column: string) => sql<number>`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`;
  return { entries: plus('entries'), own_cents: plus('own_cents'), third_cents: plus('third_cents'), vpo_cents: plus('vpo_cents') };
}

/** Decision 79: the cost centre of each vehicle the entries name, as it is now (one read). */
async function centresOf(trx: Trx, entries: readonly EntryInput[]): Promise<ReadonlyMap<number, number | null>> {
  const ids = [...new Set(entries.flatMap((e) => (e.vehicleId == null ? [] : [e.vehicleId])))];
  if (ids.length === 0) return new Map();
  const rows = await trx.selectFrom('vehicles').select(['id', 'cost_centre_id']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.cost_centre_id]));
}

/**
 * Adds `delta` to the account when the result stays within the ledger's range (and, guarded, at or
 * above zero): one conditional UPDATE, so no concurrent movement can pass the bounds. undefined: it did not.
 */
function moveBalance(trx: Trx, account: number, delta: number, guarded: boolean) {
  return trx
    .updateTable('accounts')
    .set((eb) => ({ balance_cents: eb('balance_cents', '+', delta), moved_at: nowIso() }))
    .where('id', '=', account)
    .where((eb) => eb.between(eb('balance_cents', '+', delta), guarded ? 0 : -LEDGER_LIMIT_CENTS, LEDGER_LIMIT_CENTS))
    .returning(['balance_cents', 'driver_id', 'kind'])
    .executeTakeFirst();
}

/**
 * moveBalance for many accounts in one UPDATE (postMany): each account's sum within the same
 * range and floor. Any account that would leave them refuses the whole (the caller's transaction
 * rolls back): guarded debits above the balance throw, the range a LedgerLimitError.
 */
async function moveBalances(
  trx: Trx,
  sums: ReadonlyMap<number, { delta: number; guarded: boolean }>,
): Promise<Map<number, { driver_id: number; kind: AccountKind }>> {
  const moves = [...sums].sort((a, b) => a[0] - b[0]);
  const values = sql.join(
    moves.map(
      ([account, { delta, guarded }]) =>
        sql`(cast(${account} as bigint), cast(${delta} as bigint), cast(${guarded ? 0 : -LEDGER_LIMIT_CENTS} as bigint))`,
    ),
  );
  const { rows } = await sql<{ id: number; driver_id: number; kind: AccountKind }>`
    update accounts set balance_cents = accounts.balance_cents + m.column2, moved_at = ${nowIso()}
    from (values ${values}) as m
    where accounts.id = m.column1 and accounts.balance_cents + m.column2 between m.column3 and ${LEDGER_LIMIT_CENTS}
    returning accounts.id, accounts.driver_id, accounts.kind`.execute(trx);
  const moved = new Map(rows.map((r) => [Number(r.id), { driver_id: r.driver_id, kind: r.kind }]));
  const refused = moves.find(([account]) => !moved.has(account));
  if (refused) {
    const [account, { guarded }] = refused;
    if (guarded) throw new Error(`Conta ${account}: débitos garantidos do lote acima do saldo`);
    throw new LedgerLimitError();
  }
  return moved;
}

/** The ledger_entries row of an entry, with its vehicle's cost centre (centresOf). */
function entryRow(entry: EntryInput, driverId: number, createdAt: string, centres: ReadonlyMap<number, number | null>) {
  const vehicleId = entry.vehicleId ?? null;
  return {
    account_id: entry.accountId,
    driver_id: driverId,
    amount_cents: entry.amountCents,
    origin: entry.origin,
    event: entry.event ?? null,
    place_name: entry.placeName,
    is_third: entry.isThird ? (1 as const) : (0 as const),
    reference: entry.reference ?? null,
    vpo_id: entry.vpoId ?? null,
    vehicle_id: vehicleId,
    cost_centre_id: vehicleId === null ? null : (centres.get(vehicleId) ?? null),
    idempotency_key: entry.idempotencyKey,
    created_at: createdAt,
  };
}

/**
 * The new entry's id; null when an entry with the same idempotency key exists. The key is claimed
 * first (decision 80: its uniqueness across months lives in ledger_entry_keys); a concurrent claim
 * of the same key waits for the other transaction and then finds it taken.
 */
async function insertEntry(trx: Trx, row: ReturnType<typeof entryRow>): Promise<number | null> {
  const claimed = await trx
    .insertInto('ledger_entry_keys')
    .values({ idempotency_key: row.idempotency_key, created_at: row.created_at })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('idempotency_key')
    .executeTakeFirst();
  if (!claimed) return null;
  const inserted = await trx.insertInto('ledger_entries').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** The entries of these keys, each read in its own month (the key's created_at) on PostgreSQL. */
function entriesOfKeys(trx: Trx, keys: readonly string[]) {
  return trx
    .selectFrom('ledger_entry_keys as k')
    .innerJoin('ledger_entries as e', (join) =>
      join.onRef('e.idempotency_key', '=', 'k.idempotency_key').onRef('e.created_at', '=', 'k.created_at'),
    )
    .select(['e.id', 'e.idempotency_key'])
    .where('k.idempotency_key', 'in', keys)
    .execute();
}

async function findByKey(trx: Trx, key: string): Promise<number | null> {
  const [row] = await entriesOfKeys(trx, [key]);
  return row?.id ?? null;
}

async function findByKeyOrThrow(trx: Trx, key: string): Promise<number> {
  const id = await findByKey(trx, key);
  if (id === null) throw new Error(`Lançamento não encontrado para a chave ${key}`);
  return id;
}

/** A whole, non-zero number of cents within the ledger's limit. */
function assertPostable(cents: number): void {
  if (!Number.isSafeInteger(cents) || cents === 0) throw new RangeError(`Valor inválido em centavos: ${cents}`);
  if (Math.abs(cents) > LEDGER_LIMIT_CENTS) throw new LedgerLimitError();
}
