import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from './schema.js';

/** One fixed window of one bucket: where a counted attempt can be given back. */
export interface WindowRef {
  scope: string;
  key: string;
  windowStart: number;
}

export type Take = { allowed: true; window: WindowRef } | { allowed: false; retryAfterMs: number };

/** A growing delay: `free` attempts a window, then each one waits base, 2 base, 4 base... up to max. */
export interface Pace {
  windowMs: number;
  free: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Expired rows are deleted by whoever counts next, at most this often per instance: no job needed. */
const CLEANUP_EVERY_MS = 60_000;

/**
 * Limit counters in the database (table rate_limits), so that every instance counts in the same
 * rows. Each decision is one statement: the counter is raised only if it is still under the
 * limit, and the answer says whether it was. N concurrent callers therefore never get more than
 * the limit of "yes" between them, whatever the interleaving, on SQLite and on PostgreSQL.
 */
export class RateLimitStore {
  private lastCleanup = 0;

  constructor(private readonly db: Kysely<Database>) {}

  /** Counts one attempt in the current window of (scope, key) unless `limit` were already counted. */
  async take(scope: string, key: string, limit: number, windowMs: number, now = Date.now()): Promise<Take> {
    await this.cleanup(now);
    const windowStart = now - (now % windowMs);
    const row = await this.db
      .insertInto('rate_limits')
      .values({ scope, key, window_start: windowStart, hits: 1, expires_at: windowStart + windowMs })
      .onConflict((oc) =>
        oc
          .columns(['scope', 'key', 'window_start'])
          .doUpdateSet({ hits: sql<number>`rate_limits.hits + 1` })
          .where('rate_limits.hits', '<', limit),
      )
      .returning('hits')
      .executeTakeFirst();
    if (row) return { allowed: true, window: { scope, key, windowStart } };
    return { allowed: false, retryAfterMs: windowStart + windowMs - now };
  }

  /**
   * Counts one attempt of a paced bucket if its delay has passed, and sets the next delay from
   * the number counted so far in the window (the formula is delayAfter(), written again in SQL so
   * that reading the count and setting the delay are one statement).
   */
  async pace(scope: string, key: string, pace: Pace, now = Date.now()): Promise<Take> {
    await this.cleanup(now);
    const windowStart = now - (now % pace.windowMs);
    const n = sql<number>`rate_limits.hits + 1`;
    const free = sql.lit(pace.free);
    // Past this many doublings the delay is the maximum (and the shift cannot overflow).
    const capShift = sql.lit(doublingsToMax(pace));
    const delay = sql<number>`case when ${n} < ${free} then 0 when ${n} - ${free} >= ${capShift} then ${sql.lit(pace.maxDelayMs)} else ${sql.lit(pace.baseDelayMs)} * (cast(1 as bigint) << (${n} - ${free})) end`;
    const row = await this.db
      .insertInto('rate_limits')
      .values({
        scope,
        key,
        window_start: windowStart,
        hits: 1,
        next_at: now + delayAfter(1, pace),
        expires_at: windowStart + pace.windowMs,
      })
      .onConflict((oc) =>
        oc
          .columns(['scope', 'key', 'window_start'])
          .doUpdateSet({ hits: n, next_at: sql<number>`cast(${now} as bigint) + ${delay}` })
          .where('rate_limits.next_at', '<=', now),
      )
      .returning('hits')
      .executeTakeFirst();
    if (row) return { allowed: true, window: { scope, key, windowStart } };
    const current = await this.db
      .selectFrom('rate_limits')
      .select('next_at')
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('window_start', '=', windowStart)
      .executeTakeFirst();
    return { allowed: false, retryAfterMs: Math.max(Number(current?.next_at ?? now) - now, 1) };
  }

  /** An attempt that was counted but not carried out (refused by another bucket, or it succeeded). */
  async giveBack(window: WindowRef): Promise<void> {
    await this.db
      .updateTable('rate_limits')
      .set({ hits: sql<number>`hits - 1` })
      .where('scope', '=', window.scope)
      .where('key', '=', window.key)
      .where('window_start', '=', window.windowStart)
      .where('hits', '>', 0)
      .execute();
  }

  /** Forgets every window of (scope, key). */
  async clear(scope: string, key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('scope', '=', scope).where('key', '=', key).execute();
  }

  /** A flag that lasts `ttlMs` from its last mark (window 0 of its scope). */
  async mark(scope: string, key: string, ttlMs: number, now = Date.now()): Promise<void> {
    await this.db
      .insertInto('rate_limits')
      .values({ scope, key, window_start: 0, hits: 1, expires_at: now + ttlMs })
      .onConflict((oc) => oc.columns(['scope', 'key', 'window_start']).doUpdateSet({ expires_at: now + ttlMs }))
      .execute();
  }

  async isMarked(scope: string, key: string, now = Date.now()): Promise<boolean> {
    const row = await this.db
      .selectFrom('rate_limits')
      .select('hits')
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('window_start', '=', 0)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  private async cleanup(now: number): Promise<void> {
    if (now - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = now;
    await this.db.deleteFrom('rate_limits').where('expires_at', '<=', now).execute();
  }
}

/** The wait after the n-th attempt of a window: none before `free`, then doubling up to the maximum. */
function delayAfter(n: number, pace: Pace): number {
  if (n < pace.free) return 0;
  const doublings = n - pace.free;
  return doublings >= doublingsToMax(pace) ? pace.maxDelayMs : pace.baseDelayMs * 2 ** doublings;
}

function doublingsToMax(pace: Pace): number {
  let k = 0;
  while (k < 40 && pace.baseDelayMs * 2 ** k < pace.maxDelayMs) k++;
  return k;
}
