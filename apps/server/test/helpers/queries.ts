import type { CompiledQuery, KyselyPlugin, QueryId } from 'kysely';
import { CompiledQuery as Raw, sql } from 'kysely';
import type { Db } from '../../src/db/connection.js';

/**
 * The database's Kysely, keeping every query it runs in `into` (what a read asked for, and how), in
 * the order their answers came. A subquery is compiled on its own as it is built, but runs inside
 * the query that holds it: only the queries that answered are kept.
 */
export function capturingQueries(db: Db, into: CompiledQuery[]) {
  const compiled = new Map<QueryId, CompiledQuery>();
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      compiled.set(queryId, db.kysely.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: ({ result, queryId }) => {
      const query = compiled.get(queryId);
      if (query) into.push(query);
      return Promise.resolve(result);
    },
  };
  return db.kysely.withPlugin(plugin);
}

/** A plan node as EXPLAIN (ANALYZE, FORMAT JSON) gives it, the fields the tests read. */
export interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Every plan node of a query as PostgreSQL ran it (EXPLAIN ANALYZE), with parallel plans made free when asked. */
export async function executedPlans(db: Db, queries: readonly CompiledQuery[], options: { parallel?: boolean } = {}): Promise<PlanNode[]> {
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    for (const child of node.Plans ?? []) walk(child);
  };
  await db.kysely.transaction().execute(async (trx) => {
    if (options.parallel)
      for (const setting of ['parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size'])
        await sql`select set_config(${setting}, '0', true)`.execute(trx);
    for (const query of queries) {
      const result = await trx.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        Raw.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
      );
      walk(result.rows[0]!['QUERY PLAN'][0]!.Plan);
    }
  });
  return nodes;
}
