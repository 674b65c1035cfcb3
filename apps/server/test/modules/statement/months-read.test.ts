import type { CompiledQuery } from 'kysely';
import { expect, it } from 'vitest';
import { describeOneDatabase } from '../../helpers/databases.js';
import { capturingQueries, executedPlans } from '../../helpers/queries.js';
import { spAt, minutes, useVpoApp } from '../../helpers/vpos.js';
import type { VpoDriver } from '../../helpers/vpos.js';
import { toIso } from '../../../src/db/connection.js';
import { createMonthPartitions, monthOfPartition, startOfUtcMonth } from '../../../src/db/partitions.js';
import { StatementService } from '../../../src/modules/statement/service.js';
import { vpoDetails } from '../../../src/modules/vpos/queries.js';

/**
 * Decision 90: a driver's statement page and a VPO's read touch the months that can hold what they
 * show, not the year behind them. On a database of a year, each month's partition not pruned is an
 * index probe that reads from disk: a light driver's page and a VPO's read grew 1.66× and 1.59× from
 * 1/50 to 0.69 of the year (bench/README.md, scale) while their rows stayed the same.
 */
describeOneDatabase('o extrato e o VPO leem só os meses que os contêm', 'postgres', () => {
  const t = useVpoApp('postgres');
  const YEAR_BACK = 12;

  /** The months of the partitions each query really read (EXPLAIN ANALYZE: executed at least once), per table. */
  async function monthsRead(queries: readonly CompiledQuery[]): Promise<{ ledger: Date[]; passages: Date[] }> {
    const nodes = await executedPlans(t.db(), queries);
    const of = (table: string) =>
      nodes.flatMap((node) => {
        const name = node['Relation Name'] ?? '';
        const month = name.startsWith(`${table}_p`) && node['Actual Loops'] > 0 ? monthOfPartition(name) : null;
        return month ? [month] : [];
      });
    return { ledger: of('ledger_entries'), passages: of('passages') };
  }

  async function firstEntryMonth(d: VpoDriver): Promise<Date> {
    const first = await t
      .db()
      .kysely.selectFrom('ledger_entries')
      .select('created_at')
      .where('driver_id', '=', d.id)
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    return startOfUtcMonth(new Date(toIso(first.created_at)));
  }

  it("a light driver's page 1 with its totals, and a VPO's read, skip the months before the driver's first movement", async () => {
    const db = t.db();
    const thisMonth = startOfUtcMonth(new Date());
    const year = Array.from(
      { length: YEAR_BACK },
      (_, i) => new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() - YEAR_BACK + i, 1)),
    );
    await createMonthPartitions(db.kysely, 'ledger_entries', year);
    await createMonthPartitions(db.kysely, 'passages', year);

    // A driver with a VPO under way: its passages paid by the VPO, one past its money paid by Saldo.
    const withVpo = await t.driver();
    const vpo = await t.issued(await t.shipper(), withVpo.tag, { ValorTotalVP: 10 });
    await t.passed(withVpo.tag, 7.5, spAt(-minutes(3)));
    await t.passed(withVpo.tag, 4.2, spAt(-minutes(2)));
    // A light driver: its fee and two passages of its own, no VPO.
    const light = await t.driver();
    await t.passed(light.tag, 3.1, spAt(-minutes(2)));
    await t.passed(light.tag, 6.4, spAt(-minutes(1)));

    for (const d of [withVpo, light]) {
      const queries: CompiledQuery[] = [];
      const page = await new StatementService(capturingQueries(db, queries)).pageWithTotals(d.id, 1, { periodo: 'tudo' }, new Date());
      expect(page.transactions.length).toBeGreaterThanOrEqual(3);
      const first = await firstEntryMonth(d);
      const read = await monthsRead(queries);
      expect(read.ledger.length, 'the page reads its months').toBeGreaterThan(0);
      expect(read.ledger.filter((m) => m < first).map(toIso), `driver ${d.id}: ledger months before ${toIso(first)}`).toEqual([]);
      // A passage is recorded at most a day before the instant it occurred (PARTNER_EVENT_MAX_AHEAD_HOURS).
      const dayBefore = startOfUtcMonth(new Date(first.getTime() - 86_400_000));
      expect(read.passages.filter((m) => m < dayBefore).map(toIso), `driver ${d.id}: passage months`).toEqual([]);
    }

    const queries: CompiledQuery[] = [];
    const details = await vpoDetails(capturingQueries(db, queries), { driverId: withVpo.id, id: vpo.id }, new Date());
    expect(details?.Passagens.map((p) => [p.value, p.pagoPor])).toEqual([
      [7.5, 'VPO'],
      [2.5, 'VPO'],
      [1.7, 'SALDO'],
    ]);
    const first = await firstEntryMonth(withVpo);
    const read = await monthsRead(queries);
    expect(read.ledger.filter((m) => m < first).map(toIso), 'the VPO: ledger months').toEqual([]);
    expect(
      read.passages.filter((m) => m < startOfUtcMonth(new Date(first.getTime() - 86_400_000))).map(toIso),
      'the VPO: passage months',
    ).toEqual([]);
  });
});
