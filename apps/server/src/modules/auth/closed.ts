import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Decision 70: whether the driver closed their account. A call authenticated just before the
 * closing that writes just after it (a Pix charge, a top-up, a VPO) asks this under the driver's
 * lock, so that nothing payable or held appears on a closed account.
 */
export async function isClosedAccount(db: Kysely<Database>, driverId: number): Promise<boolean> {
  const row = await db.selectFrom('closed_accounts').select('driver_id').where('driver_id', '=', driverId).executeTakeFirst();
  return row !== undefined;
}
