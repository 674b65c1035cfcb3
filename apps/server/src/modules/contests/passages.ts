import type { Trx } from '../../db/connection.js';
import { nowIso, toIso } from '../../db/connection.js';
import type { PassagePart } from '../vpos/money.js';

/** A passage as the operator sent it, once its tag is proven and its money moved. */
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
 * Decision 56: the passage's record and what each account paid of it, in the push's transaction.
 * When it arrives, an earlier-recorded passage of the same tag at the same plaza within
 * `duplicateMinutes` of it (either side) makes it a possible double charge. Returns whether it was
 * flagged (false for a replay: the record exists already).
 */
export async function recordPassage(
  trx: Trx,
  passage: PassageRecord,
  parts: readonly PassagePart[],
  duplicateMinutes: number,
): Promise<{ flagged: boolean }> {
  const at = new Date(passage.occurredAt);
  const windowMs = duplicateMinutes * 60_000;
  const earlier = await trx
    .selectFrom('passages')
    .select('id')
    .where('tag_id', '=', passage.tagId)
    .where('place_name', '=', passage.placeName)
    .where('occurred_at', '>=', toIso(new Date(at.getTime() - windowMs)))
    .where('occurred_at', '<=', toIso(new Date(at.getTime() + windowMs)))
    // Any one will do: the first index hit, not the oldest of many.
    .limit(1)
    .executeTakeFirst();
  const inserted = await trx
    .insertInto('passages')
    .values({
      partner_id: passage.partnerId,
      external_id: passage.externalId,
      operator_cnpj: passage.operatorCnpj,
      driver_id: passage.driverId,
      tag_id: passage.tagId,
      serial_number: passage.serialNumber,
      place_name: passage.placeName,
      occurred_at: toIso(at),
      amount_cents: passage.amountCents,
      is_third: passage.isThird ? 1 : 0,
      duplicate_of: earlier?.id ?? null,
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['partner_id', 'external_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return { flagged: false };
  await trx
    .insertInto('passage_payments')
    .values(
      parts.map((part) => ({
        passage_id: inserted.id,
        entry_id: part.entryId,
        account: part.account,
        vpo_id: part.vpoId,
        paid_cents: part.cents,
      })),
    )
    .onConflict((oc) => oc.column('entry_id').doNothing())
    .execute();
  return { flagged: earlier !== undefined };
}
