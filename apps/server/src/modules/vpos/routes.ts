import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverFileRoute, driverRoute, publicRoute } from '../../http/route.js';
import { decoratePartner, partnerOf, requirePartner } from '../partners/keys.js';
import { replyWith } from '../partners/pushes.js';
import type { PartnerService } from '../partners/service.js';
import { vpoRecordPdf } from './record-pdf.js';
import type { VpoService } from './service.js';

/** Shippers issue, update and read their VPOs (X-Api-Key); the driver lists them, reads one and its record (spec §7, decision 52). */
export function vpoRoutes(app: FastifyInstance, partners: PartnerService, vpos: VpoService): void {
  decoratePartner(app);

  publicRoute(app, api.partnerIssueVpo, async ({ req, reply, body }) => replyWith(reply, await vpos.issue(partnerOf(req), body)), {
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
      VPO: await vpos.forPartner(partnerOf(req), params.externalId),
    }),
    { onRequest: requirePartner(partners, 'shipper') },
  );

  driverRoute(app, api.driverVpo, async ({ driver, params }) => ({
    Sucesso: true,
    Mensagem: serverMessages.vpo.found,
    VPO: await vpos.forDriverOne(driver.id, params.id),
  }));

  driverFileRoute(app, api.driverVpoPdf, async ({ driver, params }) => {
    const vpo = await vpos.forDriverOne(driver.id, params.id);
    return {
      contentType: 'application/pdf',
      fileName: `vpo-${vpo.IdTransacao}.pdf`,
      disposition: 'attachment',
      body: await vpoRecordPdf(vpo),
    };
  });

  driverRoute(app, api.driverVpos, async ({ driver, query }) => {
    const page = await vpos.forDriver(driver.id, query);
    return { Sucesso: true, Mensagem: serverMessages.vpo.ok, VPOS: page.vpos, Paginacao: { TotalPaginas: page.totalPages } };
  });
}
