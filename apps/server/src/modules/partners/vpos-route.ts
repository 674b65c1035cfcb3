import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { publicRoute } from '../../http/route.js';
import type { VpoService } from '../vpos/service.js';
import { decoratePartner, partnerOf, requirePartner } from './keys.js';
import { replyWith } from './pushes.js';
import type { PartnerService } from './service.js';
import type { VpoPushes } from './vpo-pushes.js';

/** Shippers issue, update and read their VPOs (X-Api-Key; spec §7, decision 52); the driver's side is in modules/vpos. */
export function shipperVpoRoutes(app: FastifyInstance, partners: PartnerService, pushes: VpoPushes, vpos: VpoService): void {
  decoratePartner(app);

  publicRoute(app, api.partnerIssueVpo, async ({ req, reply, body }) => replyWith(reply, await pushes.issue(partnerOf(req), body)), {
    onRequest: requirePartner(partners, 'shipper'),
    statusOf: (sent) => (sent.duplicate ? 200 : 201),
  });

  publicRoute(
    app,
    api.partnerUpdateVpo,
    async ({ req, params, body }) => {
      const result = await vpos.updateStatus(partnerOf(req), params.externalId, body.Status);
      return {
        Sucesso: true,
        Mensagem: result.duplicate ? serverMessages.partner.vpoStatusUnchanged : serverMessages.partner.vpoUpdated,
        ...result,
      };
    },
    { onRequest: requirePartner(partners, 'shipper') },
  );

  publicRoute(
    app,
    api.partnerVpo,
    async ({ req, params }) => ({
      Sucesso: true,
      Mensagem: serverMessages.vpo.found,
      VPO: await vpos.forShipper(partnerOf(req), params.externalId),
    }),
    { onRequest: requirePartner(partners, 'shipper') },
  );
}
