import { z } from 'zod';
import {
  isPixKeyType,
  isValidPixKey,
  messages,
  PAYOUT_LIMIT_KINDS,
  PIX_KEY_TYPES,
  payoutLimitValueError,
  payoutMessages,
  TEXT_MAX,
} from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, idParam, isoDateTime, text } from './common.js';
import { reais } from './balance.js';

/** The password that confirms a new Pix key: checked against the driver's, never stored or logged. */
export const confirmPassword = z.lazy(() => z.string().max(TEXT_MAX.password).catch(''));

/** A saved Pix key (decision 44). `propria`: the driver's own CPF/CNPJ, always trusted, never removed. */
export const savedPixKey = z.lazy(() =>
  z.object({
    id: z.number().int().nullable(),
    tipo: z.enum(PIX_KEY_TYPES),
    chave: z.string(),
    propria: z.boolean(),
    salvaEm: isoDateTime.nullable(),
    /** Until when the key is in its first hours (capped); null once past them, or for the driver's own. */
    limitadaAte: isoDateTime.nullable(),
    /** What it may still receive until limitadaAte. */
    restanteLimitada: reais.nullable(),
  }),
);
export type SavedPixKey = z.infer<typeof savedPixKey>;

export const pixKeysResponse = z.lazy(() => envelope.unwrap().extend({ Chaves: z.array(savedPixKey) }));
export type PixKeysResponse = z.infer<typeof pixKeysResponse>;

export const savePixKeyRequest = z.lazy(() =>
  z
    .object({
      tipo: z.enum(PIX_KEY_TYPES).or(z.literal('')).catch(''),
      chave: text(TEXT_MAX.pixKey),
      senha: confirmPassword,
    })
    .superRefine((value, ctx) => {
      if (!isPixKeyType(value.tipo)) ctx.addIssue({ code: 'custom', path: ['tipo'], message: messages.withdrawal.keyTypeRequired });
      else if (value.chave.trim() === '') ctx.addIssue({ code: 'custom', path: ['chave'], message: messages.withdrawal.keyRequired });
      else if (!isValidPixKey(value.tipo, value.chave))
        ctx.addIssue({ code: 'custom', path: ['chave'], message: messages.withdrawal.keyInvalid });
      if (value.senha === '') ctx.addIssue({ code: 'custom', path: ['senha'], message: payoutMessages.passwordRequired });
    }),
);
export type SavePixKeyRequest = z.input<typeof savePixKeyRequest>;

export const savePixKeyResponse = z.lazy(() => envelope.unwrap().extend({ Chave: savedPixKey }));

const limitValue = z.lazy(() => z.object({ valor: reais, pendente: z.object({ valor: reais, vigenteEm: isoDateTime }).nullable() }));

export const payoutLimits = z.lazy(() =>
  z.object({
    porSaque: limitValue,
    diario: limitValue,
    noturno: limitValue,
    /** Sent today and in the current night period (0 in the daytime). */
    usadoHoje: reais,
    usadoNestaNoite: reais,
  }),
);
export type PayoutLimits = z.infer<typeof payoutLimits>;

export const payoutLimitsResponse = z.lazy(() => envelope.unwrap().extend({ Limites: payoutLimits }));
export type PayoutLimitsResponse = z.infer<typeof payoutLimitsResponse>;

/** The wire's names for the domain's limit kinds. */
export const PAYOUT_LIMIT_FIELDS = { perWithdrawal: 'porSaque', daily: 'diario', night: 'noturno' } as const;

const limitReais = z.lazy(() => z.number().catch(Number.NaN));

export const payoutLimitsRequest = z.lazy(() =>
  z.object({ porSaque: limitReais, diario: limitReais, noturno: limitReais }).superRefine((value, ctx) => {
    for (const kind of PAYOUT_LIMIT_KINDS) {
      const field = PAYOUT_LIMIT_FIELDS[kind];
      const reaisValue = value[field];
      const cents =
        Number.isFinite(reaisValue) && Math.abs(Math.round(reaisValue * 100) - reaisValue * 100) < 1e-6
          ? Math.round(reaisValue * 100)
          : null;
      const message = payoutLimitValueError(kind, cents);
      if (message) ctx.addIssue({ code: 'custom', path: [field], message });
    }
  }),
);
export type PayoutLimitsRequest = z.input<typeof payoutLimitsRequest>;

export const payoutsApi = {
  pixKeys: endpoint({
    method: 'GET',
    path: '/api/motorista/chaves-pix',
    auth: true,
    capability: 'payout',
    summary: 'Minhas chaves Pix: as chaves salvas para saque (a do próprio CPF/CNPJ sempre incluída)',
    response: pixKeysResponse,
  }),
  savePixKey: endpoint({
    method: 'POST',
    path: '/api/motorista/chaves-pix',
    auth: true,
    capability: 'payout',
    idempotent: true,
    summary: 'Salvar uma chave Pix para saque (exige a senha; nas primeiras 24 horas recebe até R$ 500,00)',
    body: savePixKeyRequest,
    response: savePixKeyResponse,
  }),
  removePixKey: endpoint({
    method: 'DELETE',
    path: '/api/motorista/chaves-pix/:id',
    auth: true,
    capability: 'payout',
    idempotent: true,
    summary: 'Remover uma chave Pix salva',
    params: z.lazy(() => z.object({ id: idParam })),
    response: envelope,
  }),
  payoutLimits: endpoint({
    method: 'GET',
    path: '/api/motorista/limites-saque',
    auth: true,
    capability: 'limits',
    summary: 'Limites de saque Pix: por saque, diário e noturno (20h às 6h), com aumentos aguardando vigência',
    response: payoutLimitsResponse,
  }),
  updatePayoutLimits: endpoint({
    method: 'POST',
    path: '/api/motorista/limites-saque',
    auth: true,
    capability: 'limits',
    idempotent: true,
    summary: 'Mudar os limites de saque: reduções valem na hora, aumentos 24 horas depois',
    body: payoutLimitsRequest,
    response: payoutLimitsResponse,
  }),
};
