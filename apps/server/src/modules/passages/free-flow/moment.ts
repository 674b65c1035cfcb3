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
  return (await balancesAt(db, [{ driverId, at }]))[0] ?? 0;
}

/**
 * Saldo of each driver at each instant, in two reads whatever their number: the drivers' own
 * accounts, then every entry of those accounts after the driver's earliest instant asked.
 */
async function balancesAt(db: Kysely<Database>, asked: readonly { driverId: number; at: string }[]): Promise<number[]> {
  if (asked.length === 0) return [];
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'driver_id', 'balance_cents'])
    .where('driver_id', 'in', [...new Set(asked.map((a) => a.driverId))])
    .where('kind', '=', 'own')
    .execute();
  const earliest = new Map<number, number>();
  for (const a of asked) earliest.set(a.driverId, Math.min(earliest.get(a.driverId) ?? Infinity, Date.parse(a.at)));
  const accountOf = new Map(accounts.map((a) => [a.driver_id, a]));
  const later =
    accounts.length === 0
      ? []
      : await db
          .selectFrom('ledger_entries')
          .select(['account_id', 'created_at', 'amount_cents'])
          .where((eb) =>
            eb.or(
              accounts.map((a) =>
                eb.and([
                  eb('driver_id', '=', a.driver_id),
                  eb('account_id', '=', a.id),
                  eb('created_at', '>', new Date(earliest.get(a.driver_id) ?? 0).toISOString()),
                ]),
              ),
            ),
          )
          .execute();
  return asked.map(({ driverId, at }) => {
    const account = accountOf.get(driverId);
    if (!account) return 0;
    const instant = Date.parse(at);
    const movedSince = later
      .filter((e) => e.account_id === account.id && Date.parse(toIso(e.created_at)) > instant)
      .reduce((sum, e) => sum + Number(e.amount_cents), 0);
    return Number(account.balance_cents) - movedSince;
  });
}

/** A toll whose flag is asked: its driver, gantry, instant and value, and the plate's tag then. */
export interface FlagAsked {
  driverId: number;
  gantry: string;
  occurredAt: string;
  cents: number;
  tag: TagAtMoment | undefined;
}

export type TollFlag = { flag: FreeFlowFlag; passageId: number | null } | null;

/**
 * For each toll, the first passage of its tag at the same gantry within TAG_PAID_WINDOW_MINUTES of
 * its instant, if any: one read for them all.
 */
async function tagPassagesNear(db: Kysely<Database>, asked: readonly FlagAsked[]): Promise<(number | null)[]> {
  const window = TAG_PAID_WINDOW_MINUTES * 60_000;
  const withTag = asked.filter((a) => a.tag !== undefined);
  if (withTag.length === 0) return asked.map(() => null);
  const rows = await db
    .selectFrom('passages')
    .select(['id', 'tag_id', 'place_name', 'occurred_at'])
    .where((eb) =>
      eb.or(
        withTag.map((a) => {
          const at = Date.parse(a.occurredAt);
          return eb.and([
            eb('tag_id', '=', a.tag!.tagId),
            eb('place_name', '=', a.gantry),
            eb('occurred_at', '>=', new Date(at - window).toISOString()),
            eb('occurred_at', '<=', new Date(at + window).toISOString()),
          ]);
        }),
      ),
    )
    .orderBy('id')
    .execute();
  return asked.map((a) => {
    if (!a.tag) return null;
    const at = Date.parse(a.occurredAt);
    const near = rows.find(
      (r) => r.tag_id === a.tag!.tagId && r.place_name === a.gantry && Math.abs(Date.parse(toIso(r.occurred_at)) - at) <= window,
    );
    return near?.id ?? null;
  });
}

/**
 * Decision 76: why each toll may be wrong, on arrival: the tag also paid this gantry within minutes
 * (TAG_PAGOU), or the tag was active and Saldo covered the toll at that moment (TAG_ATIVA: a tag
 * pays free flow by itself). Null: nothing says so. A few reads for a whole chunk of tolls.
 */
export async function flagsOf(db: Kysely<Database>, asked: readonly FlagAsked[]): Promise<TollFlag[]> {
  const passages = await tagPassagesNear(db, asked);
  const balanceAsked = asked.flatMap((a, i) =>
    passages[i] === null && a.tag?.activeThen ? [{ i, driverId: a.driverId, at: a.occurredAt }] : [],
  );
  const balances = await balancesAt(db, balanceAsked);
  const balanceOf = new Map(balanceAsked.map((b, k) => [b.i, balances[k] ?? 0]));
  return asked.map((a, i) => {
    const passageId = passages[i] ?? null;
    if (passageId !== null) return { flag: 'TAG_PAGOU', passageId };
    const balance = balanceOf.get(i);
    return balance !== undefined && balance >= a.cents ? { flag: 'TAG_ATIVA', passageId: null } : null;
  });
}
