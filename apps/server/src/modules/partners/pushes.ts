import { IDEMPOTENT_REPLAYED_HEADER } from '@portal/contract';
import type { PartnerPushResponse } from '@portal/contract';
import { refuse, serverMessages } from '@portal/domain';
import type { FastifyReply } from 'fastify';
import type { Db, Trx } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import type { Kysely } from 'kysely';
import type { Database, PartnerPushKind } from '../../db/schema.js';
import { requestHash } from '../../db/request-hash.js';
import type { Partner } from './keys.js';

/** The answer of a push: the first one again (replayed) when the same request comes back. */
export interface PushAnswer {
  status: 200 | 201 | 202;
  body: PartnerPushResponse;
  replayed: boolean;
}

/** The body of the answer; a replay of the first answer says so in a header (as payment APIs do). */
export function replyWith(reply: FastifyReply, pushed: PushAnswer): PushAnswer['body'] {
  if (pushed.replayed) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return pushed.body;
}

export type PushEffect = (trx: Trx) => Promise<Omit<PushAnswer, 'replayed'>>;

/** The request as stored, values normalised: what "the same request" means. */
export type PushRequest = Record<string, string | number | boolean | null>;

/** A push row as stored: the request's hash and the first answer. */
export interface StoredPush {
  request_hash: string;
  status_code: number;
  response: string;
}

/** A push's idempotency: who sent it, its kind, the partner's externalId and the hash of the request as stored. */
export interface PushKey {
  kind: PartnerPushKind;
  externalId: string;
  hash: string;
}

/**
 * Decision 18, idempotency on the partner's externalId: the same request again gets the first
 * answer; another request with that externalId is a 409 and changes nothing. The push row is
 * claimed first in the effect's transaction, so a concurrent twin waits for it (PostgreSQL) or
 * runs after it (SQLite), then replays its answer. A refusal stores nothing.
 */
export class PartnerPushes {
  constructor(private readonly db: Db) {}

  async push(partner: Partner, kind: PartnerPushKind, externalId: string, request: PushRequest, effect: PushEffect): Promise<PushAnswer> {
    const key = { kind, externalId, hash: requestHash(request) };
    const stored = await this.storedAnswer(partner, kind, externalId, key.hash);
    if (stored) return stored;
    return this.db.kysely.transaction().execute((trx) => this.claimAndRun(trx, partner, key, effect));
  }

  /**
   * Inside the caller's transaction (a VPO, a platform movement): claims the push
   * row and runs the effect, storing its answer. When the row is there already (a concurrent twin
   * that committed while the claim waited, or the same externalId earlier in this transaction),
   * its answer is replayed, or 409 for another request; nothing of the effect runs.
   */
  async claimAndRun(trx: Trx, partner: Partner, key: PushKey, effect: PushEffect): Promise<PushAnswer> {
    const claimed = await trx
      .insertInto('partner_pushes')
      .values({
        partner_id: partner.id,
        kind: key.kind,
        external_id: key.externalId,
        request_hash: key.hash,
        status_code: 0,
        response: '',
        created_at: nowIso(),
      })
      .onConflict((oc) => oc.columns(['partner_id', 'kind', 'external_id']).doNothing())
      .returning('partner_id')
      .executeTakeFirst();
    if (!claimed) {
      const twin = await this.storedAnswer(partner, key.kind, key.externalId, key.hash, trx);
      if (!twin) throw new Error('push concorrente sem resposta guardada');
      return twin;
    }
    const answer = await effect(trx);
    await trx
      .updateTable('partner_pushes')
      .set({ status_code: answer.status, response: JSON.stringify(answer.body) })
      .where('partner_id', '=', partner.id)
      .where('kind', '=', key.kind)
      .where('external_id', '=', key.externalId)
      .execute();
    return { ...answer, replayed: false };
  }

  /** The stored answers of many externalIds of one kind at once (a batch's replays), by externalId. */
  storedRows(partner: Partner, kind: PartnerPushKind, externalIds: readonly string[]): Promise<Map<string, StoredPush>> {
    return storedPushes(this.db.kysely, partner.id, kind, externalIds);
  }

  /** A stored row against the request now sent: its first answer again, or 409 for another request. */
  static replayOf(row: StoredPush, hash: string): PushAnswer {
    if (row.request_hash !== hash) throw refuse.conflict(serverMessages.partner.externalIdConflict);
    const status = row.status_code === 201 || row.status_code === 202 ? row.status_code : 200;
    return { status, body: JSON.parse(row.response) as PartnerPushResponse, replayed: true };
  }

  private async storedAnswer(
    partner: Partner,
    kind: PartnerPushKind,
    externalId: string,
    hash: string,
    trx: Trx | null = null,
  ): Promise<PushAnswer | null> {
    const row = await (trx ?? this.db.kysely)
      .selectFrom('partner_pushes')
      .select(['request_hash', 'status_code', 'response'])
      .where('partner_id', '=', partner.id)
      .where('kind', '=', kind)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    return row ? PartnerPushes.replayOf(row, hash) : null;
  }
}

/** The stored answers of many externalIds of one kind, by externalId (inside a transaction: what it sees). */
export async function storedPushes(
  db: Kysely<Database>,
  partnerId: number,
  kind: PartnerPushKind,
  externalIds: readonly string[],
): Promise<Map<string, StoredPush>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('partner_pushes')
    .select(['external_id', 'request_hash', 'status_code', 'response'])
    .where('partner_id', '=', partnerId)
    .where('kind', '=', kind)
    .where('external_id', 'in', [...new Set(externalIds)])
    .execute();
  return new Map(rows.map((r) => [r.external_id, r]));
}
