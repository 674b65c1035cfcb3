import { api } from '@portal/contract';
import { freeFlowMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { answerBatch } from '../../http/item-answers.js';
import { publicRoute } from '../../http/route.js';
import { IDEMPOTENT_REPLAYED_HEADER } from '@portal/contract';
import type { FreeFlowService } from '../passages/free-flow/service.js';
import { decoratePartner, partnerOf, requirePartner } from './keys.js';
import type { PartnerService } from './service.js';

/** Decision 76: a concessionaire's calls (X-Api-Key of kind concessionaire): tolls owed by plate, their withdrawal, what the portal paid. */
export function concessionaireRoutes(app: FastifyInstance, partners: PartnerService, freeFlow: FreeFlowService): void {
  decoratePartner(app);
  const onRequest = requirePartner(partners, 'concessionaire');

  publicRoute(
    app,
    api.partnerToll,
    async ({ req, reply, body }) => {
      const [outcome] = await freeFlow.push(partnerOf(req).id, [body]);
      if (!outcome) throw new Error('Pedágio sem resposta');
      if (outcome.result === 'RECUSADA') throw outcome.refusal;
      if (outcome.answer.replayed) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return outcome.answer.body;
    },
    { onRequest, status: 202 },
  );

  // The passages' batch conventions (decision 55): 1 to 1,000, each answered as the single call, in order.
  publicRoute(
    app,
    api.partnerTollBatch,
    async ({ req, body }) =>
      answerBatch(
        body.debitos.map((item) => (item.ok ? { ok: true, value: item.toll } : item)),
        (tolls) => freeFlow.push(partnerOf(req).id, tolls),
      ),
    { onRequest, bodyLimit: TOLL_BATCH_BODY_LIMIT },
  );

  publicRoute(
    app,
    api.partnerTollDelete,
    async ({ req, params }) => {
      await freeFlow.withdraw(partnerOf(req).id, params.externalId);
      return { Sucesso: true, Mensagem: freeFlowMessages.withdrawn };
    },
    { onRequest },
  );

  publicRoute(
    app,
    api.partnerTollPayments,
    async ({ req, query }) => ({
      Sucesso: true,
      Mensagem: freeFlowMessages.paymentsOk,
      ...(await freeFlow.payments(partnerOf(req).id, query)),
    }),
    { onRequest },
  );
}

/** 1,000 tolls with every text at its maximum stay under 1 MiB, as the passages' batch. */
const TOLL_BATCH_BODY_LIMIT = 1024 * 1024;
