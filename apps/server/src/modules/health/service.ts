import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { pendingMigrations } from '../../db/migrate.js';

export type Readiness =
  | { ready: true }
  | { ready: false; database: 'down'; migrations: 'unknown' }
  | { ready: false; database: 'ok'; migrations: 'pending'; pending: string[] };

/**
 * Ready = the database answers and has every migration this build knows. Once all were seen
 * applied only the database is asked (migrations are never undone under a running server), so a
 * load balancer polling every few seconds costs one `select 1`.
 */
export class ReadinessCheck {
  private migrated = false;

  constructor(private readonly db: Db) {}

  async check(): Promise<Readiness> {
    try {
      await sql`select 1`.execute(this.db.kysely);
    } catch {
      return { ready: false, database: 'down', migrations: 'unknown' };
    }
    if (this.migrated) return { ready: true };
    const pending = await pendingMigrations(this.db);
    if (pending.length > 0) return { ready: false, database: 'ok', migrations: 'pending', pending };
    this.migrated = true;
    return { ready: true };
  }
}
