import { LEDGER_LIMIT_CENTS, Refusal, serverMessages } from '@portal/domain';
import type { Kysely } from 'kysely';
import { nowIso, toIso } from '../../db/connection.js';
import type { Trx } from '../../db/connection.js';
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

/** A driver's accounts (Saldo, SaldoTerceiro, the VPOs' money: decision 52) and its entry counter, created with the driver. */
export async function openAccounts(trx: Trx, driverId: number): Promise<void> {
  await trx
    .insertInto('accounts')
    .values([
      { driver_id: driverId, kind: 'own', balance_cents: 0 },
      { driver_id: driverId, kind: 'third', balance_cents: 0 },
      { driver_id: driverId, kind: 'vpo', balance_cents: 0 },
    ])
    .execute();
  await trx.insertInto('driver_ledger_counters').values({ driver_id: driverId, entry_count: 0 }).execute();
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
 * Locks are always taken in the same order (account row, then the driver's counter row), so
 * concurrent movements on PostgreSQL queue instead of deadlocking. The range of the resulting
 * balance (and, for a guarded debit, its floor of zero) is decided by the same conditional
 * UPDATE, so no concurrent movement can pass it: balance = sum of entries always holds, and every
 * balance and sum stays an exact JavaScript number. Holding the counter row, the entry takes its
 * place in the driver's statement (insertEntry, makeRoom).
 */
async function apply(trx: Trx, entry: EntryInput, guarded: boolean): Promise<GuardedDebitResult> {
  assertAmount(entry.amountCents);
  if (Math.abs(entry.amountCents) > LEDGER_LIMIT_CENTS) throw new LedgerLimitError();
  // One text form on both databases: SQLite compares these dates as text.
  const createdAt = entry.createdAt === undefined ? nowIso() : toIso(entry.createdAt);
  const existing = await findByKey(trx, entry.idempotencyKey);
  if (existing) return { status: 'duplicate', entryId: existing };
  const floor = guarded ? 0 : -LEDGER_LIMIT_CENTS;
  const updated = await trx
    .updateTable('accounts')
    .set((eb) => ({ balance_cents: eb('balance_cents', '+', entry.amountCents) }))
    .where('id', '=', entry.accountId)
    .where((eb) => eb.between(eb('balance_cents', '+', entry.amountCents), floor, LEDGER_LIMIT_CENTS))
    .returning(['balance_cents', 'driver_id'])
    .executeTakeFirst();
  if (!updated) return refusal(trx, entry, guarded);
  const count = await bumpCounter(trx, updated.driver_id, 1);
  const inserted = await insertEntry(trx, entry, updated.driver_id, createdAt);
  if (!inserted) {
    // A concurrent request with the same key won the insert: undo the balance and the count.
    await trx
      .updateTable('accounts')
      .set((eb) => ({ balance_cents: eb('balance_cents', '-', entry.amountCents) }))
      .where('id', '=', entry.accountId)
      .execute();
    await bumpCounter(trx, updated.driver_id, -1);
    return { status: 'duplicate', entryId: await findByKeyOrThrow(trx, entry.idempotencyKey) };
  }
  if (inserted.place < count) await makeRoom(trx, updated.driver_id, inserted.place, inserted.id);
  for (const listener of movementListeners) listener(entry.origin);
  return { status: 'posted', entryId: inserted.id, balanceCents: updated.balance_cents };
}

/** Why the conditional UPDATE changed nothing: no account, a short balance (guarded), or the range. */
async function refusal(trx: Trx, entry: EntryInput, guarded: boolean): Promise<{ status: 'insufficient' }> {
  const account = await trx.selectFrom('accounts').select('balance_cents').where('id', '=', entry.accountId).executeTakeFirst();
  if (!account) throw new Error(`Conta ${entry.accountId} não encontrada`);
  if (guarded && account.balance_cents + entry.amountCents < 0) return { status: 'insufficient' };
  throw new LedgerLimitError();
}

/** UPDATE ... RETURNING on the driver's counter row: the driver's number of entries with this one. */
async function bumpCounter(trx: Trx, driverId: number, delta: 1 | -1): Promise<number> {
  const row = await trx
    .insertInto('driver_ledger_counters')
    .values({ driver_id: driverId, entry_count: Math.max(delta, 0) })
    .onConflict((oc) => oc.column('driver_id').doUpdateSet((eb) => ({ entry_count: eb('driver_ledger_counters.entry_count', '+', delta) })))
    .returning('entry_count')
    .executeTakeFirstOrThrow();
  return row.entry_count;
}

/** A late entry took place `place`: the entries dated after it move up by one. */
async function makeRoom(trx: Trx, driverId: number, place: number, entryId: number): Promise<void> {
  await trx
    .updateTable('ledger_entries')
    .set((eb) => ({ driver_seq: eb('driver_seq', '+', 1) }))
    .where('driver_id', '=', driverId)
    .where('driver_seq', '>=', place)
    .where('id', '<>', entryId)
    .execute();
}

/**
 * The entry, with driver_seq its place in the driver's statement, which runs by (created_at, id),
 * 1 the oldest. It has the driver's highest id (the counter row serialises them), so its place is
 * right after the newest entry dated at or before it, read in the same statement from the top of
 * the index down: one row when the movement is the newest, as nearly all are; k + 1 rows when k
 * entries are dated after it. Null when an entry with the same idempotency key exists.
 */
async function insertEntry(
  trx: Trx,
  entry: EntryInput,
  driverId: number,
  createdAt: string,
): Promise<{ id: number; place: number } | null> {
  const row = await trx
    .insertInto('ledger_entries')
    .values((eb) => ({
      account_id: entry.accountId,
      driver_id: driverId,
      driver_seq: eb(
        eb.fn.coalesce(
          eb
            .selectFrom('ledger_entries')
            .select('driver_seq')
            .where('driver_id', '=', driverId)
            .where('created_at', '<=', createdAt)
            .orderBy('driver_seq', 'desc')
            .limit(1),
          eb.lit(0),
        ),
        '+',
        1,
      ),
      amount_cents: entry.amountCents,
      origin: entry.origin,
      event: entry.event ?? null,
      place_name: entry.placeName,
      is_third: entry.isThird ? 1 : 0,
      reference: entry.reference ?? null,
      vpo_id: entry.vpoId ?? null,
      idempotency_key: entry.idempotencyKey,
      created_at: createdAt,
    }))
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning(['id', 'driver_seq'])
    .executeTakeFirst();
  return row ? { id: row.id, place: row.driver_seq } : null;
}

async function findByKey(trx: Trx, key: string): Promise<number | null> {
  const row = await trx.selectFrom('ledger_entries').select('id').where('idempotency_key', '=', key).executeTakeFirst();
  return row?.id ?? null;
}

async function findByKeyOrThrow(trx: Trx, key: string): Promise<number> {
  const id = await findByKey(trx, key);
  if (id === null) throw new Error(`Lançamento não encontrado para a chave ${key}`);
  return id;
}

function assertAmount(cents: number): void {
  if (!Number.isSafeInteger(cents) || cents === 0) throw new RangeError(`Valor inválido em centavos: ${cents}`);
}
