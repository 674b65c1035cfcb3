import type { CompiledQuery } from 'kysely';
import { STATEMENT_ORIGINS } from '@portal/domain';
import { expect, it } from 'vitest';
import { describeOneDatabase } from '../../helpers/databases.js';
import { recordMovements } from '../../helpers/movements.js';
import { capturingQueries, executedPlans } from '../../helpers/queries.js';
import { DAY, hours, spAt, useVpoApp } from '../../helpers/vpos.js';
import { readsOn } from '../../../src/db/read-replica.js';
import { createMonthPartitions, startOfUtcMonth } from '../../../src/db/partitions.js';
import { statementExport } from '../../../src/modules/statement/export.js';

/**
 * Decision 91: a CSV export reads each row of its period once, in its chunks. Before its first row
 * it also read them all, in a grouped pass for the PDF's heading (closing balances, row count) that
 * the CSV does not write: at 0.7 of the year each row is about one heap page from disk, and the
 * export was the one read past 1.5x its 1/50 figure by the row (bench/README.md, scale).
 */
describeOneDatabase('a exportação em CSV lê cada linha do período uma vez', 'postgres', () => {
  const t = useVpoApp('postgres');

  it("a CSV export reads a few ledger rows before its first one, then each of the period's in its chunks", async () => {
    const db = t.db();
    const thisMonth = startOfUtcMonth(new Date());
    const months = [-3, -2, -1, 0].map((back) => new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() + back, 1)));
    await createMonthPartitions(db.kysely, 'ledger_entries', months);
    await createMonthPartitions(db.kysely, 'passages', months);

    const driver = await t.driver();
    // An hour apart over 50 days: some before the period, the rest in it; every tenth on SaldoTerceiro.
    const movements = Array.from({ length: 1_200 }, (_, i) => {
      const third = i % 10 === 0;
      return {
        at: spAt(-hours(1_200 - i)),
        cents: third ? 2_500 : -(100 + i),
        origin: third ? STATEMENT_ORIGINS.thirdPartyCredit : STATEMENT_ORIGINS.passage,
        place: `Praça ${i}`,
        third,
      };
    });
    await recordMovements(db, driver, movements, 'reads');
    // A VPO whose money pays a passage in the period: its totals line is read too.
    await t.issued(await t.shipper(), driver.tag, { ValorTotalVP: 40 });
    await t.passed(driver.tag, 7.5);

    const de = spAt(-40 * DAY).slice(0, 10);
    const ate = spAt(0).slice(0, 10);
    // The queries before the first row (the plan, on `db`) apart from the rows' chunks (on `later`).
    const before: CompiledQuery[] = [];
    const chunks: CompiledQuery[] = [];
    const later = readsOn(capturingQueries(db, chunks));
    const file = await statementExport(
      capturingQueries(db, before),
      later,
      driver.id,
      'csv',
      { periodo: 'intervalo', de, ate },
      new Date(),
    );
    let csv = '';
    for await (const part of file.body) csv += String(part);
    const written = csv
      .trim()
      .split('\r\n')
      .slice(1)
      .filter((line) => !line.includes('Total do período'));
    expect(written.length).toBeGreaterThan(900);

    const ledgerRowsRead = async (queries: readonly CompiledQuery[]) =>
      (await executedPlans(db, queries))
        .filter((node) => node['Relation Name']?.startsWith('ledger_entries') === true)
        .reduce((rows, node) => rows + node['Actual Rows'] * node['Actual Loops'], 0);
    expect(await ledgerRowsRead(chunks), 'the chunks read every row').toBeGreaterThanOrEqual(written.length);
    // The opening balances' hour, the VPO's totals line and a probe: a few rows, whatever the period holds.
    expect(await ledgerRowsRead(before), `before the first of ${written.length} rows`).toBeLessThan(50);
  });
});
