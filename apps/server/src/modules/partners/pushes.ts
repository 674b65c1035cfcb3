import { IDEMPOTENT_REPLAYED_HEADER } from '@portal/contract';
import type { PartnerPushResponse } from '@portal/contract';
import { refuse, serverMessages } from '@portal/domain';
import type { FastifyReply } from 'fastify';
import type { Db, Trx } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import type { PartnerPushKind } from '../../db/schema.js';
import { requestHash } from '../../db/request-hash.js';
import type { Partner } from './keys.js';

/** The answer of a push: the first one again (replayed) when the same request comes back. */
export interface PushAnswer {
  status: 200 | 201;
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

/** A concurrent twin stored its answer first: this transaction rolls back and replays it. */
class TwinFirst extends Error {}

/**
 * Decision 18, idempotency on the partner's externalId: the same request again gets the first
 * answer; another request with that externalId is a 409 and changes nothing. The push row is
 * claimed first in the effect's transaction, so a concurrent twin waits for it (PostgreSQL) or
 * runs after it (SQLite), then replays its answer. A refusal stores nothing.
 */
export class PartnerPushes {
  constructor(private readonly db: Db) {}

  async push(partner: Partner, kind: PartnerPushKind, externalId: string, request: PushRequest, effect: PushEffect): Promise<PushAnswer> {
    const hash = requestHash(request);
    const stored = await this.storedAnswer(partner, kind, externalId, hash);
    if (stored) return stored;
    try {
      return await this.db.kysely.transaction().execute(async (trx) => {
        const claimed = await trx
          .insertInto('partner_pushes')
          .values({
            partner_id: partner.id,
            kind,
            external_id: externalId,
            request_hash: hash,
            status_code: 0,
            response: '',
            created_at: nowIso(),
          })
          .onConflict((oc) => oc.columns(['partner_id', 'kind', 'external_id']).doNothing())
          .returning('partner_id')
          .executeTakeFirst();
        if (!claimed) throw new TwinFirst();
        const answer = await effect(trx);
        await trx
          .updateTable('partner_pushes')
          .set({ status_code: answer.status, response: JSON.stringify(answer.body) })
          .where('partner_id', '=', partner.id)
          .where('kind', '=', kind)
          .where('external_id', '=', externalId)
          .execute();
        return { ...answer, replayed: false };
      });
    } catch (error) {
      if (!(error instanceof TwinFirst)) throw error;
    }
    const twin = await this.storedAnswer(partner, kind, externalId, hash);
    if (!twin) throw new Error('push concorrente sem resposta guardada');
    return twin;
  }

  private async storedAnswer(partner: Partner, kind: PartnerPushKind, externalId: string, hash: string): Promise<PushAnswer | null> {
    const row = await this.db.kysely
      .selectFrom('partner_pushes')
      .select(['request_hash', 'status_code', 'response'])
      .where('partner_id', '=', partner.id)
      .where('kind', '=', kind)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    if (!row) return null;
    if (row.request_hash !== hash) throw refuse.conflict(serverMessages.partner.externalIdConflict);
    return { status: row.status_code === 201 ? 201 : 200, body: JSON.parse(row.response) as PartnerPushResponse, replayed: true };
  }
}
