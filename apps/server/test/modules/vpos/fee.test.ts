import {
  billingPeriod,
  previousBillingPeriod,
  serverMessages,
  STATEMENT_ORIGINS,
  TAG_MONTHLY_FEE_CENTS,
  tagFeeWaiverPlaceName,
} from '@portal/domain';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { TagFees } from '../../../src/modules/tags/fees.js';
import { createServices } from '../../../src/services.js';
import { bearer, json, registerDriver } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { fund } from '../../helpers/pix.js';
import { actions, registerTag, SEMPARAR, tagStatus } from '../../helpers/tags.js';
import { expectVpoInvariants, hours, minutes, spAt, useVpoApp } from '../../helpers/vpos.js';
import type { VpoDriver } from '../../helpers/vpos.js';

/** The 15th of the month after `period` ('2026-01' -> 15/02/2026), noon in São Paulo: when that month's billing runs. */
function nextMonth(period: string): Date {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const next = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
  return new Date(`${next}-15T12:00:00-03:00`);
}

/**
 * Decision 52: a tag blocked for an unpaid fee (204) still takes VPOs and the passages they pay,
 * and the fee never comes out of VPO money. Decision 53 (Ofício Circular ANTT 117/2025): a month
 * the tag was used only through VPO costs nothing.
 */
describeEachDatabase('VPO e a mensalidade da tag', (dialect) => {
  const t = useVpoApp(dialect);
  const services = (now?: () => Date) => createServices(t.ctx().config, t.db(), createLogger('silent'), now ? { now } : {});
  const thisMonth = () => billingPeriod(new Date());
  const feeRow = (serial: string, period: string) =>
    t
      .db()
      .kysely.selectFrom('tag_fee_charges')
      .innerJoin('tags', 'tags.id', 'tag_fee_charges.tag_id')
      .select(['tag_fee_charges.status', 'tag_fee_charges.waived_at', 'tag_fee_charges.amount_cents'])
      .where('tags.serial_number', '=', serial)
      .where('tag_fee_charges.period', '=', period)
      .executeTakeFirst();
  const entriesOf = async (d: VpoDriver, origin: string) =>
    (
      await t
        .db()
        .kysely.selectFrom('ledger_entries')
        .select(['amount_cents', 'place_name'])
        .where('driver_id', '=', d.id)
        .where('origin', '=', origin)
        .orderBy('id')
        .execute()
    ).map((e) => [Number(e.amount_cents), e.place_name]);

  /**
   * A tag blocked for this month's unpaid fee, the way it happens: activated last month, the rest
   * of Saldo withdrawn, then this month's billing cannot charge the fee and blocks the tag.
   */
  async function feeBlocked(): Promise<VpoDriver> {
    const d = await registerDriver(t.app());
    const tag = await registerTag(t.app(), d, { Operadora: SEMPARAR });
    await fund(t.app(), d, 100);
    const lastMonth = new Date(`${previousBillingPeriod(thisMonth())}-15T12:00:00-03:00`);
    await services(() => lastMonth).tags.activate(
      { id: d.id, cpfCnpj: d.cpfCnpj },
      { serialNumber: tag.serial, licensePlate: tag.plate, cnpj: d.cpfCnpj },
    );
    const withdrawn = await t.app().inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount: 84.1, pix: { type: 'CPF', key: d.cpfCnpj } },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await t.saldo(d)).Saldo).toBe(0);
    expect(await services().billing.run(new Date())).toMatchObject({ blocked: expect.any(Number) });
    expect(await tagStatus(t.app(), d, tag.plate)).toBe(204);
    expect(await feeRow(tag.serial, thisMonth())).toMatchObject({ status: 'unpaid', waived_at: null });
    return { ...d, tag };
  }

  it('a tag blocked for its fee (204) receives VPOs and the passages they cover; without an open VPO a passage is a 409', async () => {
    const d = await feeBlocked();
    const s = await t.shipper();
    const refused = async (res: Awaited<ReturnType<typeof t.passage>>) => {
      expect(res.statusCode, res.body).toBe(409);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.partner.tagNotActiveForPassage });
    };
    const before = await t.accounts(d);
    await refused(await t.passage(d.tag, 5));
    expect(await t.accounts(d)).toEqual(before);

    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 50 });
    expect(await t.accounts(d)).toEqual({ own: 0, third: 0, vpo: 5_000 });
    await t.passed(d.tag, 12, spAt(-minutes(5)));
    expect(await t.vpoRow(vpo.id)).toMatchObject({ used: 1_200, left: 3_800 });
    expect(await t.accounts(d)).toEqual({ own: 0, third: 0, vpo: 3_800 });
    // Outside its window, or on another platform's balance, no VPO covers it.
    await refused(await t.passage(d.tag, 5, spAt(-hours(3))));
    await refused(await t.passage(d.tag, 5, spAt(-minutes(5)), { is_third: true }));
    expect(await t.accounts(d)).toEqual({ own: 0, third: 0, vpo: 3_800 });

    // The fee is never taken from VPO money: the release still finds Saldo short, the billing too.
    const release = await actions.release(t.app(), d, d.tag.serial);
    expect(release.statusCode, release.body).toBe(422);
    expect(json(release)).toMatchObject({ Mensagem: serverMessages.tag.insufficientBalanceRelease });
    await services().billing.run(new Date());
    expect(await t.accounts(d)).toEqual({ own: 0, third: 0, vpo: 3_800 });
    expect(await tagStatus(t.app(), d, d.tag.plate)).toBe(204);
    expect(await feeRow(d.tag.serial, thisMonth())).toMatchObject({ status: 'unpaid', waived_at: null });

    // Closed, the VPO covers nothing: the blocked tag takes no passage again.
    expect((await t.close(s, vpo.externalId)).statusCode).toBe(200);
    await refused(await t.passage(d.tag, 5));
    expect(await t.accounts(d)).toEqual({ own: 0, third: 0, vpo: 0 });
    await expectVpoInvariants(t.db());
  });

  it('decision 53: the paid fee of a month used only through VPO comes back to Saldo, once, however often the billing runs', async () => {
    const d = await t.driver();
    const s = await t.shipper();
    await t.issued(s, d.tag, { ValorTotalVP: 40 });
    const at = spAt(-minutes(1));
    await t.passed(d.tag, 9.5, at);
    await t.passed(d.tag, 3, at);
    const period = billingPeriod(new Date(at));
    expect(await feeRow(d.tag.serial, period)).toMatchObject({ status: 'paid', waived_at: null });

    const billing = services().billing;
    const first = await billing.run(nextMonth(period));
    expect(first.waived).toBeGreaterThanOrEqual(1);
    expect(await feeRow(d.tag.serial, period)).toMatchObject({ status: 'paid', waived_at: expect.anything() });
    const waiver = [TAG_MONTHLY_FEE_CENTS, tagFeeWaiverPlaceName(d.tag.serial, period)];
    expect(await entriesOf(d, STATEMENT_ORIGINS.tagFeeWaiver)).toEqual([waiver]);
    const row = (await t.statement(d)).find((r) => r.origin === STATEMENT_ORIGINS.tagFeeWaiver);
    expect(row).toMatchObject({ value: 15.9, kind: 'mensalidades', user_transaction: true, vpo: null });

    // Again, and twice at once: nothing more comes back.
    expect((await billing.run(nextMonth(period))).waived).toBe(0);
    await Promise.all([billing.run(nextMonth(period)), services().billing.run(nextMonth(period))]);
    expect(await entriesOf(d, STATEMENT_ORIGINS.tagFeeWaiver)).toEqual([waiver]);
    // Saldo: 84,10 + the fee back, less next month's fee (the billing of that month).
    expect(await t.accounts(d)).toMatchObject({ own: 8_410 + TAG_MONTHLY_FEE_CENTS - TAG_MONTHLY_FEE_CENTS, vpo: 4_000 - 1_250 });
    await expectVpoInvariants(t.db());
  });

  it('decision 53: an unpaid fee of a month used only through VPO is no longer owed: the release does not ask for it', async () => {
    const d = await feeBlocked();
    const s = await t.shipper();
    await t.issued(s, d.tag, { ValorTotalVP: 30 });
    await t.passed(d.tag, 7.25);
    const period = thisMonth();

    await services().billing.run(nextMonth(period));
    expect(await feeRow(d.tag.serial, period)).toMatchObject({ status: 'unpaid', waived_at: expect.anything() });
    // Forgiven, not refunded: nothing was paid.
    expect(await entriesOf(d, STATEMENT_ORIGINS.tagFeeWaiver)).toEqual([]);
    expect(await t.accounts(d)).toEqual({ own: 0, third: 0, vpo: 3_000 - 725 });

    const release = await actions.release(t.app(), d, d.tag.serial);
    expect(release.statusCode, release.body).toBe(200);
    expect(await tagStatus(t.app(), d, d.tag.plate)).toBe(100);
    expect(await t.accounts(d)).toEqual({ own: 0, third: 0, vpo: 3_000 - 725 });
    expect((await entriesOf(d, STATEMENT_ORIGINS.tagFee)).map(([cents]) => cents)).toEqual([-TAG_MONTHLY_FEE_CENTS]);
    await expectVpoInvariants(t.db());
  });

  it('decision 53: a month with one passage paid by Saldo (or another platform) is not waived', async () => {
    const s = await t.shipper();
    const bySaldo = await t.driver();
    const byThird = await t.driver();
    for (const d of [bySaldo, byThird]) await t.issued(s, d.tag, { ValorTotalVP: 40, inicioViagem: spAt(-minutes(10)) });
    const inTrip = spAt(-minutes(1));
    for (const d of [bySaldo, byThird]) await t.passed(d.tag, 5, inTrip);
    await t.passed(bySaldo.tag, 2, spAt(-minutes(20)));
    await t.passed(byThird.tag, 2, inTrip, { is_third: true });
    const period = billingPeriod(new Date(inTrip));

    await services().billing.run(nextMonth(period));
    for (const d of [bySaldo, byThird]) {
      expect(await feeRow(d.tag.serial, period)).toMatchObject({ status: 'paid', waived_at: null });
      expect(await entriesOf(d, STATEMENT_ORIGINS.tagFeeWaiver)).toEqual([]);
    }
    await expectVpoInvariants(t.db());
  });

  it("the billing holding a tag while that month's first passage comes: both go through (that interleaving, forced)", async () => {
    const d = await t.driver();
    const { id: tagId } = await t
      .db()
      .kysely.selectFrom('tags')
      .select('id')
      .where('serial_number', '=', d.tag.serial)
      .executeTakeFirstOrThrow();
    const next = nextMonth(thisMonth());
    // The billing's chunk has locked the tag and is about to debit the fee when the passage arrives;
    // the passage must not take the account first and then wait for the tag (PostgreSQL would abort one: a 500).
    const payMany = TagFees.prototype.payMany;
    let tagLocked!: () => void;
    const locked = new Promise<void>((resolve) => (tagLocked = resolve));
    const spy = vi.spyOn(TagFees.prototype, 'payMany').mockImplementation(async function (
      this: TagFees,
      ...args: Parameters<TagFees['payMany']>
    ) {
      if (args[1].some((tag) => tag.id === tagId)) {
        tagLocked();
        await sleep(300);
      }
      return payMany.apply(this, args);
    });
    try {
      const run = services().billing.run(next);
      await locked;
      const [report, passage] = await Promise.all([run, t.passage(d.tag, 3)]);
      expect(passage.statusCode, passage.body).toBe(200);
      expect(report).toMatchObject({ skipped: 0 });
    } finally {
      spy.mockRestore();
    }
    expect(await feeRow(d.tag.serial, billingPeriod(next))).toMatchObject({ status: 'paid' });
    expect(await t.accounts(d)).toEqual({ own: 8_410 - 300 - TAG_MONTHLY_FEE_CENTS, third: 0, vpo: 0 });
    await expectVpoInvariants(t.db());
  });

  /** A 204 tag whose month (this one) was used only through VPO, with Saldo enough to release it. */
  async function vpoOnlyBlocked(): Promise<VpoDriver> {
    const d = await feeBlocked();
    await t.issued(await t.shipper(), d.tag, { ValorTotalVP: 30 });
    await t.passed(d.tag, 4);
    await fund(t.app(), d, 100);
    return d;
  }
  /** The entries of one tag's fee for one month (their reference): what was paid of it and what came back. */
  const monthEntries = async (tagId: number, period: string) =>
    (
      await t
        .db()
        .kysely.selectFrom('ledger_entries')
        .select(['origin', 'amount_cents'])
        .where('reference', '=', `${tagId}:${period}`)
        .where('origin', 'in', [STATEMENT_ORIGINS.tagFee, STATEMENT_ORIGINS.tagFeeWaiver])
        .orderBy('id')
        .execute()
    ).map((e) => [e.origin, Number(e.amount_cents)]);
  const tagIdOf = async (d: VpoDriver) =>
    (await t.db().kysely.selectFrom('tags').select('id').where('serial_number', '=', d.tag.serial).executeTakeFirstOrThrow()).id;

  it('decision 53 racing a release: the release pays the month while the billing waives it; the fee still comes back, once (forced)', async () => {
    const d = await vpoOnlyBlocked();
    const tagId = await tagIdOf(d);
    const period = thisMonth();
    // The release has paid the month (its row locked) and not yet committed when the billing waives it.
    const pay = TagFees.prototype.pay;
    let paid!: () => void;
    const paying = new Promise<void>((resolve) => (paid = resolve));
    const spy = vi.spyOn(TagFees.prototype, 'pay').mockImplementation(async function (this: TagFees, ...args: Parameters<TagFees['pay']>) {
      const outcome = await pay.apply(this, args);
      if (args[1].id === tagId && args[2] === period) {
        paid();
        await sleep(300);
      }
      return outcome;
    });
    try {
      const release = actions.release(t.app(), d, d.tag.serial);
      await paying;
      const [released] = await Promise.all([release, services().billing.run(nextMonth(period))]);
      expect(released.statusCode, released.body).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(await feeRow(d.tag.serial, period)).toMatchObject({ status: 'paid', waived_at: expect.anything() });
    expect(await monthEntries(tagId, period)).toEqual([
      [STATEMENT_ORIGINS.tagFee, -TAG_MONTHLY_FEE_CENTS],
      [STATEMENT_ORIGINS.tagFeeWaiver, TAG_MONTHLY_FEE_CENTS],
    ]);
    await expectVpoInvariants(t.db());
  });

  it('decision 53 racing a release: the billing waives the month while the release pays it; what was paid comes back, once (forced)', async () => {
    const d = await vpoOnlyBlocked();
    const tagId = await tagIdOf(d);
    const period = thisMonth();
    // The billing has marked the month waived (its row locked) and not yet committed when the release pays it.
    const waive = TagFees.prototype.waiveVpoOnlyMonth;
    let marked!: () => void;
    const marking = new Promise<void>((resolve) => (marked = resolve));
    const spy = vi.spyOn(TagFees.prototype, 'waiveVpoOnlyMonth').mockImplementation(async function (
      this: TagFees,
      ...args: Parameters<TagFees['waiveVpoOnlyMonth']>
    ) {
      const outcome = await waive.apply(this, args);
      if (args[1].id === tagId) {
        marked();
        await sleep(300);
      }
      return outcome;
    });
    try {
      const billing = services().billing.run(nextMonth(period));
      await marking;
      const [released] = await Promise.all([actions.release(t.app(), d, d.tag.serial), billing]);
      expect(released.statusCode, released.body).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(await feeRow(d.tag.serial, period)).toMatchObject({ waived_at: expect.anything() });
    // Whether the release saw the month waived or paid it first, the driver ends with it not paid: nothing, or paid and given back.
    const month = await monthEntries(tagId, period);
    const paidBack = [
      [STATEMENT_ORIGINS.tagFee, -TAG_MONTHLY_FEE_CENTS],
      [STATEMENT_ORIGINS.tagFeeWaiver, TAG_MONTHLY_FEE_CENTS],
    ];
    expect([[], paidBack]).toContainEqual(month);
    await expectVpoInvariants(t.db());
  });
});
