import { api } from '@portal/contract';
import type { PassageBatchItemAnswer, PassageBatchResult } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { asItem, issuesAnswer, refusalAnswer } from '../../http/item-answers.js';
import { publicRoute } from '../../http/route.js';
import { decoratePartner, partnerOf, requirePartner } from './keys.js';
import type { LedgerPushes } from './ledger-pushes.js';
import { replyWith } from './pushes.js';
import type { PartnerService } from './service.js';

/** What operators and third-party platforms push into the ledger (X-Api-Key); shippers' VPOs are in vpos-route.ts. */
export function partnerRoutes(app: FastifyInstance, partners: PartnerService, pushes: LedgerPushes): void {
  decoratePartner(app);

  publicRoute(app, api.partnerPassage, async ({ req, reply, body }) => replyWith(reply, await pushes.recordPassage(partnerOf(req), body)), {
    onRequest: requirePartner(partners, 'operator'),
  });

  // Decision 55: up to 1,000 passages, each answered as the single call would answer it, in the request's order.
  publicRoute(
    app,
    api.partnerPassageBatch,
    async ({ req, body }) => {
      const items = body.passagens;
      const itens: (PassageBatchItemAnswer | undefined)[] = items.map((item) =>
        item.ok ? undefined : { externalId: item.externalId, resultado: 'RECUSADA', ...asItem(issuesAnswer(item.issues)) },
      );
      const valid = items.flatMap((item, i) => (item.ok ? [{ i, passage: item.passage }] : []));
      const outcomes = await pushes.recordPassages(
        partnerOf(req),
        valid.map((v) => v.passage),
      );
      valid.forEach(({ i, passage }, k) => {
        const outcome = outcomes[k];
        if (!outcome) throw new Error(`Passagem ${i} do lote sem resposta`);
        itens[i] =
          outcome.result === 'RECUSADA'
            ? { externalId: passage.externalId, resultado: 'RECUSADA', ...asItem(refusalAnswer(outcome.refusal)) }
            : { externalId: passage.externalId, resultado: outcome.result, status: outcome.answer.status, resposta: outcome.answer.body };
      });
      const answered = itens.filter((x): x is PassageBatchItemAnswer => x !== undefined);
      const count = (result: PassageBatchResult) => answered.filter((x) => x.resultado === result).length;
      const [Aceitas, Repetidas, Recusadas] = [count('ACEITA'), count('REPETIDA'), count('RECUSADA')];
      return {
        Sucesso: true,
        Mensagem: serverMessages.partner.batchProcessed(Aceitas, Repetidas, Recusadas),
        Aceitas,
        Repetidas,
        Recusadas,
        Itens: answered,
      };
    },
    { onRequest: requirePartner(partners, 'operator'), bodyLimit: PASSAGE_BATCH_BODY_LIMIT },
  );

  publicRoute(
    app,
    api.partnerThirdPartyMovement,
    async ({ req, reply, body }) => replyWith(reply, await pushes.recordThirdPartyMovement(partnerOf(req), body)),
    { onRequest: requirePartner(partners, 'platform') },
  );
}

/**
 * Decision 55: the app reads 64 KiB of body at most; a batch of 1,000 passages is 289 KB with
 * realistic texts, 507 KB with every text at its maximum (placeName 120 characters of two bytes).
 */
const PASSAGE_BATCH_BODY_LIMIT = 1024 * 1024;
