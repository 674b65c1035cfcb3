import type { Trx } from '../../db/connection.js';
import type { PixAutomaticEndReason, PixAutomaticStatus } from '../../db/schema.js';
import { LIVE_STATUSES } from './queries.js';

/**
 * Ends a live authorization (once: only while it is in one of `from`), and its cycles still waiting
 * for the bank are no longer expected (a debit the bank still makes is credited all the same).
 * True when this call ended it.
 */
export async function endAuthorization(
  trx: Trx,
  id: string,
  to: Exclude<PixAutomaticStatus, 'CREATED' | 'ACTIVE'>,
  reason: PixAutomaticEndReason,
  at: Date,
  from: readonly PixAutomaticStatus[] = LIVE_STATUSES,
): Promise<boolean> {
  const ended = await trx
    .updateTable('pix_automatic_authorizations')
    .set({ status: to, end_reason: reason, ended_at: at.toISOString(), next_due_date: null })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  if (Number(ended.numUpdatedRows) === 0) return false;
  await trx
    .updateTable('pix_automatic_cycles')
    .set({ status: 'CANCELLED' })
    .where('authorization_id', '=', id)
    .where('status', '=', 'SCHEDULED')
    .execute();
  return true;
}
