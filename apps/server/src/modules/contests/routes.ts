import { api } from '@portal/contract';
import { contestMessages, formatDateTime, refuse, serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverFileRoute, driverRoute, publicRoute } from '../../http/route.js';
import { decoratePartner, partnerOf, requirePartner } from '../partners/keys.js';
import type { PartnerService } from '../partners/service.js';
import { contestRecordPdf } from './record-pdf.js';
import type { ContestService } from './service.js';

/** The driver contests passages and reads the answers; the operator lists and answers its own (decision 56). */
export function contestRoutes(app: FastifyInstance, partners: PartnerService, contests: ContestService): void {
  decoratePartner(app);

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

  publicRoute(
    app,
    api.partnerContests,
    async ({ req, query }) => {
      const operatorCnpj = operatorOf(req);
      const page = await contests.forOperator(operatorCnpj, query);
      return { Sucesso: true, Mensagem: contestMessages.listOk, Contestacoes: page.contests, Paginacao: { TotalPaginas: page.totalPages } };
    },
    { onRequest: requirePartner(partners, 'operator') },
  );

  publicRoute(
    app,
    api.partnerAnswerContest,
    async ({ req, params, body }) => {
      const partner = partnerOf(req);
      const { contest } = await contests.answer(
        { kind: 'operator', partnerId: partner.id, operatorCnpj: operatorOf(req) },
        params.id,
        body,
      );
      return { Sucesso: true, Mensagem: contestMessages.answered, Contestacao: contest };
    },
    { onRequest: requirePartner(partners, 'operator') },
  );
}

function operatorOf(req: Parameters<typeof partnerOf>[0]): string {
  const partner = partnerOf(req);
  if (partner.operatorCnpj === null) throw refuse.forbidden(serverMessages.partner.operatorUnscoped);
  return partner.operatorCnpj;
}
