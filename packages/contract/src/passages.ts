import { z } from 'zod';
import type { core } from 'zod';
import { messages } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope } from './common.js';
import { partnerPassageRequest } from './vpos.js';
import type { PartnerPassageRequest } from './vpos.js';

/** Decision 55: at most this many passages in one POST /api/parceiro/passagens/lote (messages.partner.batchSize says it). */
export const PASSAGE_BATCH_MAX = 1000;

/**
 * One item of a batch as the server reads it: the passage, validated and normalised exactly as the
 * single call's body, or the issues the single call would have refused it with (422). An item
 * that is not a passage never refuses the batch: it is answered on its own.
 */
export type PassageBatchItem =
  { ok: true; passage: PartnerPassageRequest } | { ok: false; issues: core.$ZodIssue[]; externalId: string | null };

const externalIdOf = (input: unknown): string | null => {
  const id = typeof input === 'object' && input !== null ? (input as { externalId?: unknown }).externalId : undefined;
  return typeof id === 'string' ? id : null;
};

/** The single call's body (partnerPassageRequest); what fails it becomes the item's issues instead of the batch's. */
export const partnerPassageBatchItem = z.lazy(() =>
  partnerPassageRequest
    .transform((passage): PassageBatchItem => ({ ok: true, passage }))
    .catch((ctx): PassageBatchItem => ({ ok: false, issues: ctx.error.issues, externalId: externalIdOf(ctx.input) })),
);

/** {"passagens": [...]}: 1 to PASSAGE_BATCH_MAX items, each the body of POST /api/parceiro/passagens. */
export const partnerPassageBatchRequest = z.lazy(() =>
  z.object(
    {
      passagens: z
        .array(partnerPassageBatchItem, { error: messages.partner.batchInvalid })
        .min(1, messages.partner.batchSize)
        .max(PASSAGE_BATCH_MAX, messages.partner.batchSize),
    },
    { error: messages.partner.batchInvalid },
  ),
);
export type PartnerPassageBatchRequest = z.infer<typeof partnerPassageBatchRequest>;

/** What happened to one item: recorded now, the same request seen before (its first answer again), or refused. */
export const PASSAGE_BATCH_RESULTS = ['ACEITA', 'REPETIDA', 'RECUSADA'] as const;
export type PassageBatchResult = (typeof PASSAGE_BATCH_RESULTS)[number];

/**
 * The answer of one item, in the request's order: `status` and `resposta` are what the single call
 * would have answered for it (200 and the entry id; a replay's first answer; 409, 422... and the
 * error envelope with its Portuguese Mensagem).
 */
export const passageBatchItemAnswer = z.lazy(() =>
  z.object({
    externalId: z.string().nullable(),
    resultado: z.enum(PASSAGE_BATCH_RESULTS),
    status: z.number().int(),
    resposta: z.object({
      Sucesso: z.boolean(),
      Mensagem: z.string(),
      id: z.string().optional(),
      duplicate: z.boolean().optional(),
      errors: z.record(z.string(), z.array(z.string())).optional(),
      error: z.string().optional(),
    }),
  }),
);
export type PassageBatchItemAnswer = z.infer<typeof passageBatchItemAnswer>;

export const partnerPassageBatchResponse = z.lazy(() =>
  envelope.unwrap().extend({
    Aceitas: z.number().int(),
    Repetidas: z.number().int(),
    Recusadas: z.number().int(),
    Itens: z.array(passageBatchItemAnswer),
  }),
);
export type PartnerPassageBatchResponse = z.infer<typeof partnerPassageBatchResponse>;

const partnerAuth = 'Autenticação do parceiro pelo cabeçalho X-Api-Key (não usa o token do motorista).';

export const passagesApi = {
  partnerPassageBatch: endpoint({
    method: 'POST',
    path: '/api/parceiro/passagens/lote',
    auth: false,
    summary:
      'Operadora informa de 1 a 1.000 passagens numa chamada: {"passagens": [...]}, cada uma o corpo de POST /api/parceiro/passagens. ' +
      'Cada item é idempotente no seu externalId como a chamada individual (a mesma passagem de novo, sozinha ou num lote, nunca debita duas vezes) ' +
      'e recebe, na ordem do pedido, a resposta que ela daria: ACEITA, REPETIDA ou RECUSADA, com o status e o corpo dela. ' +
      `A recusa de um item não muda nada para ele nem desfaz os outros. ${partnerAuth}`,
    body: partnerPassageBatchRequest,
    response: partnerPassageBatchResponse,
  }),
};
