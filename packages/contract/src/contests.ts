import { z } from 'zod';
import {
  CONTEST_ANSWER_TEXT_MAX,
  CONTEST_DECISIONS,
  ALL_CONTEST_REASONS,
  CONTEST_REASONS,
  CONTEST_STATES,
  CONTEST_TEXT_MAX,
  MAX_PASSAGE_CENTS,
  REFUND_DESTINATIONS,
  contestMessages,
  isReaisAmount,
} from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, idParam, isoDateTime, pageQuery, pagination, text } from './common.js';
import { reais } from './balance.js';

/** The passage a contest is about, as the driver and the operator both read it. */
export const contestedPassage = z.lazy(() =>
  z.object({
    id: z.number().int(),
    externalId: z.string(),
    /** The tag's serial; null for a free-flow toll (decision 76), read by plate. */
    serialNumber: z.string().nullable(),
    /** Decision 76: a free-flow toll rather than a tag's passage (its id is the toll's). */
    pedagioSemCancela: z.boolean(),
    placa: z.string().nullable(),
    praca: z.string(),
    valor: reais,
    dataPassagem: isoDateTime,
    /** Decision 56: flagged on arrival as a possible double charge of an earlier passage. */
    possivelDuplicada: z.boolean(),
  }),
);

/** Decision 56: one contest, its passage, its reason, its state and the operator's answer. */
export const contest = z.lazy(() =>
  z.object({
    id: z.number().int(),
    passagem: contestedPassage,
    motivo: z.enum(ALL_CONTEST_REASONS),
    descricao: z.string().nullable(),
    estado: z.enum(CONTEST_STATES),
    /** Open past its due date: the operator did not answer in time. */
    atrasada: z.boolean(),
    abertaEm: isoDateTime,
    prazoResposta: isoDateTime,
    respondidaEm: isoDateTime.nullable(),
    resposta: z.string().nullable(),
    valorDevolvido: reais.nullable(),
  }),
);
export type Contest = z.infer<typeof contest>;

/** Issue 33: one part of an accepted contest's refund: where it went (a VPO's or the shipper's name) and how much. */
export const contestRefundPart = z.lazy(() =>
  z.object({ destino: z.enum(REFUND_DESTINATIONS), embarcador: z.string().nullable(), valor: reais }),
);
export type ContestRefundPart = z.infer<typeof contestRefundPart>;

/**
 * The driver's contest: the operator's view and where the refund went, part by part (Saldo, a VPO
 * of a shipper, the shipper itself); empty when nothing was given back. Operators do not read it.
 */
export const driverContest = z.lazy(() => contest.unwrap().extend({ devolucoes: z.array(contestRefundPart) }));
export type DriverContest = z.infer<typeof driverContest>;

/**
 * What a statement row or a VPO's passage says of its passage (decision 56): whether it can be
 * contested now, whether it looks like a double charge, and its newest contest.
 */
export const passageContestInfo = z.lazy(() =>
  z.object({
    id: z.number().int(),
    possivelDuplicada: z.boolean(),
    contestavel: z.boolean(),
    contestacao: z.object({ id: z.number().int(), estado: z.enum(CONTEST_STATES), atrasada: z.boolean() }).nullable(),
  }),
);
export type PassageContestInfo = z.infer<typeof passageContestInfo>;

export const openContestRequest = z.lazy(() =>
  z
    .object({
      passagemId: z.number().int().min(1).catch(0),
      motivo: z.enum(CONTEST_REASONS, { error: () => contestMessages.reasonInvalid }),
      descricao: text(CONTEST_TEXT_MAX)
        .optional()
        .transform((v) => (v === undefined || v.trim() === '' ? null : v.trim())),
    })
    .superRefine((value, ctx) => {
      if (value.passagemId === 0) ctx.addIssue({ code: 'custom', path: ['passagemId'], message: contestMessages.passageNotFound });
      if (value.motivo === 'OUTRO' && value.descricao === null)
        ctx.addIssue({ code: 'custom', path: ['descricao'], message: contestMessages.textRequired });
    }),
);
export type OpenContestRequest = z.input<typeof openContestRequest>;
export type OpenContest = z.output<typeof openContestRequest>;

export const contestResponse = z.lazy(() => envelope.unwrap().extend({ Contestacao: contest }));
export type ContestResponse = z.infer<typeof contestResponse>;

export const contestsResponse = z.lazy(() => envelope.unwrap().extend({ Contestacoes: z.array(contest), Paginacao: pagination }));
export type ContestsResponse = z.infer<typeof contestsResponse>;

export const driverContestResponse = z.lazy(() => envelope.unwrap().extend({ Contestacao: driverContest }));
export type DriverContestResponse = z.infer<typeof driverContestResponse>;

export const driverContestsResponse = z.lazy(() =>
  envelope.unwrap().extend({ Contestacoes: z.array(driverContest), Paginacao: pagination }),
);
export type DriverContestsResponse = z.infer<typeof driverContestsResponse>;

const optionalParam = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const driverContestsQuery = z.lazy(() =>
  pageQuery.unwrap().extend({ estado: optionalParam(z.enum(CONTEST_STATES, { error: () => contestMessages.stateInvalid })) }),
);

/** The operator's list: by state and by the date the contest was opened (YYYY-MM-DD, São Paulo). */
export const partnerContestsQuery = z.lazy(() =>
  pageQuery.unwrap().extend({
    estado: optionalParam(z.enum(CONTEST_STATES, { error: () => contestMessages.stateInvalid })),
    desde: optionalParam(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, contestMessages.dayInvalid)),
    ate: optionalParam(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, contestMessages.dayInvalid)),
  }),
);
export type PartnerContestsQuery = z.infer<typeof partnerContestsQuery>;

export const contestAnswerRequest = z.lazy(() =>
  z
    .object({
      decisao: z.enum(CONTEST_DECISIONS, { error: () => contestMessages.decisionInvalid }),
      valor: z
        .number({ error: () => contestMessages.refundMissing })
        .refine((v) => v > 0 && v * 100 <= MAX_PASSAGE_CENTS && isReaisAmount(v), contestMessages.refundMissing)
        .optional(),
      motivo: text(CONTEST_ANSWER_TEXT_MAX)
        .transform((v) => v.trim())
        .refine((v) => v.length > 0, contestMessages.answerReasonRequired),
    })
    .superRefine((value, ctx) => {
      if (value.decisao === 'RECUSADA' && value.valor !== undefined)
        ctx.addIssue({ code: 'custom', path: ['valor'], message: contestMessages.refundOnRefusal });
    }),
);
export type ContestAnswerRequest = z.input<typeof contestAnswerRequest>;
export type ContestAnswer = z.output<typeof contestAnswerRequest>;

const contestIdParams = z.lazy(() => z.object({ id: idParam }));

const partnerAuth = 'Autenticação do parceiro pelo cabeçalho X-Api-Key (não usa o token do motorista).';

export const contestsApi = {
  openContest: endpoint({
    method: 'POST',
    path: '/api/motorista/contestacoes',
    auth: true,
    capability: 'vehicles',
    idempotent: true,
    summary: 'Contestar uma passagem (motivo e, em "Outro", a descrição); uma contestação em análise por passagem, até 90 dias da passagem',
    body: openContestRequest,
    response: driverContestResponse,
  }),
  driverContests: endpoint({
    method: 'GET',
    path: '/api/motorista/contestacoes',
    auth: true,
    capability: 'vehicles',
    summary: 'As contestações do motorista, mais recentes primeiro, 10 por página, com o estado e a resposta da operadora',
    query: driverContestsQuery,
    response: driverContestsResponse,
  }),
  driverContestPdf: endpoint({
    method: 'GET',
    path: '/api/motorista/contestacoes/:id/pdf',
    auth: true,
    capability: 'vehicles',
    summary: 'O registro da contestação em PDF: passagem, motivo, datas e resposta',
    params: contestIdParams,
    response: envelope,
    file: { contentTypes: ['application/pdf'] },
  }),
  partnerContests: endpoint({
    method: 'GET',
    path: '/api/parceiro/contestacoes',
    auth: false,
    summary: `Operadora lista as contestações das passagens das suas tags (estado ABERTA|ACEITA|RECUSADA, desde e ate AAAA-MM-DD pela data de abertura), 50 por página. ${partnerAuth}`,
    query: partnerContestsQuery,
    response: contestsResponse,
  }),
  partnerAnswerContest: endpoint({
    method: 'POST',
    path: '/api/parceiro/contestacoes/:id/resposta',
    auth: false,
    summary: `Operadora responde uma contestação: ACEITA com o valor devolvido (o todo ou parte) e o motivo, ou RECUSADA com o motivo que o motorista lê. A devolução entra uma só vez, na conta que pagou a passagem. ${partnerAuth}`,
    params: contestIdParams,
    body: contestAnswerRequest,
    response: contestResponse,
  }),
};
