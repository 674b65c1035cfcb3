import type { ClosureFacts } from '@portal/domain';
import { VPO_OPEN_STATUSES } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** What decides whether the account can be closed (domain closureBlockers), read in `db` (the closing transaction, or not). */
export async function closureFacts(db: Kysely<Database>, driverId: number, now: Date): Promise<ClosureFacts> {
  const accounts = await db.selectFrom('accounts').select(['kind', 'balance_cents']).where('driver_id', '=', driverId).execute();
  const balance = (kind: 'own' | 'third' | 'vpo') => Number(accounts.find((a) => a.kind === kind)?.balance_cents ?? 0);
  const withdrawals = await db
    .selectFrom('withdrawals')
    .select('amount_cents')
    .where('driver_id', '=', driverId)
    .where('status', '=', 'PROCESSING')
    .execute();
  // A charge still payable: its money would land on a closed account. An automatic top-up's debit is
  // a charge too, told apart by its cycle.
  const charges = await db
    .selectFrom('pix_charges')
    .leftJoin('pix_automatic_cycles', 'pix_automatic_cycles.charge_id', 'pix_charges.id')
    .select(['pix_charges.amount_cents', 'pix_automatic_cycles.charge_id as cycle'])
    .where('pix_charges.driver_id', '=', driverId)
    .where('pix_charges.status', '=', 'PENDING')
    .where('pix_charges.expires_at', '>', now.toISOString())
    .execute();
  const vpos = await db
    .selectFrom('vpos')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('driver_id', '=', driverId)
    .where('status', 'in', [...VPO_OPEN_STATUSES])
    .executeTakeFirstOrThrow();
  const contests = await db
    .selectFrom('contests')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('driver_id', '=', driverId)
    .where('state', '=', 'ABERTA')
    .executeTakeFirstOrThrow();
  const amount = (r: { amount_cents: number }) => ({ amountCents: Number(r.amount_cents) });
  return {
    ownCents: balance('own'),
    thirdCents: balance('third'),
    vpoCents: balance('vpo'),
    withdrawalsInProgress: withdrawals.map(amount),
    pendingPurchases: charges.filter((c) => c.cycle === null).map(amount),
    pendingTopUps: charges.filter((c) => c.cycle !== null).map(amount),
    openVpos: Number(vpos.n),
    openContests: Number(contests.n),
  };
}

/** The closed account's row, when closed. */
export function closedAccount(db: Kysely<Database>, driverId: number) {
  return db.selectFrom('closed_accounts').selectAll().where('driver_id', '=', driverId).executeTakeFirst();
}
