import { CONTEST_WINDOW_DAYS } from '@portal/domain';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../helpers/databases.js';
import { DAY, minutes, spAt, useVpoApp } from '../../helpers/vpos.js';
import { AttentionService } from '../../../src/modules/attention/service.js';
import { StatementService } from '../../../src/modules/statement/service.js';
import { VpoService } from '../../../src/modules/vpos/service.js';

/**
 * Whether a passage can still be contested (CONTEST_WINDOW_DAYS from the passage) is judged by the
 * server's clock, the one the statement's periods and the contests themselves read: a statement row
 * and a VPO's passage answered with the system's time beside a clock the server was given.
 */
describeEachDatabase('o prazo de contestação no relógio do servidor', (dialect) => {
  const t = useVpoApp(dialect);

  it("the statement's rows, a VPO's passages and the dashboard's last movements say contestable by the server's clock, not the system's", async () => {
    const d = await t.driver();
    const vpo = await t.issued(await t.shipper(), d.tag, { ValorTotalVP: 5 });
    await t.passed(d.tag, 7.5, spAt(-minutes(2)));
    const tomorrow = new Date(Date.now() + DAY);
    const pastTheWindow = new Date(Date.now() + (CONTEST_WINDOW_DAYS + 1) * DAY);
    const statement = new StatementService(t.db().kysely);
    const contestable = async (now: Date) =>
      (await statement.pageWithTotals(d.id, 1, { periodo: 'tudo' }, now)).transactions.flatMap((row) =>
        row.passagem === null ? [] : [row.passagem.contestavel],
      );
    expect(await contestable(tomorrow)).toEqual([true, true]);
    expect(await contestable(pastTheWindow)).toEqual([false, false]);
    const onVpo = async (now: Date) =>
      (await new VpoService(t.db(), undefined, () => now).forDriverOne(d.id, vpo.id)).Passagens.map((p) => p.passagem?.contestavel);
    expect(await onVpo(tomorrow)).toEqual([true, true]);
    expect(await onVpo(pastTheWindow)).toEqual([false, false]);
    // The dashboard's last movements (the fee and the purchase, dated after it, then Saldo's part) on the same clock.
    const onDashboard = async (now: Date) =>
      (await new AttentionService(t.db().kysely, statement, () => now).forDriver(d.id)).lastMovements.flatMap((row) =>
        row.passagem === null ? [] : [row.passagem.contestavel],
      );
    expect(await onDashboard(tomorrow)).toEqual([true]);
    expect(await onDashboard(pastTheWindow)).toEqual([false]);
  });
});
