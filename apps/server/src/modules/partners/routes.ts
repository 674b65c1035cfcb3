import { api } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { publicRoute } from '../../http/route.js';
import { decoratePartner, partnerOf, requirePartner } from './keys.js';
import type { LedgerPushes } from './ledger-pushes.js';
import { replyWith } from './pushes.js';

/** What operators and third-party platforms push into the ledger (X-Api-Key); VPOs are in modules/vpos. */
export function partnerRoutes(app: FastifyInstance, db: Kysely<Database>, pushes: LedgerPushes): void {
  decoratePartner(app);

  publicRoute(
    app,
    api.partnerPassage,
    async ({ req, reply, body }) => replyWith(reply, await pushes.recordPassage(partnerOf(req), body)),
    { onRequest: requirePartner(db, 'operator') },
  );

  publicRoute(
    app,
    api.partnerThirdPartyMovement,
    async ({ req, reply, body }) => replyWith(reply, await pushes.recordThirdPartyMovement(partnerOf(req), body)),
    { onRequest: requirePartner(db, 'platform') },
  );
}
