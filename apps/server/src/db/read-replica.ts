import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Db } from './connection.js';
import { openDb } from './connection.js';
import { requestWrote } from './request-writes.js';
import type { Database } from './schema.js';

export interface ReplicaSettings {
  url: string;
  /** The replica is read only while it is less than this far behind the primary. */
  maxLagMs: number;
  /** A driver whose money moved this recently reads the primary (their own last minute). */
  freshMs: number;
}

/** Kysely's view of a database, to read with. */
export type Reader = Kysely<Database>;

/**
 * The reads a streamed answer makes after its first (an export's chunks, read as the client takes
 * the bytes): on the database the answer began on, or on the primary from the first read that
 * lost the replica's connection, that read included.
 */
export interface StreamReads {
  read<T>(read: (db: Reader) => Promise<T>): Promise<T>;
}

/** A stream's reads on one database (the primary, or a test's). */
export function readsOn(db: Reader): StreamReads {
  return { read: (read) => read(db) };
}

/** A service's history reads without a router: all on `db`. */
export function historyOn(db: Reader): Pick<ReadRouter, 'history'> {
  return { history: (_driverId, read) => read(db, readsOn(db)) };
}

/** The LSN 'X/Y' as a number to compare. */
function lsnOf(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/**
 * Decision 81: reads that tolerate a little lag go to a PostgreSQL streaming replica
 * (DATABASE_READ_URL) when it is close behind; everything else, and everything when it is behind or
 * away, reads the primary. The replica's lag is measured every checkMs against the primary's WAL
 * position (a sample of the primary's LSN and the time it was read; the replica is as recent as the
 * newest sample it has replayed), so an idle primary never looks behind and a paused replay shows
 * as lag at once. A read that fails on the replica is read again on the primary.
 */
export class ReadRouter {
  private replica: Db | null = null;
  private samples: { at: number; lsn: bigint }[] = [];
  private caughtUpAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly primary: Db,
    private readonly settings: ReplicaSettings | null,
    private readonly onReplicaError: (error: Error) => void = () => undefined,
    private readonly checkMs = 1_000,
  ) {}

  /** The replica's pool and lag checks start at the first read that could use them (a CLI command never does). */
  private started(): Db | null {
    if (!this.settings || this.closed) return null;
    if (!this.replica) {
      this.replica = openDb(this.settings.url, { poolMax: 10, connectionTimeoutMs: 1_000, onPoolError: this.onReplicaError });
      this.timer = setInterval(() => void this.check(), this.checkMs);
      this.timer.unref();
      void this.check();
    }
    return this.replica;
  }

  /** How far behind the replica is now (ms); Infinity without one, or when it does not answer. */
  lagMs(now = Date.now()): number {
    return this.replica && this.caughtUpAt > 0 ? now - this.caughtUpAt : Number.POSITIVE_INFINITY;
  }

  /**
   * A driver's history (the statement's pages, its exports, a company's report): the replica unless
   * this request wrote, the driver's money moved in the last freshMs, or the replica is behind.
   */
  async history<T>(driverId: number, read: (db: Reader, later: StreamReads) => Promise<T>): Promise<T> {
    const replica = await this.replicaFor(driverId);
    const onPrimary = () => read(this.primary.kysely, readsOn(this.primary.kysely));
    return replica ? this.onReplica(replica, (db) => read(db, this.streamFrom(replica)), onPrimary) : onPrimary();
  }

  /**
   * A read of what is not a driver's own recent money (a partner's records, an operator's list):
   * the replica when close behind. `missing` says when the replica's answer may just not have
   * arrived yet (a record the partner created a moment ago): the primary is read then.
   */
  async tolerant<T>(read: (db: Reader) => Promise<T>, missing: (found: T) => boolean = () => false): Promise<T> {
    const replica = this.usable();
    if (!replica) return read(this.primary.kysely);
    const found = await this.onReplica(replica, read, () => read(this.primary.kysely));
    return missing(found) ? read(this.primary.kysely) : found;
  }

  /** Whether `history` for this driver would read the replica now (the tests' and the metrics' view). */
  async readsReplica(driverId: number): Promise<boolean> {
    return (await this.replicaFor(driverId)) !== null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking;
    await this.replica?.kysely.destroy();
    this.replica = null;
  }

  private usable(): Db | null {
    const replica = this.started();
    if (!replica || !this.settings) return null;
    if (requestWrote()) return null;
    return this.lagMs() <= this.settings.maxLagMs ? replica : null;
  }

  private async replicaFor(driverId: number): Promise<Db | null> {
    const replica = this.usable();
    if (!replica || !this.settings) return null;
    const since = new Date(Date.now() - this.settings.freshMs).toISOString();
    const moved = await this.primary.kysely
      .selectFrom('accounts')
      .select('id')
      .where('driver_id', '=', driverId)
      .where('moved_at', '>', since)
      .executeTakeFirst();
    return moved ? null : replica;
  }

  /** `read` on the replica; when it loses the connection, the replica counts as away and `onPrimary` answers. */
  private async onReplica<T>(replica: Db, read: (db: Reader) => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
    try {
      return await read(replica.kysely);
    } catch (error) {
      if (!isConnectionFailure(error)) throw error;
      this.lost(error as Error);
      return onPrimary();
    }
  }

  /** A stream begun on the replica: its reads stay there until one loses the connection, then go to the primary for good. */
  private streamFrom(replica: Db): StreamReads {
    let away = false;
    const onPrimary = <T>(read: (db: Reader) => Promise<T>) => {
      away = true;
      return read(this.primary.kysely);
    };
    return { read: (read) => (away ? onPrimary(read) : this.onReplica(replica, read, () => onPrimary(read))) };
  }

  /** The replica's connection failed: no read goes there until the next check finds it caught up. */
  private lost(error: Error): void {
    this.caughtUpAt = 0;
    this.onReplicaError(error);
  }

  private check(): Promise<void> {
    if (this.checking || !this.replica) return this.checking ?? Promise.resolve();
    const replica = this.replica;
    this.checking = (async () => {
      try {
        const at = Date.now();
        const primary = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(this.primary.kysely);
        this.samples.push({ at, lsn: lsnOf(primary.rows[0]?.lsn ?? '0/0') });
        if (this.samples.length > 600) this.samples.shift();
        const replayed = await sql<{ lsn: string | null }>`select pg_last_wal_replay_lsn()::text as lsn`.execute(replica.kysely);
        const lsn = replayed.rows[0]?.lsn;
        if (!lsn) throw new Error('DATABASE_READ_URL não é uma réplica em recuperação (pg_last_wal_replay_lsn nulo)');
        const position = lsnOf(lsn);
        const newest = this.samples.filter((s) => s.lsn <= position).at(-1);
        this.caughtUpAt = newest ? newest.at : 0;
      } catch (error) {
        this.caughtUpAt = 0;
        this.onReplicaError(error as Error);
      } finally {
        this.checking = null;
      }
    })();
    return this.checking;
  }
}

/** The replica went away or refused the connection: not a fault of the read itself. */
function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? String((error as { code: unknown }).code) : '';
  const message = error instanceof Error ? error.message : '';
  return (
    /^(08|57P0)/.test(code) ||
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code) ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(message)
  );
}
