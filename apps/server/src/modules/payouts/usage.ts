import type { PixKeyType } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Trx } from '../../db/connection.js';

type Reader = Trx | Kysely<Database>;

/** What the driver sent (or is sending: every withdrawal not FAILED) in [from, to), optionally to one key. */
export async function sentBetween(
  db: Reader,
  driverId: number,
  from: Date,
  to: Date,
  key?: { keyType: PixKeyType; key: string },
): Promise<number> {
  const row = await db
    .selectFrom('withdrawals')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_cents'), eb.lit(0)).as('sent'))
    .where('driver_id', '=', driverId)
    .where('status', '!=', 'FAILED')
    .where('created_at', '>=', from.toISOString())
    .where('created_at', '<', to.toISOString())
    .$if(key !== undefined, (qb) => qb.where('pix_key_type', '=', key?.keyType ?? 'CPF').where('pix_key', '=', key?.key ?? ''))
    .executeTakeFirstOrThrow();
  return Number(row.sent);
}

/** The driver's withdrawals asked since `since` (any outcome: each one was a provider call), oldest first. */
export async function askedSince(db: Reader, driverId: number, since: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('withdrawals')
    .select('created_at')
    .where('driver_id', '=', driverId)
    .where('created_at', '>=', since.toISOString())
    .orderBy('created_at')
    .execute();
  return rows.map((r) => (r.created_at instanceof Date ? r.created_at.toISOString() : String(r.created_at)));
}
