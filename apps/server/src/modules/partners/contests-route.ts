import { api } from '@portal/contract';
import { contestMessages, refuse, serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { publicRoute } from '../../http/route.js';
import type { ContestService } from '../contests/service.js';
import { decoratePartner, partnerOf, requirePartner } from './keys.js';
import type { PartnerService } from './service.js';

/** The operator lists and answers the contests of its own passages (X-Api-Key, decision 56); the driver's side is in modules/contests. */
export function operatorContestRoutes(app: FastifyInstance, partners: PartnerService, contests: ContestService): void {
  decoratePartner(app);

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
