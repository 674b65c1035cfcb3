import { Migrator } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely';
import type { Db } from './connection.js';
import { initial } from './migrations/001-initial.js';
import { columnTypes } from './migrations/types.js';

/** Ordered by name; never edit a released migration, add a new one. */
function migrations(db: Db): Record<string, Migration> {
  const t = columnTypes(db.dialect);
  return { '001-initial': initial(t) };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(db) };
  const migrator = new Migrator({ db: db.kysely, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
