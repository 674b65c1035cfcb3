import { api } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { publicRoute } from '../../http/route.js';
import { decoratePartner, partnerOf, requirePartner } from './keys.js';
import type { LedgerPushes } from './ledger-pushes.js';
import { replyWith } from './pushes.js';
import type { PartnerService } from './service.js';

/** What operators and third-party platforms push into the ledger (X-Api-Key); VPOs are in modules/vpos. */
export function partnerRoutes(app: FastifyInstance, partners: PartnerService, pushes: LedgerPushes): void {
  decoratePartner(app);

  publicRoute(app, api.partnerPassage, async ({ req, reply, body }) => replyWith(reply, await pushes.recordPassage(partnerOf(req), body)), {
    onRequest: requirePartner(partners, 'operator'),
  });

  publicRoute(
    app,
    api.partnerThirdPartyMovement,
    async ({ req, reply, body }) => replyWith(reply, await pushes.recordThirdPartyMovement(partnerOf(req), body)),
    { onRequest: requirePartner(partners, 'platform') },
  );
}
