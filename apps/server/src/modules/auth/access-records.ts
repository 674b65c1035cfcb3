import type { Kysely } from 'kysely';
import { nowIso } from '../../db/connection.js';
import type { AccessAction, Database } from '../../db/schema.js';

/**
 * One use of the account from an address, as the Marco Civil da Internet (art. 15) asks an
 * application to keep for 6 months: sign-ins, the registration and each download of the
 * driver's data. The driver sees them in their export; the retention job deletes them later.
 */
export async function recordAccess(db: Kysely<Database>, driverId: number, action: AccessAction, ipAddress: string): Promise<void> {
  await db.insertInto('access_records').values({ driver_id: driverId, action, ip_address: ipAddress, occurred_at: nowIso() }).execute();
}
