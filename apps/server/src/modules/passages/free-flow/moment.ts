import { TAG_STATUS } from '@portal/domain';
import type { Kysely } from 'kysely';
import { toIso } from '../../../db/connection.js';
import type { Database, FreeFlowFlag } from '../../../db/schema.js';

/** A passage of the tag this close to a toll at the same gantry is the same passage charged twice. */
const TAG_PAID_WINDOW_MINUTES = 10;

/** The tag a vehicle had at an instant: its serial, operator, when it was activated, and whether it was active then. */
export interface TagAtMoment {
  tagId: number;
  serialNumber: string;
  operatorCnpj: string;
  activatedAt: string | null;
  activeThen: boolean;
}

/**
 * The vehicle's tag at an instant: the one not cancelled nor released, activated before it; a tag
 * active now and activated before the instant was active then (the portal keeps no history of a
 * tag's blocks, so a tag blocked now reads as not active then, which never flags a toll wrongly).
 */
export async function tagAt(db: Kysely<Database>, vehicleIds: readonly number[], at: number): Promise<Map<number, TagAtMoment>> {
  if (vehicleIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('tags')
    .select(['id', 'vehicle_id', 'serial_number', 'operator_cnpj', 'status_code', 'activated_at'])
    .where('vehicle_id', 'in', [...new Set(vehicleIds)])
    .where('deleted_at', 'is', null)
    .where('released_at', 'is', null)
    .orderBy('id')
    .execute();
  const result = new Map<number, TagAtMoment>();
  for (const r of rows) {
    const activatedAt = r.activated_at === null ? null : toIso(r.activated_at);
    result.set(r.vehicle_id, {
      tagId: r.id,
      serialNumber: r.serial_number,
      operatorCnpj: r.operator_cnpj,
      activatedAt,
      activeThen: r.status_code === TAG_STATUS.active && activatedAt !== null && Date.parse(activatedAt) <= at,
    });
  }
  return result;
}

/** Saldo at an instant, from the ledger: today's balance less what every later entry of Saldo moved. */
export async function balanceAt(db: Kysely<Database>, driverId: number, at: string): Promise<number> {
  const account = await db
    .selectFrom('accounts')
    .select(['id', 'balance_cents'])
    .where('driver_id', '=', driverId)
    .where('kind', '=', 'own')
    .executeTakeFirst();
  if (!account) return 0;
  const later = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.sum<number | string | null>('amount_cents').as('cents'))
    .where('driver_id', '=', driverId)
    .where('created_at', '>', new Date(at).toISOString())
    .where('account_id', '=', account.id)
    .executeTakeFirst();
  return Number(account.balance_cents) - Number(later?.cents ?? 0);
}

/** The tag's passage at the same gantry within TAG_PAID_WINDOW_MINUTES of the instant, if any. */
async function tagPassageNear(db: Kysely<Database>, tagId: number, gantry: string, at: number): Promise<number | null> {
  const window = TAG_PAID_WINDOW_MINUTES * 60_000;
  const row = await db
    .selectFrom('passages')
    .select('id')
    .where('tag_id', '=', tagId)
    .where('place_name', '=', gantry)
    .where('occurred_at', '>=', new Date(at - window).toISOString())
    .where('occurred_at', '<=', new Date(at + window).toISOString())
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Decision 76: why a toll may be wrong, on arrival: the tag also paid this gantry within minutes
 * (TAG_PAGOU), or the tag was active and Saldo covered the toll at that moment (TAG_ATIVA: a tag
 * pays free flow by itself). Null: nothing says so.
 */
export async function flagOf(
  db: Kysely<Database>,
  toll: { driverId: number; gantry: string; occurredAt: string; cents: number },
  tag: TagAtMoment | undefined,
): Promise<{ flag: FreeFlowFlag; passageId: number | null } | null> {
  if (!tag) return null;
  const at = Date.parse(toll.occurredAt);
  const passageId = await tagPassageNear(db, tag.tagId, toll.gantry, at);
  if (passageId !== null) return { flag: 'TAG_PAGOU', passageId };
  if (!tag.activeThen) return null;
  return (await balanceAt(db, toll.driverId, toll.occurredAt)) >= toll.cents ? { flag: 'TAG_ATIVA', passageId: null } : null;
}
