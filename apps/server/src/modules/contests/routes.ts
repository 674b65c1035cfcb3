import { api } from '@portal/contract';
import { contestMessages, formatDateTime, freeFlowMessages } from '@portal/domain';
import type { FreeFlowService } from '../passages/free-flow/service.js';
import type { FastifyInstance } from 'fastify';
import { driverFileRoute, driverRoute } from '../../http/route.js';
import { contestRecordPdf } from './record-pdf.js';
import type { ContestService } from './service.js';

/** The driver contests passages and reads the answers (decision 56); the operator's side is in modules/partners. */
export function contestRoutes(app: FastifyInstance, contests: ContestService, freeFlow: FreeFlowService): void {
  driverRoute(
    app,
    api.openContest,
    async ({ driver, body }) => {
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
    async ({ driver, params, body }) => {
      await contests.openForToll(driver.id, params.id, body.motivo);
      return { Sucesso: true, Mensagem: freeFlowMessages.contested, Debito: await freeFlow.one(driver.id, params.id) };
    },
    { status: 201 },
  );

  driverRoute(app, api.driverContests, async ({ driver, query }) => {
    const page = await contests.forDriver(driver.id, query.page, query.estado);
    return { Sucesso: true, Mensagem: contestMessages.listOk, Contestacoes: page.contests, Paginacao: { TotalPaginas: page.totalPages } };
  });

  driverFileRoute(app, api.driverContestPdf, async ({ driver, params }) => {
    const contest = await contests.forDriverOne(driver.id, params.id);
    return {
      contentType: 'application/pdf',
      fileName: `contestacao-${contest.id}.pdf`,
      disposition: 'attachment',
      body: await contestRecordPdf(contest),
    };
  });
}
