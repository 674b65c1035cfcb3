import { api } from '@portal/contract';
import { contestMessages, formatDateTime, freeFlowMessages } from '@portal/domain';
import type { FreeFlowService } from '../passages/free-flow/service.js';
import type { FastifyInstance } from 'fastify';
import { driverFileRoute, driverRoute } from '../../http/route.js';
import { contestRecordPdf } from './record-pdf.js';
import type { ContestService } from './service.js';
import type { VehicleGuard } from '../../db/vehicle-scope.js';

/** The driver contests passages and reads the answers (decision 56); the operator's side is in modules/partners. */
export function contestRoutes(app: FastifyInstance, contests: ContestService, freeFlow: FreeFlowService, guard: VehicleGuard): void {
  driverRoute(
    app,
    api.openContest,
    async ({ driver, acting, body }) => {
      await guard.require('passage', body.passagemId, driver.id, acting.vehicleIds);
      const contest = await contests.open(driver.id, body);
      return {
        Sucesso: true,
        Mensagem: contestMessages.opened.replace('{due}', formatDateTime(contest.prazoResposta)),
        Contestacao: contest,
      };
    },
    { status: 201 },
  );

  // Decision 76: a free-flow toll contested in one tap; the answer is the toll, with its contest.
  driverRoute(
    app,
    api.contestFreeFlowToll,
    async ({ driver, acting, params, body }) => {
      await guard.require('toll', params.id, driver.id, acting.vehicleIds);
      await contests.openForToll(driver.id, params.id, body.motivo);
      return { Sucesso: true, Mensagem: freeFlowMessages.contested, Debito: await freeFlow.one(driver.id, params.id) };
    },
    { status: 201 },
  );

  driverRoute(app, api.driverContests, async ({ driver, acting, query }) => {
    const page = await contests.forDriver(driver.id, query.page, query.estado, acting.vehicleIds);
    return { Sucesso: true, Mensagem: contestMessages.listOk, Contestacoes: page.contests, Paginacao: { TotalPaginas: page.totalPages } };
  });

  driverFileRoute(app, api.driverContestPdf, async ({ driver, acting, params }) => {
    await guard.require('contest', params.id, driver.id, acting.vehicleIds);
    const contest = await contests.forDriverOne(driver.id, params.id);
    return {
      contentType: 'application/pdf',
      fileName: `contestacao-${contest.id}.pdf`,
      disposition: 'attachment',
      body: await contestRecordPdf(contest),
    };
  });
}
