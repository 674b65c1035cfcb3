import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { compileOnce } from '../../db/compiled-query.js';
import { nowIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';

export interface SessionDriver {
  id: number;
  name: string;
  cpfCnpj: string;
  sessionId: number;
}

const TOKEN_BYTES = 32;
/** base64url of 32 bytes, no padding. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Opaque bearer tokens; only their SHA-256 is stored, so a database leak yields no usable token. */
export class SessionStore {
  /** Every driver call runs this query first: compiled once (db/compiled-query.ts). */
  private readonly liveSession;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ttlHours: number,
  ) {
    this.liveSession = compileOnce(db, (param: (name: 'tokenHash' | 'now') => never) =>
      db
        .selectFrom('sessions')
        .innerJoin('drivers', 'drivers.id', 'sessions.driver_id')
        .select(['sessions.id as sessionId', 'drivers.id as id', 'drivers.name as name', 'drivers.cpf_cnpj as cpfCnpj'])
        .where('sessions.token_hash', '=', param('tokenHash'))
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', param('now')),
    );
  }

  async create(db: Kysely<Database>, driverId: number): Promise<string> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const now = Date.now();
    await db
      .insertInto('sessions')
      .values({
        driver_id: driverId,
        token_hash: hashToken(token),
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + this.ttlHours * 3_600_000).toISOString(),
        revoked_at: null,
      })
      .execute();
    return token;
  }

  /** The driver of a live session, or null when the token is unknown, expired or revoked. */
  async resolve(token: string): Promise<SessionDriver | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const [row] = await this.liveSession({ tokenHash: hashToken(token), now: nowIso() });
    return row ?? null;
  }

  async revoke(sessionId: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: nowIso() })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
