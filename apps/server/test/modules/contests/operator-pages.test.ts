import type { Contest } from '@portal/contract';
import type { CompiledQuery } from 'kysely';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { capturingQueries, executedPlans } from '../../helpers/queries.js';
import type { PlanNode } from '../../helpers/queries.js';
import { DAY, minutes, spAt, useVpoApp } from '../../helpers/vpos.js';
import type { VpoDriver } from '../../helpers/vpos.js';
import { migrateTo, migrateToLatest } from '../../../src/db/migrate.js';
import type { Db } from '../../../src/db/connection.js';
import { ContestService } from '../../../src/modules/contests/service.js';
import { createMonthPartitions, startOfUtcMonth } from '../../../src/db/partitions.js';

const PAGE = 50;
const OTHER_OPERATOR = '11222333000181';

/**
 * Decision 85: an operator's contest list says how many pages it has from the counters the
 * database keeps per operator and state (migration 029), not by counting the operator's year of
 * contests at each page; a page reads its rows by (operator, id).
 */
describeEachDatabase('a lista de contestações do operador: páginas contadas pelos contadores', (dialect) => {
  const t = useVpoApp(dialect);

  const counters = (db: Db) =>
    db.kysely
      .selectFrom('contest_counts')
      .select(['operator_cnpj', 'state', sql<number>`cast(contests as integer)`.as('n')])
      .where('contests', '>', 0)
      .orderBy(['operator_cnpj', 'state'])
      .execute();
  const counted = (db: Db) =>
    db.kysely
      .selectFrom('contests')
      .select(['operator_cnpj', 'state', sql<number>`cast(count(*) as integer)`.as('n')])
      .groupBy(['operator_cnpj', 'state'])
      .orderBy(['operator_cnpj', 'state'])
      .execute();

  async function operatorPage(query: string): Promise<{ contests: Contest[]; totalPages: number }> {
    const { key } = await t.operator();
    const res = await t.app().inject({ method: 'GET', url: `/api/parceiro/contestacoes${query}`, headers: { 'x-api-key': key } });
    expect(res.statusCode, res.body).toBe(200);
    const body = json<{ Contestacoes: Contest[]; Paginacao: { TotalPaginas: number } }>(res);
    return { contests: body.Contestacoes, totalPages: body.Paginacao.TotalPaginas };
  }
  async function contestOf(d: VpoDriver, place: string): Promise<number> {
    await t.passed(d.tag, 12.3, spAt(-minutes(30)), { placeName: place });
    const row = (await t.statement(d)).find((r) => r.placeName === place && r.value < 0);
    const res = await t.app().inject({
      method: 'POST',
      url: '/api/motorista/contestacoes',
      headers: { authorization: `Bearer ${d.token}` },
      payload: { passagemId: row?.passagem?.id, motivo: 'CATEGORIA' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return json<{ Contestacao: Contest }>(res).Contestacao.id;
  }
  async function answer(id: number, body: Record<string, unknown>) {
    const { key } = await t.operator();
    return t
      .app()
      .inject({ method: 'POST', url: `/api/parceiro/contestacoes/${id}/resposta`, headers: { 'x-api-key': key }, payload: body });
  }
  /**
   * `n` contests of one passage already answered (refused), opened `daysAgo` days before now, written
   * as the bench writes them; with `othersShare`, that share of them another operator's, between
   * the passage operator's ones.
   */
  async function refusedContests(d: VpoDriver, n: number, daysAgo: number, othersShare = 0): Promise<void> {
    const passage = await t
      .db()
      .kysely.selectFrom('passages')
      .select(['id', 'operator_cnpj'])
      .where('driver_id', '=', d.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const opened = new Date(Date.now() - daysAgo * DAY);
    const rows = Array.from({ length: n }, (_, i) => ({
      passage_id: passage.id,
      driver_id: d.id,
      operator_cnpj: (i + 1) * othersShare >= Math.floor(i * othersShare) + 1 ? OTHER_OPERATOR : passage.operator_cnpj,
      reason: 'DUPLICADA' as const,
      description: null,
      state: 'RECUSADA' as const,
      opened_at: opened.toISOString(),
      due_at: new Date(opened.getTime() + 7 * DAY).toISOString(),
      answered_at: new Date(opened.getTime() + DAY).toISOString(),
      answer: 'Passagem registrada pela praça: cobrança mantida.',
      refund_cents: null,
      answered_by: 'portal',
    }));
    for (let i = 0; i < rows.length; i += 500)
      await t
        .db()
        .kysely.insertInto('contests')
        .values(rows.slice(i, i + 500))
        .execute();
  }

  it('the counters are the contests there: opened, accepted, refused, two answers at once, one removed', async () => {
    const d = await t.driver();
    const ids = [];
    for (const place of ['Praça A', 'Praça B', 'Praça C', 'Praça D']) ids.push(await contestOf(d, place));
    expect(await counters(t.db())).toEqual(await counted(t.db()));

    expect((await answer(ids[0]!, { decisao: 'ACEITA', valor: 12.3, motivo: 'Cobrança conferida.' })).statusCode).toBe(200);
    expect((await answer(ids[1]!, { decisao: 'RECUSADA', motivo: 'Passagem registrada.' })).statusCode).toBe(200);
    const both = await Promise.all([
      answer(ids[2]!, { decisao: 'RECUSADA', motivo: 'Passagem registrada.' }),
      answer(ids[2]!, { decisao: 'ACEITA', valor: 5, motivo: 'Cobrança conferida.' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    // An answer refused for bad input changes no counter either.
    expect((await answer(ids[3]!, { decisao: 'TALVEZ', motivo: 'x' })).statusCode).toBe(422);
    expect(await counters(t.db())).toEqual(await counted(t.db()));

    await t.db().kysely.deleteFrom('contests').where('id', '=', ids[3]!).execute();
    expect(await counters(t.db())).toEqual(await counted(t.db()));
  });

  it('many pages: the page count, by state and by days, and the last page, as counting the contests says', async () => {
    const d = await t.driver();
    await contestOf(d, 'Praça das Muitas');
    await refusedContests(d, 2 * PAGE + 7, 3);
    await refusedContests(d, PAGE + 1, 40);
    const all = await counted(t.db());
    const of = (state?: string) => all.filter((c) => !state || c.state === state).reduce((sum, c) => sum + Number(c.n), 0);
    expect(await counters(t.db())).toEqual(all);

    expect((await operatorPage('?page=1')).totalPages).toBe(Math.ceil(of() / PAGE));
    expect((await operatorPage('?page=1&estado=RECUSADA')).totalPages).toBe(Math.ceil(of('RECUSADA') / PAGE));
    expect((await operatorPage('?page=1&estado=ABERTA')).totalPages).toBe(Math.ceil(of('ABERTA') / PAGE));
    // Newest first, every contest once across the pages.
    const pages = Math.ceil(of() / PAGE);
    const seen: number[] = [];
    for (let page = 1; page <= pages; page += 1) seen.push(...(await operatorPage(`?page=${page}`)).contests.map((c) => c.id));
    expect(seen).toHaveLength(of());
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect((await operatorPage(`?page=${pages + 1}`)).contests).toEqual([]);

    // Days: the contests opened in them, counted (the counters have no days).
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toLocaleDateString('sv-SE', { timeZone: 'America/Sao_Paulo' });
    const inDays = await operatorPage(`?page=1&desde=${day(5)}&ate=${day(1)}`);
    expect(inDays.totalPages).toBe(Math.ceil((2 * PAGE + 7) / PAGE));
    expect(inDays.contests.every((c) => c.estado === 'RECUSADA')).toBe(true);
    const refusedLongAgo = await operatorPage(`?page=1&estado=RECUSADA&desde=${day(45)}&ate=${day(35)}`);
    expect(refusedLongAgo.totalPages).toBe(2);
  });

  it('migration 029 counts the contests already there', async () => {
    const db = t.db();
    const before = await counted(db);
    expect(before.length).toBeGreaterThan(0);
    await migrateTo(db, '028-monthly-partitions');
    await migrateToLatest(db);
    expect(await counters(db)).toEqual(before);
    // And keeps counting after it.
    await contestOf(await t.driver(), 'Praça depois da migração');
    expect(await counters(db)).toEqual(await counted(db));
  });

  if (dialect === 'postgres') {
    it("a page reads its rows and the counters, not the operator's year of contests", async () => {
      const d = await t.driver();
      await contestOf(d, 'Praça do ano');
      // 4,000 of this operator's among 40,000.
      await refusedContests(d, 40_000, 20, 0.9);
      await sql`analyze contests`.execute(t.db().kysely);
      const { id } = await t.operator();
      const operator = await t.db().kysely.selectFrom('partners').select('operator_cnpj').where('id', '=', id).executeTakeFirstOrThrow();
      for (const estado of [undefined, 'RECUSADA' as const, 'ABERTA' as const]) {
        const queries: CompiledQuery[] = [];
        const service = new ContestService(t.db(), undefined, undefined, { tolerant: (read) => read(capturingQueries(t.db(), queries)) });
        const page = await service.forOperator(operator.operator_cnpj ?? '', { page: 1, estado });
        expect(page.contests.length).toBeGreaterThan(0);
        // Newest first over every operator's contests, PostgreSQL's choice here (the key's order is
        // the table's): about ten rows for each of its own at this share. Counting read every one.
        expect(await contestRowsRead(t.db(), queries), `page 1, estado ${estado ?? 'todos'}`).toBeLessThanOrEqual(12 * PAGE);
      }
    });

    it('a page joins its own contests to their passages, even when PostgreSQL reads it with parallel workers, over months of passages', async () => {
      const d = await t.driver();
      await contestOf(d, 'Praça dos meses');
      const db = t.db();
      const first = await db.kysely.selectFrom('passages').selectAll().where('driver_id', '=', d.id).executeTakeFirstOrThrow();
      const thisMonth = startOfUtcMonth(new Date());
      const months = [3, 2, 1].map((back) => new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() - back, 1)));
      await createMonthPartitions(db.kysely, 'passages', months);
      // 12,000 passages over three months, each contested once, 9 in 10 of them by another operator.
      await sql`insert into passages (partner_id, external_id, operator_cnpj, driver_id, tag_id, serial_number, place_name,
          occurred_at, amount_cents, is_third, duplicate_of, created_at)
        select ${first.partner_id}, 'meses-' || g, ${first.operator_cnpj}, ${d.id}, ${first.tag_id}, ${first.serial_number},
          'Praça ' || g, at, 1230, 0, null, at
        from generate_series(1, 12000) g,
          lateral (select ${months[0]!.toISOString()}::timestamptz + (g % 3) * interval '1 month' + (g % 25) * interval '1 day' as at) day`.execute(
        db.kysely,
      );
      await sql`insert into contests (passage_id, driver_id, operator_cnpj, reason, description, state, opened_at, due_at,
          answered_at, answer, refund_cents, answered_by)
        select p.id, p.driver_id, case when p.id % 10 = 0 then p.operator_cnpj else ${OTHER_OPERATOR} end, 'DUPLICADA', null,
          'RECUSADA', p.created_at, p.created_at + interval '7 days', p.created_at + interval '1 day', 'Cobrança mantida.', null, 'portal'
        from passages p where p.external_id like 'meses-%' order by p.id`.execute(db.kysely);
      await sql`analyze passages`.execute(db.kysely);
      await sql`analyze contests`.execute(db.kysely);

      const queries: CompiledQuery[] = [];
      const service = new ContestService(db, undefined, undefined, { tolerant: (read) => read(capturingQueries(db, queries)) });
      const page = await service.forOperator(first.operator_cnpj, { page: 2 });
      expect(page.contests).toHaveLength(PAGE);
      // Decision 87: with parallel plans made free, the page still looks up the passages of its 50
      // contests alone. Joined before the limit, each worker joined its share of the operator's
      // contests to every month's passages (about 40,000 buffers at 0.69 of a year, for 50 rows).
      const reads = await passageReads(db, queries, { parallel: true });
      expect(reads.lookups).toBeLessThanOrEqual(PAGE);
      expect(reads.rows).toBeLessThanOrEqual(PAGE);
    });
  }
});

/** Rows a node read of its relation: those kept and those filtered out, over all its loops. */
const rowsRead = (node: PlanNode) => (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'];

/**
 * How the queries read `passages`, its months' partitions: the passages looked up (each lookup
 * probes every month, so the most loops of one month) and the rows read in all the months.
 */
async function passageReads(db: Db, queries: readonly CompiledQuery[], options: { parallel?: boolean }) {
  const months = (await executedPlans(db, queries, options)).filter((node) => node['Relation Name']?.startsWith('passages'));
  return {
    lookups: Math.max(0, ...months.map((node) => node['Actual Loops'])),
    rows: months.reduce((sum, node) => sum + rowsRead(node), 0),
  };
}

/** Rows of `contests` each query read, as PostgreSQL ran it (EXPLAIN ANALYZE): those kept and those filtered out. */
async function contestRowsRead(db: Db, queries: readonly CompiledQuery[]): Promise<number> {
  const nodes = await executedPlans(db, queries);
  return nodes.filter((node) => node['Relation Name'] === 'contests').reduce((sum, node) => sum + rowsRead(node), 0);
}
