import type { CompiledQuery, KyselyPlugin } from 'kysely';
import type { Db } from '../../src/db/connection.js';

/** The database's Kysely, keeping every query it compiles in `into` (what a read asked for, and how). */
export function capturingQueries(db: Db, into: CompiledQuery[]) {
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      into.push(db.kysely.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  };
  return db.kysely.withPlugin(plugin);
}
