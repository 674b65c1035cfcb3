import { z } from 'zod';
import {
  PIX_AUTOMATIC_CYCLE_STATES,
  PIX_AUTOMATIC_FREQUENCIES,
  PIX_AUTOMATIC_STATES,
  pixAutomaticMessages,
  TEXT_MAX,
} from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, isoDateTime, strictText } from './common.js';
import { reais } from './balance.js';

/** A São Paulo calendar day, 'YYYY-MM-DD'. */
const calendarDay = z.lazy(() => z.string().describe('AAAA-MM-DD (dia de São Paulo)'));

export const pixAutomaticFrequency = z.lazy(() => z.enum(PIX_AUTOMATIC_FREQUENCIES));
export const pixAutomaticState = z.lazy(() => z.enum(PIX_AUTOMATIC_STATES));

/** One cycle's debit (the first is the QR Code's Pix, paid when the driver authorized). */
export const pixAutomaticCycle = z.lazy(() =>
  z.object({
    /** The Pix charge's id: a paid cycle's receipt is the purchase receipt of this id (/comprovantes/compra/:id). */
    id: z.string(),
    numero: z.number().int(),
    valor: reais,
    dataDebito: calendarDay,
    estado: z.enum(PIX_AUTOMATIC_CYCLE_STATES),
    /** Why it was not debited, in the bank's or the portal's words; null otherwise. */
    motivo: z.string().nullable(),
  }),
);
export type PixAutomaticCycle = z.infer<typeof pixAutomaticCycle>;

/** Decision 58: the driver's recurring top-up, its state, its next debit and its last cycles. */
export const pixAutomaticAuthorization = z.lazy(() =>
  z.object({
    id: z.string(),
    estado: pixAutomaticState,
    frequencia: pixAutomaticFrequency,
    valor: reais,
    /** While it waits for authorization: the first Pix, whose QR Code also carries the consent. */
    qrCode: z.object({ payload: z.string().describe('Pix "copia e cola" (BR Code)'), expiraEm: isoDateTime }).nullable(),
    /** While active: the next debit's day and value; `agendado` once its instruction reached the bank. */
    proximoDebito: z.object({ data: calendarDay, valor: reais, agendado: z.boolean() }).nullable(),
    criadaEm: isoDateTime,
    ativadaEm: isoDateTime.unwrap().nullable(),
    encerradaEm: isoDateTime.unwrap().nullable(),
    /** Why it ended (cancelled here or in the bank app, refused, expired...), in words; null while it lasts. */
    motivoEncerramento: z.string().nullable(),
    /** The newest cycles first. */
    ciclos: z.array(pixAutomaticCycle),
  }),
);
export type PixAutomaticAuthorization = z.infer<typeof pixAutomaticAuthorization>;

/** Reais with at most 2 decimals; not a number (or absent) reads as NaN, which the domain's rule names. */
const topUpValue = () => z.number().catch(Number.NaN);

export const pixAutomaticRequest = z.lazy(() =>
  z.object({
    valor: topUpValue(),
    frequencia: z.enum(PIX_AUTOMATIC_FREQUENCIES, { error: () => pixAutomaticMessages.frequencyRequired }),
  }),
);
export type PixAutomaticRequest = z.input<typeof pixAutomaticRequest>;

export const pixAutomaticValueRequest = z.lazy(() => z.object({ valor: topUpValue() }));
export type PixAutomaticValueRequest = z.input<typeof pixAutomaticValueRequest>;

export const pixAutomaticResponse = z.lazy(() =>
  envelope.unwrap().extend({
    /** The authorization waiting or active, else the last one that ended; null: never had one. */
    RecargaAutomatica: pixAutomaticAuthorization.nullable(),
    /** False while the portal's Pix provider does not offer Pix Automático (Asaas enables it on request). */
    Disponivel: z.boolean(),
  }),
);
export type PixAutomaticResponse = z.infer<typeof pixAutomaticResponse>;

const authorizationParams = z.lazy(() => z.object({ id: strictText(TEXT_MAX.providerId) }));

export const pixAutomaticApi = {
  pixAutomatic: endpoint({
    method: 'GET',
    path: '/api/motorista/pix-automatico',
    auth: true,
    capability: 'credit',
    summary: 'A recarga automática por Pix do motorista: estado, QR Code a pagar, próximo débito e últimos ciclos',
    response: pixAutomaticResponse,
  }),
  createPixAutomatic: endpoint({
    method: 'POST',
    path: '/api/motorista/pix-automatico',
    auth: true,
    capability: 'credit',
    idempotent: true,
    requiresTerms: true,
    summary:
      'Criar a recarga automática (valor e frequência SEMANAL ou MENSAL): devolve o QR Code do primeiro Pix, que também autoriza os débitos; uma aguardando autorização é substituída',
    body: pixAutomaticRequest,
    response: pixAutomaticResponse,
  }),
  changePixAutomaticValue: endpoint({
    method: 'POST',
    path: '/api/motorista/pix-automatico/:id/valor',
    auth: true,
    capability: 'credit',
    idempotent: true,
    requiresTerms: true,
    summary: 'Mudar o valor: a autorização atual é cancelada e uma nova é criada, com o QR Code do novo valor a pagar',
    params: authorizationParams,
    body: pixAutomaticValueRequest,
    response: pixAutomaticResponse,
  }),
  cancelPixAutomatic: endpoint({
    method: 'POST',
    path: '/api/motorista/pix-automatico/:id/cancelar',
    auth: true,
    capability: 'credit',
    idempotent: true,
    summary: 'Cancelar a recarga automática (também pode ser cancelada no app do banco)',
    params: authorizationParams,
    response: pixAutomaticResponse,
  }),
};
