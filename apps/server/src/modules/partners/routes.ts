import { api } from '@portal/contract';
import { messages } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { driverRoute, publicRoute } from '../../http/route.js';
import type { Partner } from './keys.js';
import { requirePartner } from './keys.js';
import type { PartnerService } from './service.js';

function partnerOf(req: FastifyRequest): Partner {
  if (!req.partner) throw new Error('requirePartner não executou');
  return req.partner;
}

/** The partner API (X-Api-Key) and the driver's VPO list. */
export function partnerRoutes(app: FastifyInstance, db: Kysely<Database>, partners: PartnerService): void {
  app.decorateRequest('partner', null);

  publicRoute(
    app,
    api.partnerIssueVpo,
    async ({ req, body }) => {
      const result = await partners.issueVpo(partnerOf(req), body);
      return { Sucesso: true, Mensagem: result.duplicate ? messages.partner.duplicate : messages.partner.vpoIssued, ...result };
    },
    { onRequest: requirePartner(db, 'shipper'), statusOf: (answer) => (answer.duplicate ? 200 : 201) },
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
    async ({ req, body }) => {
      const result = await partners.recordPassage(partnerOf(req), body);
      return { Sucesso: true, Mensagem: result.duplicate ? messages.partner.duplicate : messages.partner.passageRecorded, ...result };
    },
    { onRequest: requirePartner(db, 'operator') },
  );

  publicRoute(
    app,
    api.partnerThirdPartyMovement,
    async ({ req, body }) => {
      const result = await partners.recordThirdPartyMovement(partnerOf(req), body);
      return { Sucesso: true, Mensagem: result.duplicate ? messages.partner.duplicate : messages.partner.movementRecorded, ...result };
    },
    { onRequest: requirePartner(db, 'platform') },
  );

  driverRoute(app, api.driverVpos, async ({ driver, query }) => {
    const page = await partners.driverVpos(driver.id, query);
    return { Sucesso: true, Mensagem: messages.vpo.ok, VPOS: page.vpos, Paginacao: { TotalPaginas: page.totalPages } };
  });
}
