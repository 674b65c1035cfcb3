import type { Kysely } from 'kysely';
import type { Dialect, Trx } from '../../db/connection.js';
import { forUpdate } from '../../db/lock.js';
import type { Database, PixAutomaticCycleRow, PixAutomaticEndReason, PixAutomaticRow, PixAutomaticStatus } from '../../db/schema.js';

/** The states in which an authorization still counts as the driver's one (decision 58). */
const LIVE_STATUSES: readonly PixAutomaticStatus[] = ['CREATED', 'ACTIVE'];

export const isLive = (status: PixAutomaticStatus): boolean => LIVE_STATUSES.includes(status);

/** The driver's authorization waiting or active, if any (at most one: pix_automatic_one_live_idx). */
export async function liveAuthorization(db: Kysely<Database>, driverId: number): Promise<PixAutomaticRow | null> {
  return (
    (await db
      .selectFrom('pix_automatic_authorizations')
      .selectAll()
      .where('driver_id', '=', driverId)
      .where('status', 'in', [...LIVE_STATUSES])
      .executeTakeFirst()) ?? null
  );
}

/** The driver's newest authorization, whatever its state. */
export async function newestAuthorization(db: Kysely<Database>, driverId: number): Promise<PixAutomaticRow | null> {
  return (
    (await db
      .selectFrom('pix_automatic_authorizations')
      .selectAll()
      .where('driver_id', '=', driverId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

export async function authorizationById(db: Kysely<Database>, id: string): Promise<PixAutomaticRow | null> {
  return (await db.selectFrom('pix_automatic_authorizations').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The authorization row locked until the transaction ends (PostgreSQL; SQLite writes one at a time). */
export async function lockAuthorization(trx: Trx, dialect: Dialect, id: string): Promise<PixAutomaticRow | null> {
  const row = await trx
    .selectFrom('pix_automatic_authorizations')
    .selectAll()
    .where('id', '=', id)
    .$call(forUpdate<Database, 'pix_automatic_authorizations', PixAutomaticRow>(dialect))
    .executeTakeFirst();
  return row ?? null;
}

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

/** The cycle a Pix charge pays, when it is one (decision 58); its authorization with it. */
export async function cycleOfCharge(
  db: Kysely<Database>,
  chargeId: string,
): Promise<(PixAutomaticCycleRow & { provider_authorization_id: string; conciliation_id: string | null }) | null> {
  const row = await db
    .selectFrom('pix_automatic_cycles')
    .innerJoin('pix_automatic_authorizations', 'pix_automatic_authorizations.id', 'pix_automatic_cycles.authorization_id')
    .selectAll('pix_automatic_cycles')
    .select(['pix_automatic_authorizations.provider_authorization_id', 'pix_automatic_authorizations.conciliation_id'])
    .where('pix_automatic_cycles.charge_id', '=', chargeId)
    .executeTakeFirst();
  return row ?? null;
}
