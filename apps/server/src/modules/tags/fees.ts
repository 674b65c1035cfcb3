import { billingPeriod, STATEMENT_ORIGINS, TAG_MONTHLY_FEE_CENTS, tagFeePlaceName } from '@portal/domain';
import { nowIso } from '../../db/connection.js';
import type { TagRowDb } from '../../db/schema.js';
import type { Trx } from '../../db/connection.js';
import { accountId, postGuardedDebit } from '../ledger/ledger.js';

export type FeeOutcome = 'charged' | 'already-paid' | 'insufficient';

type FeeTag = Pick<TagRowDb, 'id' | 'driver_id' | 'serial_number'>;

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
      .select(['id', 'status'])
      .where('tag_id', '=', tag.id)
      .where('period', '=', period)
      .executeTakeFirst();
    if (existing?.status === 'paid') return 'already-paid';
    const debit = await postGuardedDebit(trx, {
      accountId: await accountId(trx, tag.driver_id, 'own'),
      amountCents: -TAG_MONTHLY_FEE_CENTS,
      origin: STATEMENT_ORIGINS.tagFee,
      event: null,
      placeName: tagFeePlaceName(tag.serial_number),
      reference: `${tag.id}:${period}`,
      idempotencyKey: `tag-fee:${tag.id}:${period}`,
    });
    if (debit.status === 'insufficient') return 'insufficient';
    const paidAt = nowIso();
    if (existing) {
      await trx.updateTable('tag_fee_charges').set({ status: 'paid', paid_at: paidAt }).where('id', '=', existing.id).execute();
    } else {
      await trx
        .insertInto('tag_fee_charges')
        .values({ tag_id: tag.id, period, amount_cents: TAG_MONTHLY_FEE_CENTS, status: 'paid', created_at: paidAt, paid_at: paidAt })
        .execute();
    }
    await trx
      .updateTable('tags')
      .set({ paid_through: period })
      .where('id', '=', tag.id)
      .where((eb) => eb.or([eb('paid_through', 'is', null), eb('paid_through', '<', period)]))
      .execute();
    return debit.status === 'duplicate' ? 'already-paid' : 'charged';
  }

  /** A renewal the balance could not pay: the month is owed until the release pays it. false when the month already has its row. */
  async owe(trx: Trx, tagId: number, period: string): Promise<boolean> {
    const inserted = await trx
      .insertInto('tag_fee_charges')
      .values({ tag_id: tagId, period, amount_cents: TAG_MONTHLY_FEE_CENTS, status: 'unpaid', created_at: nowIso(), paid_at: null })
      .onConflict((oc) => oc.columns(['tag_id', 'period']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }
}
