import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverFileRoute, driverRoute } from '../../http/route.js';
import { vpoRecordPdf } from './record-pdf.js';
import type { VpoService } from './service.js';
import type { VehicleGuard } from '../../db/vehicle-scope.js';

/** The driver lists their VPOs, reads one and its record (spec §7, decision 52); the shippers' side is in modules/partners. */
export function vpoRoutes(app: FastifyInstance, vpos: VpoService, guard: VehicleGuard): void {
  driverRoute(app, api.driverVpo, async ({ driver, acting, params }) => {
    await guard.require('vpo', params.id, driver.id, acting.vehicleIds);
    return { Sucesso: true, Mensagem: serverMessages.vpo.found, VPO: await vpos.forDriverOne(driver.id, params.id) };
  });

  driverFileRoute(app, api.driverVpoPdf, async ({ driver, acting, params }) => {
    await guard.require('vpo', params.id, driver.id, acting.vehicleIds);
    const vpo = await vpos.forDriverOne(driver.id, params.id);
    return {
      contentType: 'application/pdf',
      fileName: `vpo-${vpo.IdTransacao}.pdf`,
      disposition: 'attachment',
      body: await vpoRecordPdf(vpo),
    };
  });

  driverRoute(app, api.driverVpos, async ({ driver, acting, query }) => {
    const page = await vpos.forDriver(driver.id, query, acting.vehicleIds);
    return { Sucesso: true, Mensagem: serverMessages.vpo.ok, VPOS: page.vpos, Paginacao: { TotalPaginas: page.totalPages } };
  });
}
