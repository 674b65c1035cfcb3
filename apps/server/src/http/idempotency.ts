import { setTimeout as sleep } from 'node:timers/promises';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyOf, withoutSecrets } from '@portal/contract';
import { messages, serverMessages } from '@portal/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { conflict, HttpError } from './errors.js';
import { requestHash } from '../db/request-hash.js';

declare module 'fastify' {
  interface FastifyInstance {
    idempotency: IdempotencyStore;
  }
}

/** How long a key and its first answer are kept (founding architecture §21: at least 24 hours). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;

/** Expired keys are deleted by whoever claims a key next, at most this often per instance: no job needed. */
const CLEANUP_EVERY_MS = 60_000;

/** The first answer, as it was sent. */
export interface StoredAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** claimed: this request runs the call; answered: replay; running: the first is still running. */
export type Claim = { kind: 'claimed' } | { kind: 'answered'; answer: StoredAnswer } | { kind: 'running' };

export interface IdempotencyOptions {
  retentionMs?: number;
  /** How long a retry waits for the answer of a first request still running, before a 409. */
  waitMs?: number;
  pollMs?: number;
  /** The clock of created_at and expiry (tests age keys with it). */
  now?: () => Date;
}

/**
 * The Idempotency-Key of a driver's call, in the database (table idempotency_keys) so that every
 * instance shares it. The key is claimed in one statement before the call runs, and committed at
 * once: of two requests with the same key, on one instance or two, exactly one runs the call; the
 * other waits for its answer. A claim is never run again, also when its process died before the
 * answer was stored: a retry then reads 409 'em processamento' until the key expires.
 */
export class IdempotencyStore {
  private readonly retentionMs: number;
  private readonly waitMs: number;
  private readonly pollMs: number;
  private readonly now: () => Date;
  private lastCleanup = 0;

  constructor(
    private readonly db: Kysely<Database>,
    options: IdempotencyOptions = {},
  ) {
    this.retentionMs = options.retentionMs ?? IDEMPOTENCY_RETENTION_MS;
    // Longer than a payout's provider timeout (ASAAS_TIMEOUT_MS, 10 s by default).
    this.waitMs = options.waitMs ?? 15_000;
    this.pollMs = options.pollMs ?? 50;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Claims (driver, key) for a request with this hash, or taking over an expired key; else the
   * first request's answer (waiting up to waitMs while it runs). Another request with the key: 409.
   */
  async claim(driverId: number, key: string, hash: string): Promise<Claim> {
    const now = this.now();
    await this.cleanup(now);
    const fresh = {
      request_hash: hash,
      status_code: 0,
      content_type: '',
      response: '',
      created_at: now.toISOString(),
      answered_at: null,
      expires_at: new Date(now.getTime() + this.retentionMs).toISOString(),
    };
    const claimed = await this.db
      .insertInto('idempotency_keys')
      .values({ driver_id: driverId, key, ...fresh })
      .onConflict((oc) => oc.columns(['driver_id', 'key']).doUpdateSet(fresh).where('idempotency_keys.expires_at', '<=', now.toISOString()))
      .returning('driver_id')
      .executeTakeFirst();
    if (claimed) return { kind: 'claimed' };
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const row = await this.db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'status_code', 'content_type', 'response'])
        .where('driver_id', '=', driverId)
        .where('key', '=', key)
        .executeTakeFirst();
      // Expired and deleted in between: the key is new again.
      if (!row) return this.claim(driverId, key, hash);
      if (row.request_hash !== hash) throw conflict(serverMessages.idempotency.keyReused);
      if (row.status_code !== 0)
        return { kind: 'answered', answer: { status: row.status_code, contentType: row.content_type, body: row.response } };
      if (Date.now() >= deadline) return { kind: 'running' };
      await sleep(this.pollMs);
    }
  }

  /** Stores the claimed request's answer (once: a claim is answered by its own request only). */
  async answer(driverId: number, key: string, hash: string, answer: StoredAnswer): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status_code: answer.status, content_type: answer.contentType, response: answer.body, answered_at: this.now().toISOString() })
      .where('driver_id', '=', driverId)
      .where('key', '=', key)
      .where('request_hash', '=', hash)
      .where('status_code', '=', 0)
      .execute();
  }

  /** Deletes the keys past their retention; returns how many. */
  async purge(): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', this.now().toISOString()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private async cleanup(now: Date): Promise<void> {
    if (now.getTime() - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = now.getTime();
    await this.purge();
  }
}

interface Claimed {
  driverId: number;
  key: string;
  hash: string;
}

/** The requests that claimed their key, until their answer is stored. */
const claims = new WeakMap<FastifyRequest, Claimed>();

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * preHandler of a call with `idempotent: true` (http/route.ts), after the driver is known and the
 * body parsed: without the header nothing changes; a malformed key is 400; a replay sends the
 * first answer again, byte for byte, with Idempotent-Replayed: true; a first request claims the key.
 */
export async function idempotencyPreHandler(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const parsed = idempotencyKeyOf(req.headers['idempotency-key']);
  if (!parsed) return undefined;
  if ('error' in parsed) throw new HttpError(400, parsed.error);
  if (!req.driver) throw new Error('idempotência sem motorista: requireDriver não executou');
  const hash = requestHash({
    method: req.method,
    route: req.routeOptions.url ?? req.url,
    params: req.params ?? null,
    body: withoutSecrets(req.body ?? null),
  });
  const claim = await req.server.idempotency.claim(req.driver.id, parsed.key, hash);
  if (claim.kind === 'claimed') {
    claims.set(req, { driverId: req.driver.id, key: parsed.key, hash });
    return undefined;
  }
  if (claim.kind === 'running') {
    void reply.header('retry-after', '1');
    throw conflict(messages.idempotency.inProgress);
  }
  return reply
    .code(claim.answer.status)
    .header('content-type', claim.answer.contentType)
    .header(IDEMPOTENT_REPLAYED_HEADER, 'true')
    .send(claim.answer.body);
}

/** onSend of the same calls: the claimed request's answer, as serialized, becomes the key's answer. */
export async function idempotencyOnSend(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const claimed = claims.get(req);
  if (!claimed) return payload;
  claims.delete(req);
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  if (body === null) {
    req.log.error({ idempotencyKey: claimed.key }, 'resposta idempotente não é texto; a chave fica em processamento');
    return payload;
  }
  const type = reply.getHeader('content-type');
  try {
    await req.server.idempotency.answer(claimed.driverId, claimed.key, claimed.hash, {
      status: reply.statusCode,
      contentType: typeof type === 'string' ? type : JSON_TYPE,
      body,
    });
  } catch (error) {
    // The call was done: its answer still goes out; a retry reads 'em processamento'.
    req.log.error({ err: error, idempotencyKey: claimed.key }, 'falha ao guardar a resposta idempotente');
  }
  return payload;
}
