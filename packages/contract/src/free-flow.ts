import { z } from 'zod';
import {
  TOLL_CONTEST_REASONS,
  FREE_FLOW_STATES,
  FREE_FLOW_MAX_KM,
  FREE_FLOW_FLAGS,
  FREE_FLOW_PAYERS,
  MAX_PASSAGE_CENTS,
  parseCalendarDay,
  saoPauloDay,
  freeFlowMessages,
  messages,
  TEXT_MAX,
  plateError,
  normalizePlate,
} from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, idParam, isoDateTime, pageQuery, pagination, strictText, text } from './common.js';
import { reais } from './balance.js';
import { externalId, money, occurredAt, oneOf, required } from './vpos.js';
import { passageBatchItemAnswer } from './passages.js';
import type { PassageBatchItem } from './passages.js';

/** At most this many tolls in one POST /api/parceiro/livre-passagem/lote (as the passages' batch). */
export const TOLL_BATCH_MAX = 1000;

const day = z.lazy(() =>
  text(10).pipe(z.string().refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && parseCalendarDay(v) !== null, freeFlowMessages.dayInvalid)),
);

/**
 * A toll a plate owes on a free-flow highway, as the concessionaire sends it (decision 76).
 * `vencimento` absent: the portal computes it (30 calendar days, the next business day).
 */
export const partnerTollRequest = z.lazy(() =>
  z
    .object({
      externalId,
      placa: text(TEXT_MAX.plate)
        .transform((v) => normalizePlate(v))
        .superRefine((v, ctx) => {
          const message = plateError(v);
          if (message) ctx.addIssue({ code: 'custom', message });
        }),
      portico: required(freeFlowMessages.gantryRequired, TEXT_MAX.place),
      rodovia: required(freeFlowMessages.highwayRequired, TEXT_MAX.code),
      km: z
        .number()
        .catch(Number.NaN)
        .refine(
          (v) => Number.isFinite(v) && v >= 0 && v <= FREE_FLOW_MAX_KM && Math.abs(Math.round(v * 1000) - v * 1000) < 1e-6,
          freeFlowMessages.kmInvalid,
        ),
      sentido: required(freeFlowMessages.directionRequired, TEXT_MAX.code),
      eixos: z
        .number()
        .catch(Number.NaN)
        .refine((v) => Number.isInteger(v) && v >= 2 && v <= 9, freeFlowMessages.axlesInvalid),
      valor: money(MAX_PASSAGE_CENTS),
      occurredAt,
      vencimento: day.optional(),
    })
    .superRefine((toll, ctx) => {
      if (toll.vencimento !== undefined && toll.vencimento < saoPauloDay(new Date(toll.occurredAt))) {
        ctx.addIssue({ code: 'custom', message: freeFlowMessages.dueDayBeforePassage, path: ['vencimento'] });
      }
    }),
);
export type PartnerTollRequest = z.infer<typeof partnerTollRequest>;

/** One item of a batch: the toll as the single call reads it, or the issues it would refuse it with. */
export type TollBatchItem =
  | { ok: true; toll: PartnerTollRequest }
  | { ok: false; issues: Extract<PassageBatchItem, { ok: false }>['issues']; externalId: string | null };

const externalIdOf = (input: unknown): string | null => {
  const id = typeof input === 'object' && input !== null ? (input as { externalId?: unknown }).externalId : undefined;
  return typeof id === 'string' ? id : null;
};

export const partnerTollBatchItem = z.lazy(() =>
  partnerTollRequest
    .transform((toll): TollBatchItem => ({ ok: true, toll }))
    .catch((ctx): TollBatchItem => ({ ok: false, issues: ctx.error.issues, externalId: externalIdOf(ctx.input) })),
);

export const partnerTollBatchRequest = z.lazy(() =>
  z.object(
    {
      debitos: z
        .array(partnerTollBatchItem, { error: freeFlowMessages.batchInvalid })
        .min(1, freeFlowMessages.batchSize)
        .max(TOLL_BATCH_MAX, freeFlowMessages.batchSize),
    },
    { error: freeFlowMessages.batchInvalid },
  ),
);

/** The answer of a toll push: 202 and an id that says nothing of whether the plate is the portal's. */
export const partnerTollResponse = z.lazy(() => envelope.unwrap().extend({ id: z.string() }));
export type PartnerTollResponse = z.infer<typeof partnerTollResponse>;

export const partnerTollBatchResponse = z.lazy(() =>
  envelope.unwrap().extend({
    Aceitas: z.number().int(),
    Repetidas: z.number().int(),
    Recusadas: z.number().int(),
    Itens: z.array(passageBatchItemAnswer),
  }),
);
export type PartnerTollBatchResponse = z.infer<typeof partnerTollBatchResponse>;

export const partnerTollParams = z.lazy(() => z.object({ externalId: strictText(TEXT_MAX.externalId) }));

export const partnerTollPaymentsQuery = z.lazy(() => pageQuery.unwrap().extend({ desde: day.optional(), ate: day.optional() }));
export type PartnerTollPaymentsQuery = z.infer<typeof partnerTollPaymentsQuery>;

export const partnerTollPayment = z.lazy(() =>
  z.object({ externalId: z.string(), placa: z.string(), valor: reais, pagoEm: isoDateTime, comprovante: z.string() }),
);
export const partnerTollPaymentsResponse = z.lazy(() =>
  envelope.unwrap().extend({ Pagamentos: z.array(partnerTollPayment), Paginacao: pagination }),
);
export type PartnerTollPaymentsResponse = z.infer<typeof partnerTollPaymentsResponse>;

/** A toll as the driver reads it on /livre-passagem. */
export const freeFlowToll = z.lazy(() =>
  z.object({
    id: z.number().int(),
    placa: z.string(),
    concessionaria: z.string(),
    portico: z.string(),
    rodovia: z.string(),
    km: z.number(),
    sentido: z.string(),
    eixos: z.number().int(),
    valor: reais,
    dataPassagem: isoDateTime,
    /** 'AAAA-MM-DD': the last day to pay. */
    vencimento: z.string(),
    /** Calendar days from today (São Paulo) to the deadline: 0 on the day, negative once past. */
    diasRestantes: z.number().int(),
    estado: z.enum(FREE_FLOW_STATES),
    pagoEm: isoDateTime.nullable(),
    pagoPor: z.enum(FREE_FLOW_PAYERS).nullable(),
    autenticacao: z.string().nullable(),
    /** Flagged: the tag was active with money at that moment, or paid this gantry within minutes. */
    sinalizacao: z.enum(FREE_FLOW_FLAGS).nullable(),
    /** Automatic payment found Saldo short: paid as soon as money arrives. */
    aguardandoSaldo: z.boolean(),
    contestacao: z.object({ id: z.number().int(), estado: z.string() }).nullable(),
  }),
);
export type FreeFlowToll = z.infer<typeof freeFlowToll>;

export const freeFlowTollsQuery = z.lazy(() =>
  pageQuery.unwrap().extend({
    placa: text(TEXT_MAX.plate)
      .transform((v) => normalizePlate(v))
      .optional(),
    estado: z.enum(FREE_FLOW_STATES).optional().catch(undefined),
  }),
);
export type FreeFlowTollsQuery = z.infer<typeof freeFlowTollsQuery>;

/** What is owed now: the dashboard's tile and notice. */
export const freeFlowSummary = z.lazy(() =>
  z.object({
    emAberto: z.number().int(),
    valorEmAberto: reais,
    vencidos: z.number().int(),
    /** The nearest deadline of the open ones, 'AAAA-MM-DD'. */
    proximoVencimento: z.string().nullable(),
    sinalizados: z.number().int(),
    placasAtivas: z.number().int(),
  }),
);
export type FreeFlowSummary = z.infer<typeof freeFlowSummary>;

export const freeFlowTollsResponse = z.lazy(() =>
  envelope.unwrap().extend({ Debitos: z.array(freeFlowToll), Paginacao: pagination, Resumo: freeFlowSummary }),
);
export type FreeFlowTollsResponse = z.infer<typeof freeFlowTollsResponse>;

export const freeFlowTollResponse = z.lazy(() => envelope.unwrap().extend({ Debito: freeFlowToll }));
export type FreeFlowTollResponse = z.infer<typeof freeFlowTollResponse>;

export const freeFlowTollParams = z.lazy(() => z.object({ id: idParam }));

/** One tap: the reason is one of the toll's reasons. */
export const freeFlowContestRequest = z.lazy(() =>
  z.object({ motivo: oneOf(TOLL_CONTEST_REASONS, freeFlowMessages.contestReasonInvalid) }),
);
export type FreeFlowContestRequest = z.input<typeof freeFlowContestRequest>;

/** A plate's choice: tolls kept (the consent) and paid on arrival. */
export const freeFlowPlate = z.lazy(() =>
  z.object({
    veiculoId: z.number().int(),
    placa: z.string(),
    ativo: z.boolean(),
    automatico: z.boolean(),
    desde: isoDateTime.nullable(),
  }),
);
export type FreeFlowPlate = z.infer<typeof freeFlowPlate>;

export const freeFlowPlatesResponse = z.lazy(() => envelope.unwrap().extend({ Placas: z.array(freeFlowPlate) }));
export type FreeFlowPlatesResponse = z.infer<typeof freeFlowPlatesResponse>;

const flag = (message: string) => z.boolean({ error: () => message });

/** One vehicle's choice, or (no veiculoId) every vehicle's at once. */
export const freeFlowPlateRequest = z.lazy(() =>
  z
    .object({
      veiculoId: z.number().int().positive().optional().catch(-1),
      ativo: flag(freeFlowMessages.choiceInvalid),
      automatico: flag(freeFlowMessages.choiceInvalid).default(false),
    })
    .refine((v) => v.veiculoId !== -1, { message: messages.vehicle.idInvalid, path: ['veiculoId'] }),
);
export type FreeFlowPlateRequest = z.input<typeof freeFlowPlateRequest>;
export type FreeFlowPlateChoice = z.output<typeof freeFlowPlateRequest>;

/** A proof's facts as the public verification page shows them (the document masked). */
export const proofFacts = z.lazy(() =>
  z.object({
    codigo: z.string(),
    tipo: z.enum(['PEDAGIO_SEM_CANCELA', 'PASSAGEM']),
    placa: z.string(),
    titular: z.string(),
    documentoMascarado: z.string(),
    momento: isoDateTime,
    local: z.string(),
    valor: reais,
    tag: z
      .object({ serialNumber: z.string(), operadora: z.string(), ativaDesde: isoDateTime.nullable(), ativaNoMomento: z.boolean() })
      .nullable(),
    saldoNoMomento: reais,
    pagamento: z.object({ pagoEm: isoDateTime, pagoPor: z.string(), autenticacao: z.string().nullable() }).nullable(),
    emitidoEm: isoDateTime,
  }),
);
export type ProofFacts = z.infer<typeof proofFacts>;

export const proofVerifyParams = z.lazy(() => z.object({ codigo: strictText(200) }));
export const proofVerifyResponse = z.lazy(() => envelope.unwrap().extend({ Comprovante: proofFacts }));
export type ProofVerifyResponse = z.infer<typeof proofVerifyResponse>;

const partnerAuth = 'Autenticação do parceiro pelo cabeçalho X-Api-Key (não usa o token do motorista).';
const pdf = { contentTypes: ['application/pdf'] } as const;

export const freeFlowApi = {
  partnerToll: endpoint({
    method: 'POST',
    path: '/api/parceiro/livre-passagem',
    auth: false,
    summary:
      'Concessionária informa um pedágio sem cancela devido por placa (vencimento AAAA-MM-DD; ausente, o portal calcula: 30 dias corridos, ' +
      'prorrogado ao próximo dia útil). Idempotente no externalId. A resposta (202 e um id) é a mesma sendo a placa de um motorista do portal ou não; ' +
      `nada é guardado de uma placa sem a opção ligada. ${partnerAuth}`,
    body: partnerTollRequest,
    response: partnerTollResponse,
  }),
  partnerTollBatch: endpoint({
    method: 'POST',
    path: '/api/parceiro/livre-passagem/lote',
    auth: false,
    summary: `De 1 a 1.000 pedágios sem cancela: {"debitos": [...]}, cada um respondido como a chamada individual. ${partnerAuth}`,
    body: partnerTollBatchRequest,
    response: partnerTollBatchResponse,
  }),
  partnerTollPayments: endpoint({
    method: 'GET',
    path: '/api/parceiro/livre-passagem/pagamentos',
    auth: false,
    summary: `Pedágios desta concessionária pagos pelo portal (desde e ate AAAA-MM-DD pela data do pagamento), 50 por página. ${partnerAuth}`,
    query: partnerTollPaymentsQuery,
    response: partnerTollPaymentsResponse,
  }),
  partnerTollDelete: endpoint({
    method: 'DELETE',
    path: '/api/parceiro/livre-passagem/:externalId',
    auth: false,
    summary: `Concessionária retira um pedágio cobrado por engano ou pago por outro meio; se o portal já o pagou, o valor volta ao motorista uma só vez. ${partnerAuth}`,
    params: partnerTollParams,
    response: envelope,
  }),
  freeFlowTolls: endpoint({
    method: 'GET',
    path: '/api/livre-passagem',
    auth: true,
    capability: 'vehicles',
    summary: 'Pedágios sem cancela das placas do motorista (filtros placa e estado), 10 por página, e o resumo do que está em aberto',
    query: freeFlowTollsQuery,
    response: freeFlowTollsResponse,
  }),
  payFreeFlowToll: endpoint({
    method: 'POST',
    path: '/api/livre-passagem/:id/pagar',
    auth: true,
    capability: 'toll-payment',
    idempotent: true,
    requiresTerms: true,
    summary: 'Paga um pedágio sem cancela com o Saldo (um VPO aberto da viagem do veículo paga primeiro), uma só vez',
    params: freeFlowTollParams,
    response: freeFlowTollResponse,
  }),
  contestFreeFlowToll: endpoint({
    method: 'POST',
    path: '/api/livre-passagem/:id/contestar',
    auth: true,
    capability: 'vehicles',
    idempotent: true,
    summary: 'Contesta um pedágio sem cancela junto à concessionária (motivos TAG_PAGOU, NAO_PASSOU_PORTICO, PLACA_ERRADA)',
    params: freeFlowTollParams,
    body: freeFlowContestRequest,
    response: freeFlowTollResponse,
  }),
  freeFlowTollReceipt: endpoint({
    method: 'GET',
    path: '/api/livre-passagem/:id/comprovante',
    auth: true,
    capability: 'books',
    summary: 'Comprovante (PDF) do pagamento de um pedágio sem cancela',
    params: freeFlowTollParams,
    response: envelope,
    file: pdf,
  }),
  freeFlowTollProof: endpoint({
    method: 'GET',
    path: '/api/livre-passagem/:id/comprovante-recurso',
    auth: true,
    capability: 'vehicles',
    summary: 'Comprovante para recurso (PDF) de um pedágio sem cancela, com código de verificação',
    params: freeFlowTollParams,
    response: envelope,
    file: pdf,
  }),
  passageProof: endpoint({
    method: 'GET',
    path: '/api/passagens/:id/comprovante-recurso',
    auth: true,
    capability: 'vehicles',
    summary: 'Comprovante para recurso (PDF) de uma passagem da tag, com código de verificação',
    params: freeFlowTollParams,
    response: envelope,
    file: pdf,
  }),
  verifyProof: endpoint({
    method: 'GET',
    path: '/api/verificar/:codigo',
    auth: false,
    summary: 'Verificação pública de um comprovante para recurso: os fatos do comprovante (documento mascarado) se o código é autêntico',
    params: proofVerifyParams,
    response: proofVerifyResponse,
  }),
  freeFlowPlates: endpoint({
    method: 'GET',
    path: '/api/livre-passagem/placas',
    auth: true,
    capability: 'vehicles',
    summary: 'As placas do motorista e a escolha de cada uma (pedágio sem cancela ligado, pagamento automático)',
    response: freeFlowPlatesResponse,
  }),
  setFreeFlowPlates: endpoint({
    method: 'POST',
    path: '/api/livre-passagem/placas',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    summary:
      'Liga ou desliga o pedágio sem cancela de um veículo (veiculoId) ou de todos; ao desligar, os débitos em aberto guardados da placa são apagados',
    body: freeFlowPlateRequest,
    response: freeFlowPlatesResponse,
  }),
};
