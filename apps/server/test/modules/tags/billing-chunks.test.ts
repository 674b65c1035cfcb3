import { billingPeriod, STATEMENT_ORIGINS, TAG_STATUS } from '@portal/domain';
import { expect, it } from 'vitest';
import { LocalTagOperatorGateway } from '../../../src/adapters/operators/local.js';
import type { OperatorContext } from '../../../src/adapters/operators/port.js';
import { createLogger } from '../../../src/logger.js';
import { Metrics } from '../../../src/metrics.js';
import { BillingService } from '../../../src/modules/tags/billing.js';
import { TagFees } from '../../../src/modules/tags/fees.js';
import { useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { recordMovements } from '../../helpers/movements.js';
import { entriesOf, expectLedgerInvariant, ownBalance, readyDriver } from '../../helpers/pix.js';
import type { RegisteredTag } from '../../helpers/tags.js';
import { actions, registerTag, tagStatus } from '../../helpers/tags.js';

const NEXT_MONTH = new Date(Date.now() + 35 * 24 * 60 * 60 * 1000);
const PERIOD = billingPeriod(NEXT_MONTH);

/** A gateway that fails to block one serial, as an operator down for that call would. */
class FailingBlock extends LocalTagOperatorGateway {
  constructor(private readonly failing: string) {
    super();
  }

  override block(ctx: OperatorContext, serialNumber: string, code: 200 | 204): Promise<number | null> {
    if (serialNumber === this.failing) return Promise.reject(new Error('operadora fora do ar'));
    return super.block(ctx, serialNumber, code);
  }
}

describeEachDatabase('the monthly billing in chunks (decision 82)', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  const db = () => ctx().db;
  const billing = (chunkSize: number, gateway = new LocalTagOperatorGateway()) =>
    new BillingService(db(), new TagFees(), gateway, createLogger('silent'), new Metrics(), chunkSize);

  /** A tag registered and activated from the driver's Saldo (this month's R$ 15,90). */
  const activeTag = async (d: Registered) => {
    const tag = await registerTag(app(), d);
    const res = await actions.activate(app(), d, tag.serial, tag.plate);
    expect(res.statusCode, res.body).toBe(200);
    return tag;
  };
  /** A toll passage paid from Saldo (unguarded): what leaves the driver short for next month. */
  const spend = (d: Registered, cents: number) =>
    recordMovements(
      db(),
      d,
      [{ at: new Date().toISOString(), cents: -cents, origin: STATEMENT_ORIGINS.passage, place: 'Praça de teste' }],
      'spend',
    );
  const feeKeys = async (d: Registered) =>
    (await entriesOf(db(), d.id)).filter((e) => e.origin === STATEMENT_ORIGINS.tagFee).map((e) => e.idempotency_key);
  const charges = (tags: RegisteredTag[]) =>
    db()
      .kysely.selectFrom('tag_fee_charges')
      .innerJoin('tags', 'tags.id', 'tag_fee_charges.tag_id')
      .select(['tags.serial_number', 'tag_fee_charges.status'])
      .where(
        'tags.serial_number',
        'in',
        tags.map((t) => t.serial),
      )
      .where('period', '=', PERIOD)
      .orderBy('tags.id')
      .execute();
  const tagIds = async (tags: RegisteredTag[]) =>
    (
      await db()
        .kysely.selectFrom('tags')
        .select('id')
        .where(
          'serial_number',
          'in',
          tags.map((t) => t.serial),
        )
        .orderBy('id')
        .execute()
    ).map((t) => t.id);

  it("a driver's Saldo pays their tags in id order while it lasts; the tag it cannot pay is owed, blocked with 204 and the driver told", async () => {
    const d = await readyDriver(app(), 100);
    const tags = [await activeTag(d), await activeTag(d), await activeTag(d)];
    await spend(d, 1230);
    expect(await ownBalance(app(), d)).toBe(40);

    const report = await billing(200).run(NEXT_MONTH);

    expect(report).toMatchObject({ period: PERIOD, charged: 2, blocked: 1, skipped: 0 });
    expect(await charges(tags)).toEqual([
      { serial_number: tags[0]?.serial, status: 'paid' },
      { serial_number: tags[1]?.serial, status: 'paid' },
      { serial_number: tags[2]?.serial, status: 'unpaid' },
    ]);
    const [first, second] = await tagIds(tags);
    expect((await feeKeys(d)).filter((k) => k.endsWith(`:${PERIOD}`))).toEqual([
      `tag-fee:${first}:${PERIOD}`,
      `tag-fee:${second}:${PERIOD}`,
    ]);
    expect(await ownBalance(app(), d)).toBe(8.2);
    expect(await tagStatus(app(), d, tags[2]?.plate ?? '')).toBe(TAG_STATUS.blockedUnpaidFee);
    expect(await tagStatus(app(), d, tags[0]?.plate ?? '')).toBe(TAG_STATUS.active);
    const told = await db().kysely.selectFrom('notification_outbox').select('payload').where('driver_id', '=', d.id).execute();
    expect(told.map((n) => JSON.parse(n.payload) as { kind: string; licensePlate?: string })).toContainEqual(
      expect.objectContaining({ kind: 'tagBlockedUnpaidFee', licensePlate: tags[2]?.plate }),
    );
    await expectLedgerInvariant(db());
  });

  it('many drivers over several chunks are each charged once, and a second run charges nothing', async () => {
    const drivers = [await readyDriver(app(), 100), await readyDriver(app(), 100), await readyDriver(app(), 100)];
    const tags: RegisteredTag[] = [];
    for (const d of drivers) tags.push(await activeTag(d), await activeTag(d));

    const first = await billing(2).run(NEXT_MONTH);
    const again = await billing(2).run(NEXT_MONTH);

    expect(first).toMatchObject({ charged: 6, blocked: 0, skipped: 0 });
    expect(again).toMatchObject({ charged: 0, blocked: 0 });
    expect((await charges(tags)).map((c) => c.status)).toEqual(Array(6).fill('paid'));
    for (const d of drivers) {
      expect((await feeKeys(d)).filter((k) => k.endsWith(`:${PERIOD}`))).toHaveLength(2);
      expect(await ownBalance(app(), d)).toBe(100 - 4 * 15.9);
    }
    await expectLedgerInvariant(db());
  });

  it('thirty tags of ten drivers are billed in a fixed number of statements, not so many per tag', async () => {
    const drivers = await Promise.all(Array.from({ length: 10 }, () => readyDriver(app(), 100)));
    const tags: RegisteredTag[] = [];
    for (const d of drivers) tags.push(await activeTag(d), await activeTag(d), await activeTag(d));
    let statements = 0;
    const counted = db().kysely.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    const report = await new BillingService(
      { ...db(), kysely: counted },
      new TagFees(),
      new LocalTagOperatorGateway(),
      createLogger('silent'),
      new Metrics(),
    ).run(NEXT_MONTH);
    expect(report).toMatchObject({ charged: 30, blocked: 0, skipped: 0 });
    expect((await charges(tags)).filter((c) => c.status === 'paid')).toHaveLength(30);
    // One at a time, a tag took about fifteen statements (its transaction, its lock, its debit, its row).
    expect(statements).toBeLessThan(30);
  });

  it('a tag whose month already has a row (owed, the tag active again) is billed alone and pays it once', async () => {
    const d = await readyDriver(app(), 100);
    const tag = await activeTag(d);
    const [id = 0] = await tagIds([tag]);
    await db()
      .kysely.insertInto('tag_fee_charges')
      .values({ tag_id: id, period: PERIOD, amount_cents: 1590, status: 'unpaid', created_at: new Date().toISOString(), paid_at: null })
      .execute();

    expect(await billing(200).run(NEXT_MONTH)).toMatchObject({ charged: 1, blocked: 0 });
    expect(await charges([tag])).toEqual([{ serial_number: tag.serial, status: 'paid' }]);
    expect((await feeKeys(d)).filter((k) => k.endsWith(`:${PERIOD}`))).toEqual([`tag-fee:${id}:${PERIOD}`]);
    await expectLedgerInvariant(db());
  });

  it('a chunk that fails rolls back whole and its tags are billed one by one: only the failing tag is left', async () => {
    const rich = await readyDriver(app(), 100);
    const poor = await readyDriver(app(), 100);
    const paid = await activeTag(rich);
    const failing = await activeTag(poor);
    await spend(poor, 8410);

    const report = await billing(200, new FailingBlock(failing.serial)).run(NEXT_MONTH);

    expect(report).toMatchObject({ charged: 1, blocked: 0, skipped: 1 });
    expect(await charges([paid, failing])).toEqual([{ serial_number: paid.serial, status: 'paid' }]);
    expect(await tagStatus(app(), poor, failing.plate)).toBe(TAG_STATUS.active);
    expect(await feeKeys(poor)).toHaveLength(1);
    await expectLedgerInvariant(db());
  });
});
