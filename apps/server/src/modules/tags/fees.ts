import { billingPeriod, STATEMENT_ORIGINS, TAG_MONTHLY_FEE_CENTS, tagFeePlaceName, tagFeeWaiverPlaceName } from '@portal/domain';
import { nowIso } from '../../db/connection.js';
import type { Database, TagRowDb } from '../../db/schema.js';
import type { ExpressionBuilder } from 'kysely';
import type { Trx } from '../../db/connection.js';
import type { EntryInput } from '../ledger/ledger.js';
import { accountId, post, postGuardedDebit, postMany } from '../ledger/ledger.js';
import type { OwnBalanceDebit } from '../notifications/balance-crossings.js';
import { enqueueBalanceCrossings } from '../notifications/balance-crossings.js';

export type FeeOutcome = 'charged' | 'already-paid' | 'insufficient';

type FeeTag = Pick<TagRowDb, 'id' | 'driver_id' | 'serial_number' | 'vehicle_id'>;

/**
 * Founding decision 13: the monthly fee of R$ 15,90, the only writer of `tag_fee_charges` and
 * `tags.paid_through`. One row per tag and month (unique), a guarded debit with an idempotency
 * key per tag and month: whatever runs twice, a month is paid once. 'insufficient' writes
 * nothing; the caller refuses (activation, release) or blocks the tag (billing).
 */
export class TagFees {
  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Activation: this month's fee. */
  payThisMonth(trx: Trx, tag: FeeTag): Promise<FeeOutcome> {
    return this.pay(trx, tag, billingPeriod(this.now()));
  }

  /** Release: every month a renewal left unpaid, oldest first, then this month's; 'insufficient' at the first short one. */
  async payOwed(trx: Trx, tag: FeeTag): Promise<'paid' | 'insufficient'> {
    const unpaid = await trx
      .selectFrom('tag_fee_charges')
      .select('period')
      .where('tag_id', '=', tag.id)
      .where('status', '=', 'unpaid')
      .where('waived_at', 'is', null)
      .orderBy('period')
      .execute();
    const periods = new Set([...unpaid.map((u) => u.period), billingPeriod(this.now())]);
    for (const period of periods) {
      if ((await this.pay(trx, tag, period)) === 'insufficient') return 'insufficient';
    }
    return 'paid';
  }

  /** The fee of one tag and month; a month already paid is 'already-paid'. */
  async pay(trx: Trx, tag: FeeTag, period: string): Promise<FeeOutcome> {
    const existing = await trx
      .selectFrom('tag_fee_charges')
      .select(['id', 'status', 'waived_at'])
      .where('tag_id', '=', tag.id)
      .where('period', '=', period)
      .executeTakeFirst();
    if (existing?.status === 'paid' || existing?.waived_at) return 'already-paid';
    const debit = await postGuardedDebit(trx, feeEntry(tag, await accountId(trx, tag.driver_id, 'own'), period));
    if (debit.status === 'insufficient') return 'insufficient';
    if (debit.status === 'posted') {
      await enqueueBalanceCrossings(trx, [{ driverId: tag.driver_id, cents: TAG_MONTHLY_FEE_CENTS, entryId: debit.entryId }]);
    }
    const paidAt = nowIso();
    if (existing) {
      const paid = await trx
        .updateTable('tag_fee_charges')
        .set({ status: 'paid', paid_at: paidAt })
        .where('id', '=', existing.id)
        .where('waived_at', 'is', null)
        .executeTakeFirst();
      // Decision 53: the billing waived the month while this paid it (on PostgreSQL the row is
      // read again once the waiver commits). Paid it stays, and what was paid goes back at once,
      // under the waiver's own key: the driver never pays a waived month, and never gets it twice.
      if (Number(paid.numUpdatedRows) === 0) {
        await trx.updateTable('tag_fee_charges').set({ status: 'paid', paid_at: paidAt }).where('id', '=', existing.id).execute();
        await this.giveBack(trx, tag, period, TAG_MONTHLY_FEE_CENTS);
      }
      await paidThrough(trx, [tag.id], period);
    } else {
      await recordPaid(trx, [tag.id], period);
    }
    return debit.status === 'duplicate' ? 'already-paid' : 'charged';
  }

  /**
   * Decision 82: the month's fee of many tags at once (the billing's chunk), none of which has a
   * row for `period`, the caller holding their drivers', tags' and accounts' locks (lockTagHolders).
   * Each driver's Saldo, read once, pays their tags in the order given while it lasts, as pay would
   * one after the other; the debits go through one postMany (guarded: the same floor), the rows
   * through one INSERT, paid_through through one UPDATE. The tags the Saldo could not pay are
   * answered as `short`, with nothing written for them.
   */
  async payMany(trx: Trx, tags: readonly FeeTag[], period: string): Promise<{ charged: FeeTag[]; alreadyPaid: FeeTag[]; short: FeeTag[] }> {
    const outcome = { charged: [] as FeeTag[], alreadyPaid: [] as FeeTag[], short: [] as FeeTag[] };
    if (tags.length === 0) return outcome;
    const accounts = await trx
      .selectFrom('accounts')
      .select(['id', 'driver_id', 'balance_cents'])
      .where('driver_id', 'in', [...new Set(tags.map((t) => t.driver_id))])
      .where('kind', '=', 'own')
      .execute();
    const saldo = new Map(accounts.map((a) => [a.driver_id, { id: a.id, cents: Number(a.balance_cents) }]));
    const paying: { tag: FeeTag; accountId: number }[] = [];
    for (const tag of tags) {
      const account = saldo.get(tag.driver_id);
      if (!account) throw new Error(`Conta do motorista ${tag.driver_id} não encontrada`);
      if (account.cents < TAG_MONTHLY_FEE_CENTS) {
        outcome.short.push(tag);
        continue;
      }
      account.cents -= TAG_MONTHLY_FEE_CENTS;
      paying.push({ tag, accountId: account.id });
    }
    if (paying.length === 0) return outcome;
    const posted = await postMany(
      trx,
      paying.map(({ tag, accountId }) => ({ ...feeEntry(tag, accountId, period), guarded: true })),
    );
    const debits: OwnBalanceDebit[] = [];
    for (const { tag } of paying) {
      const entry = posted.get(feeKey(tag, period));
      if (entry?.posted) {
        outcome.charged.push(tag);
        debits.push({ driverId: tag.driver_id, cents: TAG_MONTHLY_FEE_CENTS, entryId: entry.entryId });
      } else {
        outcome.alreadyPaid.push(tag);
      }
    }
    await enqueueBalanceCrossings(trx, debits);
    await recordPaid(
      trx,
      paying.map(({ tag }) => tag.id),
      period,
    );
    return outcome;
  }

  /** A renewal the balance could not pay: the month is owed until the release pays it. false when the month already has its row. */
  async owe(trx: Trx, tagId: number, period: string): Promise<boolean> {
    return (await this.oweMany(trx, [tagId], period)).has(tagId);
  }

  /** The tags of `tagIds` whose month `period` already has its row (paid, owed or waived). */
  async monthsWithRow(trx: Trx, tagIds: readonly number[], period: string): Promise<Set<number>> {
    if (tagIds.length === 0) return new Set();
    const rows = await trx
      .selectFrom('tag_fee_charges')
      .select('tag_id')
      .where('tag_id', 'in', tagIds)
      .where('period', '=', period)
      .execute();
    return new Set(rows.map((row) => row.tag_id));
  }

  /** owe for many tags in one INSERT: answers the tags whose month got its row now. */
  async oweMany(trx: Trx, tagIds: readonly number[], period: string): Promise<Set<number>> {
    if (tagIds.length === 0) return new Set();
    const inserted = await trx
      .insertInto('tag_fee_charges')
      .values(feeRows(tagIds, period, null))
      .onConflict((oc) => oc.columns(['tag_id', 'period']).doNothing())
      .returning('tag_id')
      .execute();
    return new Set(inserted.map((row) => row.tag_id));
  }

  /**
   * Decision 53 (Ofício Circular ANTT 117/2025): the month `period` of a tag used only through VPO
   * (passages paid by a VPO, none otherwise) costs nothing. A fee paid for it goes back to Saldo
   * (one credit, idempotent on the tag and month), an unpaid one is no longer owed. Once: the row
   * is marked waived by a conditional update.
   */
  async waiveVpoOnlyMonth(trx: Trx, tag: FeeTag, period: string): Promise<'refunded' | 'waived' | 'none'> {
    const usage = await trx
      .selectFrom('tag_month_usage')
      .select(['vpo_passages', 'other_passages'])
      .where('tag_id', '=', tag.id)
      .where('period', '=', period)
      .executeTakeFirst();
    if (!usage || usage.vpo_passages === 0 || usage.other_passages > 0) return 'none';
    const fee = await trx
      .selectFrom('tag_fee_charges')
      .select('id')
      .where('tag_id', '=', tag.id)
      .where('period', '=', period)
      .where('waived_at', 'is', null)
      .executeTakeFirst();
    if (!fee) return 'none';
    // The status as the update leaves it, not as first read: a release may have paid the month
    // meanwhile (on PostgreSQL the update waits for it and reads the row again).
    const marked = await trx
      .updateTable('tag_fee_charges')
      .set({ waived_at: nowIso() })
      .where('id', '=', fee.id)
      .where('waived_at', 'is', null)
      .returning(['status', 'amount_cents'])
      .executeTakeFirst();
    if (!marked) return 'none';
    if (marked.status === 'unpaid') return 'waived';
    await this.giveBack(trx, tag, period, marked.amount_cents);
    return 'refunded';
  }

  /** A waived month's fee back to Saldo: one credit per tag and month, whoever posts it. */
  private async giveBack(trx: Trx, tag: FeeTag, period: string, cents: number): Promise<void> {
    await post(trx, {
      accountId: await accountId(trx, tag.driver_id, 'own'),
      amountCents: cents,
      origin: STATEMENT_ORIGINS.tagFeeWaiver,
      placeName: tagFeeWaiverPlaceName(tag.serial_number, period),
      reference: `${tag.id}:${period}`,
      idempotencyKey: `tag-fee-waiver:${tag.id}:${period}`,
      vehicleId: tag.vehicle_id,
    });
  }
}

const feeKey = (tag: FeeTag, period: string) => `tag-fee:${tag.id}:${period}`;

/** The ledger entry of one tag's fee for `period`: its key makes a month paid once, whoever posts it. */
function feeEntry(tag: FeeTag, accountId: number, period: string): EntryInput {
  return {
    accountId,
    amountCents: -TAG_MONTHLY_FEE_CENTS,
    origin: STATEMENT_ORIGINS.tagFee,
    event: null,
    placeName: tagFeePlaceName(tag.serial_number),
    reference: `${tag.id}:${period}`,
    idempotencyKey: feeKey(tag, period),
    vehicleId: tag.vehicle_id,
  };
}

/** Tags whose month has no row yet: paid now, one row each, and paid through the month. */
async function recordPaid(trx: Trx, tagIds: readonly number[], period: string): Promise<void> {
  await trx
    .insertInto('tag_fee_charges')
    .values(feeRows(tagIds, period, nowIso()))
    .execute();
  await paidThrough(trx, tagIds, period);
}

/** paid_through moves forward only: a later month already paid stays. */
async function paidThrough(trx: Trx, tagIds: readonly number[], period: string): Promise<void> {
  await trx.updateTable('tags').set({ paid_through: period }).where('id', 'in', tagIds).where(notPaidThrough(period)).execute();
}

/** A tag not yet paid through `period`: what the billing charges, and what paid_through may move. */
export function notPaidThrough(period: string) {
  return (eb: ExpressionBuilder<Database, 'tags'>) => eb.or([eb('paid_through', 'is', null), eb('paid_through', '<', period)]);
}

/** The month's fee rows of tags: paid at `paidAt`, or owed (null). */
function feeRows(tagIds: readonly number[], period: string, paidAt: string | null) {
  const createdAt = paidAt ?? nowIso();
  return tagIds.map((tagId) => ({
    tag_id: tagId,
    period,
    amount_cents: TAG_MONTHLY_FEE_CENTS,
    status: paidAt === null ? ('unpaid' as const) : ('paid' as const),
    created_at: createdAt,
    paid_at: paidAt,
  }));
}
