import { LEDGER_LIMIT_CENTS } from '@portal/domain';
import type { Kysely, Transaction } from 'kysely';
import { nowIso } from '../../db/connection.js';
import type { AccountKind, Database } from '../../db/schema.js';
import { LedgerLimitError } from '../../http/errors.js';

export type Trx = Transaction<Database>;

export interface EntryInput {
  accountId: number;
  amountCents: number;
  origin: string;
  event?: string | null;
  placeName: string;
  isThird?: boolean;
  reference?: string | null;
  idempotencyKey: string;
  createdAt?: string;
}

export type PostResult =
  | { status: 'posted'; entryId: number; balanceCents: number }
  | { status: 'duplicate'; entryId: number };

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

/** A driver's two accounts and its entry counter, created with the driver (ARCHITECTURE 4). */
export async function openAccounts(trx: Trx, driverId: number): Promise<void> {
  await trx
    .insertInto('accounts')
    .values([
      { driver_id: driverId, kind: 'own', balance_cents: 0 },
      { driver_id: driverId, kind: 'third', balance_cents: 0 },
    ])
    .execute();
  await trx.insertInto('driver_ledger_counters').values({ driver_id: driverId, entry_count: 0 }).execute();
}

export async function balances(db: Kysely<Database>, driverId: number): Promise<Record<AccountKind, number>> {
  const rows = await db
    .selectFrom('accounts')
    .select(['kind', 'balance_cents'])
    .where('driver_id', '=', driverId)
    .execute();
  const result: Record<AccountKind, number> = { own: 0, third: 0 };
  for (const row of rows) result[row.kind] = Number(row.balance_cents);
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
 * balance and sum stays an exact JavaScript number.
 */
async function apply(trx: Trx, entry: EntryInput, guarded: boolean): Promise<GuardedDebitResult> {
  assertAmount(entry.amountCents);
  if (Math.abs(entry.amountCents) > LEDGER_LIMIT_CENTS) throw new LedgerLimitError();
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
  const seq = await bumpCounter(trx, updated.driver_id, 1);
  const entryId = await insertEntry(trx, entry, updated.driver_id, seq);
  if (entryId === null) {
    // A concurrent request with the same key won the insert: undo the balance and the sequence.
    await trx
      .updateTable('accounts')
      .set((eb) => ({ balance_cents: eb('balance_cents', '-', entry.amountCents) }))
      .where('id', '=', entry.accountId)
      .execute();
    await bumpCounter(trx, updated.driver_id, -1);
    return { status: 'duplicate', entryId: await findByKeyOrThrow(trx, entry.idempotencyKey) };
  }
  for (const listener of movementListeners) listener(entry.origin);
  return { status: 'posted', entryId, balanceCents: Number(updated.balance_cents) };
}

/** Why the conditional UPDATE changed nothing: no account, a short balance (guarded), or the range. */
async function refusal(trx: Trx, entry: EntryInput, guarded: boolean): Promise<{ status: 'insufficient' }> {
  const account = await trx.selectFrom('accounts').select('balance_cents').where('id', '=', entry.accountId).executeTakeFirst();
  if (!account) throw new Error(`Conta ${entry.accountId} não encontrada`);
  if (guarded && Number(account.balance_cents) + entry.amountCents < 0) return { status: 'insufficient' };
  throw new LedgerLimitError();
}

/** UPDATE ... RETURNING on the driver's counter row: the next driver_seq, gapless, in commit order. */
async function bumpCounter(trx: Trx, driverId: number, delta: 1 | -1): Promise<number> {
  const row = await trx
    .insertInto('driver_ledger_counters')
    .values({ driver_id: driverId, entry_count: Math.max(delta, 0) })
    .onConflict((oc) =>
      oc.column('driver_id').doUpdateSet((eb) => ({ entry_count: eb('driver_ledger_counters.entry_count', '+', delta) })),
    )
    .returning('entry_count')
    .executeTakeFirstOrThrow();
  return Number(row.entry_count);
}

async function insertEntry(trx: Trx, entry: EntryInput, driverId: number, driverSeq: number): Promise<number | null> {
  const row = await trx
    .insertInto('ledger_entries')
    .values({
      account_id: entry.accountId,
      driver_id: driverId,
      driver_seq: driverSeq,
      amount_cents: entry.amountCents,
      origin: entry.origin,
      event: entry.event ?? null,
      place_name: entry.placeName,
      is_third: entry.isThird ? 1 : 0,
      reference: entry.reference ?? null,
      idempotency_key: entry.idempotencyKey,
      created_at: entry.createdAt ?? nowIso(),
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
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
