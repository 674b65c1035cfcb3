import { api } from '@portal/contract';
import { contestMessages, refuse, serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { publicRoute } from '../../http/route.js';
import type { ContestAnswerer, ContestService } from '../contests/service.js';
import { answererKey } from '../contests/service.js';
import { decoratePartner, partnerOf, requirePartner } from './keys.js';
import type { PartnerService } from './service.js';

/**
 * The operator lists and answers the contests of its own passages (X-Api-Key, decision 56), the
 * concessionaire those of its free-flow tolls (decision 76); the driver's side is in modules/contests.
 */
export function operatorContestRoutes(app: FastifyInstance, partners: PartnerService, contests: ContestService): void {
  decoratePartner(app);

  publicRoute(
    app,
    api.partnerContests,
    async ({ req, query }) => {
      const page = await contests.forOperator(answererKey(answererOf(req)), query);
      return { Sucesso: true, Mensagem: contestMessages.listOk, Contestacoes: page.contests, Paginacao: { TotalPaginas: page.totalPages } };
    },
    { onRequest: requirePartner(partners, ['operator', 'concessionaire']) },
  );

  publicRoute(
    app,
    api.partnerAnswerContest,
    async ({ req, params, body }) => {
      const { contest } = await contests.answer(answererOf(req), params.id, body);
      return { Sucesso: true, Mensagem: contestMessages.answered, Contestacao: contest };
    },
    { onRequest: requirePartner(partners, ['operator', 'concessionaire']) },
  );
}

/** An operator answers for its tags' passages, a concessionaire for its free-flow tolls (decision 76). */
function answererOf(req: Parameters<typeof partnerOf>[0]): Exclude<ContestAnswerer, { kind: 'portal' }> {
  const partner = partnerOf(req);
  if (partner.kind === 'concessionaire') return { kind: 'concessionaire', partnerId: partner.id };
  if (partner.operatorCnpj === null) throw refuse.forbidden(serverMessages.partner.operatorUnscoped);
  return { kind: 'operator', partnerId: partner.id, operatorCnpj: partner.operatorCnpj };
}
