import { api } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { answerBatch } from '../../http/item-answers.js';
import { publicRoute } from '../../http/route.js';
import { decoratePartner, partnerOf, requirePartner } from './keys.js';
import type { LedgerPushes } from './ledger-pushes.js';
import { replyWith } from './pushes.js';
import type { PartnerService } from './service.js';

/** What operators and third-party platforms push into the ledger (X-Api-Key); shippers' VPOs are in vpos-route.ts. */
export function partnerRoutes(app: FastifyInstance, partners: PartnerService, pushes: LedgerPushes): void {
  decoratePartner(app);

  publicRoute(app, api.partnerPassage, async ({ req, reply, body }) => replyWith(reply, await pushes.recordPassage(partnerOf(req), body)), {
    onRequest: requirePartner(partners, 'operator'),
  });

  // Decision 55: up to 1,000 passages, each answered as the single call would answer it, in the request's order.
  publicRoute(
    app,
    api.partnerPassageBatch,
    async ({ req, body }) =>
      answerBatch(
        body.passagens.map((item) => (item.ok ? { ok: true, value: item.passage } : item)),
        (passages) => pushes.recordPassages(partnerOf(req), passages),
      ),
    { onRequest: requirePartner(partners, 'operator'), bodyLimit: PASSAGE_BATCH_BODY_LIMIT },
  );

  publicRoute(
    app,
    api.partnerThirdPartyMovement,
    async ({ req, reply, body }) => replyWith(reply, await pushes.recordThirdPartyMovement(partnerOf(req), body)),
    { onRequest: requirePartner(partners, 'platform') },
  );
}

/**
 * Decision 55: the app reads 64 KiB of body at most; a batch of 1,000 passages is 289 KB with
 * realistic texts, 507 KB with every text at its maximum (placeName 120 characters of two bytes).
 */
const PASSAGE_BATCH_BODY_LIMIT = 1024 * 1024;
