import type { Trx } from '../../db/connection.js';
import { nowIso, toIso } from '../../db/connection.js';
import { recordedNoEarlierThan } from './queries.js';

/** One account's part of a passage: the ledger entry that paid it (decision 56 gives back from these). */
export interface PassagePart {
  entryId: number;
  account: 'own' | 'third' | 'vpo';
  /** The VPO that paid this part; null for Saldo's (or SaldoTerceiro's). */
  vpoId: number | null;
  cents: number;
  /** The ledger already held this entry: the passage was sent before. */
  replayed: boolean;
}

/** A passage as its source sent it, once its tag is proven and its money moved. */
export interface PassageRecord {
  partnerId: number;
  externalId: string;
  operatorCnpj: string;
  driverId: number;
  tagId: number;
  serialNumber: string;
  placeName: string;
  occurredAt: string;
  amountCents: number;
  isThird: boolean;
}

/**
 * Decision 56: the passages' records and what each account paid of them, in the pushes'
 * transaction. When a passage arrives, a recorded passage of the same tag at the same plaza within
 * `possibleDuplicateMinutes` of it (either side), or one earlier in the same chunk, makes it a possible
 * double charge. Returns how many were flagged (a replay, whose record exists, is not), and the
 * ids of the passages recorded now, by externalId.
 */
export async function insertPassages(
  trx: Trx,
  passages: readonly { record: PassageRecord; parts: readonly PassagePart[] }[],
  possibleDuplicateMinutes: number,
): Promise<{ flagged: number; passageIds: ReadonlyMap<string, number> }> {
  if (passages.length === 0) return { flagged: 0, passageIds: new Map() };
  const windowMs = possibleDuplicateMinutes * 60_000;
  const times = passages.map((p) => Date.parse(p.record.occurredAt));
  const nearby = await trx
    .selectFrom('passages')
    .select(['id', 'tag_id', 'place_name', 'occurred_at'])
    .where('tag_id', 'in', [...new Set(passages.map((p) => p.record.tagId))])
    .where('place_name', 'in', [...new Set(passages.map((p) => p.record.placeName))])
    .where('occurred_at', '>=', toIso(new Date(Math.min(...times) - windowMs)))
    .where('occurred_at', '<=', toIso(new Date(Math.max(...times) + windowMs)))
    // The months read (decision 80) bounded without changing what is found.
    .where('created_at', '>=', recordedNoEarlierThan(Math.min(...times) - windowMs))
    .execute();
  const seen = nearby.map((r) => ({
    id: r.id as number | null,
    tagId: r.tag_id,
    place: r.place_name,
    at: Date.parse(toIso(r.occurred_at)),
  }));
  const createdAt = nowIso();
  const rows = passages.map(({ record }, i) => {
    const at = times[i] ?? 0;
    const possibleDuplicateOf = seen.find(
      (x) => x.tagId === record.tagId && x.place === record.placeName && Math.abs(x.at - at) <= windowMs,
    );
    seen.push({ id: null, tagId: record.tagId, place: record.placeName, at });
    return { record, possibleDuplicateOf };
  });
  // Decision 80: a partner's passage id is unique across months in passage_keys; a replay's key is taken.
  const claimed = await trx
    .insertInto('passage_keys')
    .values(rows.map(({ record }) => ({ partner_id: record.partnerId, external_id: record.externalId, created_at: createdAt })))
    .onConflict((oc) => oc.columns(['partner_id', 'external_id']).doNothing())
    .returning(['partner_id', 'external_id'])
    .execute();
  const isClaimed = new Set(claimed.map((k) => `${k.partner_id}:${k.external_id}`));
  const fresh = rows.filter(({ record }) => isClaimed.has(`${record.partnerId}:${record.externalId}`));
  const inserted =
    fresh.length === 0
      ? []
      : await trx
          .insertInto('passages')
          .values(
            fresh.map(({ record, possibleDuplicateOf }) => ({
              partner_id: record.partnerId,
              external_id: record.externalId,
              operator_cnpj: record.operatorCnpj,
              driver_id: record.driverId,
              tag_id: record.tagId,
              serial_number: record.serialNumber,
              place_name: record.placeName,
              occurred_at: toIso(record.occurredAt),
              amount_cents: record.amountCents,
              is_third: record.isThird ? (1 as const) : (0 as const),
              duplicate_of: possibleDuplicateOf?.id ?? null,
              created_at: createdAt,
            })),
          )
          .returning(['id', 'external_id'])
          .execute();
  const idOf = new Map(inserted.map((r) => [r.external_id, r.id]));
  // A passage flagged by one earlier in this chunk names it once its id is known.
  for (const [i, { record, possibleDuplicateOf }] of rows.entries()) {
    if (!possibleDuplicateOf || possibleDuplicateOf.id !== null) continue;
    const own = idOf.get(record.externalId);
    const first = rows
      .slice(0, i)
      .find(
        (r) =>
          r.record.tagId === record.tagId &&
          r.record.placeName === record.placeName &&
          Math.abs(Date.parse(r.record.occurredAt) - (times[i] ?? 0)) <= windowMs,
      );
    const firstId = first ? idOf.get(first.record.externalId) : undefined;
    if (own !== undefined && firstId !== undefined)
      await trx.updateTable('passages').set({ duplicate_of: firstId }).where('id', '=', own).execute();
  }
  const payments = passages.flatMap(({ record, parts }) => {
    const passageId = idOf.get(record.externalId);
    return passageId === undefined
      ? []
      : parts.map((part) => ({
          passage_id: passageId,
          entry_id: part.entryId,
          account: part.account,
          vpo_id: part.vpoId,
          paid_cents: part.cents,
        }));
  });
  if (payments.length > 0)
    await trx
      .insertInto('passage_payments')
      .values(payments)
      .onConflict((oc) => oc.column('entry_id').doNothing())
      .execute();
  const flagged = rows.filter(({ record, possibleDuplicateOf }) => possibleDuplicateOf !== undefined && idOf.has(record.externalId)).length;
  return { flagged, passageIds: idOf };
}

/**
 * Decision 56: `cents` of one payment of a passage given back, by a conditional UPDATE: never more
 * than it paid, whatever ran before (the caller holds the driver's lock).
 */
export async function giveBackPayment(trx: Trx, paymentId: number, cents: number): Promise<void> {
  const moved = await trx
    .updateTable('passage_payments')
    .set((eb) => ({ refunded_cents: eb('refunded_cents', '+', cents) }))
    .where('id', '=', paymentId)
    .where((eb) => eb(eb('refunded_cents', '+', cents), '<=', eb.ref('paid_cents')))
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new Error(`Pagamento ${paymentId} da passagem mudou sob a trava do motorista`);
}
