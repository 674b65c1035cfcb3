import type { CompiledQuery, KyselyPlugin, QueryId } from 'kysely';
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
