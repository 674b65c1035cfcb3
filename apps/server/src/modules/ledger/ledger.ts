import type { Kysely, Transaction } from 'kysely';
import { nowIso } from '../../db/connection.js';
import type { AccountKind, Database } from '../../db/schema.js';

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

/** A driver's two accounts, created with the driver (ARCHITECTURE 4). */
export async function openAccounts(trx: Trx, driverId: number): Promise<void> {
  await trx
    .insertInto('accounts')
    .values([
      { driver_id: driverId, kind: 'own', balance_cents: 0 },
      { driver_id: driverId, kind: 'third', balance_cents: 0 },
    ])
    .execute();
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
 * Unguarded movement (credits, toll passages): the entry and the balance change in the same
 * transaction. A repeated idempotency key changes nothing and reports the first entry.
 */
export async function post(trx: Trx, entry: EntryInput): Promise<PostResult> {
  assertAmount(entry.amountCents);
  const existing = await findByKey(trx, entry.idempotencyKey);
  if (existing) return { status: 'duplicate', entryId: existing };
  const entryId = await insertEntry(trx, entry);
  if (entryId === null) return { status: 'duplicate', entryId: await findByKeyOrThrow(trx, entry.idempotencyKey) };
  const balance = await trx
    .updateTable('accounts')
    .set((eb) => ({ balance_cents: eb('balance_cents', '+', entry.amountCents) }))
    .where('id', '=', entry.accountId)
    .returning('balance_cents')
    .executeTakeFirstOrThrow();
  return { status: 'posted', entryId, balanceCents: Number(balance.balance_cents) };
}

/**
 * Debit that may not take the balance below zero: one conditional UPDATE decides, so two
 * concurrent debits can never both pass. Zero rows updated -> 'insufficient', nothing written.
 */
export async function postGuardedDebit(trx: Trx, entry: EntryInput): Promise<GuardedDebitResult> {
  assertAmount(entry.amountCents);
  if (entry.amountCents >= 0) throw new RangeError('Débito deve ter valor negativo');
  const existing = await findByKey(trx, entry.idempotencyKey);
  if (existing) return { status: 'duplicate', entryId: existing };
  const updated = await trx
    .updateTable('accounts')
    .set((eb) => ({ balance_cents: eb('balance_cents', '+', entry.amountCents) }))
    .where('id', '=', entry.accountId)
    .where((eb) => eb(eb('balance_cents', '+', entry.amountCents), '>=', 0))
    .returning('balance_cents')
    .executeTakeFirst();
  if (!updated) return { status: 'insufficient' };
  const entryId = await insertEntry(trx, entry);
  if (entryId === null) {
    // A concurrent request with the same key won the insert: give the money back.
    await trx
      .updateTable('accounts')
      .set((eb) => ({ balance_cents: eb('balance_cents', '-', entry.amountCents) }))
      .where('id', '=', entry.accountId)
      .execute();
    return { status: 'duplicate', entryId: await findByKeyOrThrow(trx, entry.idempotencyKey) };
  }
  return { status: 'posted', entryId, balanceCents: Number(updated.balance_cents) };
}

async function insertEntry(trx: Trx, entry: EntryInput): Promise<number | null> {
  const account = await trx
    .selectFrom('accounts')
    .select('driver_id')
    .where('id', '=', entry.accountId)
    .executeTakeFirstOrThrow();
  const row = await trx
    .insertInto('ledger_entries')
    .values({
      account_id: entry.accountId,
      driver_id: account.driver_id,
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
