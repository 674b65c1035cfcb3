import { api } from '@portal/contract';
import { messages } from '@portal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { driverRoute, publicRoute } from '../../http/route.js';
import type { Partner } from './keys.js';
import { requirePartner } from './keys.js';
import type { PartnerService, PushAnswer } from './service.js';

function partnerOf(req: FastifyRequest): Partner {
  if (!req.partner) throw new Error('requirePartner não executou');
  return req.partner;
}

/** The body of the answer; a replay of the first answer says so in a header (as payment APIs do). */
function answer(reply: FastifyReply, pushed: PushAnswer): PushAnswer['body'] {
  if (pushed.replayed) void reply.header('Idempotent-Replayed', 'true');
  return pushed.body;
}

/** The partner API (X-Api-Key) and the driver's VPO list. */
export function partnerRoutes(app: FastifyInstance, db: Kysely<Database>, partners: PartnerService): void {
  app.decorateRequest('partner', null);

  publicRoute(
    app,
    api.partnerIssueVpo,
    async ({ req, reply, body }) => answer(reply, await partners.issueVpo(partnerOf(req), body)),
    { onRequest: requirePartner(db, 'shipper'), statusOf: (sent) => (sent.duplicate ? 200 : 201) },
  );

  publicRoute(
    app,
    api.partnerUpdateVpo,
    async ({ req, params, body }) => {
      const result = await partners.updateVpoStatus(partnerOf(req), params.externalId, body.Status);
      return { Sucesso: true, Mensagem: messages.partner.vpoUpdated, ...result };
    },
    { onRequest: requirePartner(db, 'shipper') },
  );

  publicRoute(
    app,
    api.partnerPassage,
    async ({ req, reply, body }) => answer(reply, await partners.recordPassage(partnerOf(req), body)),
    { onRequest: requirePartner(db, 'operator') },
  );

  publicRoute(
    app,
    api.partnerThirdPartyMovement,
    async ({ req, reply, body }) => answer(reply, await partners.recordThirdPartyMovement(partnerOf(req), body)),
    { onRequest: requirePartner(db, 'platform') },
  );

  driverRoute(app, api.driverVpos, async ({ driver, query }) => {
    const page = await partners.driverVpos(driver.id, query);
    return { Sucesso: true, Mensagem: messages.vpo.ok, VPOS: page.vpos, Paginacao: { TotalPaginas: page.totalPages } };
  });
}
