import { z } from 'zod';
import { PIX_KEY_TYPES, TEXT_MAX, textError } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, ERROR_CODES, text } from './common.js';
import { confirmPassword } from './payouts.js';

/** spec §7: {description, receiver_document, amount (number), pix {key, type}}. Rules are the domain's. */
export const withdrawalRequest = z.lazy(() =>
  z
    .object({
      description: text(TEXT_MAX.description),
      receiver_document: text(TEXT_MAX.document),
      amount: z.number().catch(Number.NaN),
      pix: z.object({ key: z.string().catch(''), type: z.enum(PIX_KEY_TYPES).or(z.literal('')).catch('') }).catch({ key: '', type: '' }),
      /** Decision 44: the password again, when the key is not saved yet. */
      senha: confirmPassword.optional(),
    })
    .superRefine((value, ctx) => {
      // The key's text rule here: inside pix, the object's catch would swallow it.
      const message = textError(value.pix.key, TEXT_MAX.pixKey);
      if (message) ctx.addIssue({ code: 'custom', path: ['pix', 'key'], message });
    }),
);
export type WithdrawalRequest = z.input<typeof withdrawalRequest>;

export const withdrawalResponse = z.lazy(() =>
  envelope.unwrap().extend({
    withdrawalId: z.string().optional(),
    /** AGUARDANDO_APROVACAO: a company's withdrawal above its threshold waits for a second Gestor (decision 77). */
    status: z.enum(['PROCESSING', 'DONE', 'FAILED', 'AGUARDANDO_APROVACAO']).optional(),
    /** The pending withdrawal's id, while it waits for approval. */
    aprovacaoId: z.number().int().optional(),
    error: z.string().optional(),
  }),
);
export type WithdrawalResponse = z.infer<typeof withdrawalResponse>;

/**
 * spec §2: Sucesso and the refusal's Mensagem. Issue 25: a refusal for the terms also carries their
 * code, so that the screen offers them where the driver is (told by the code, not the words).
 */
export const withdrawalEligibilityResponse = z.lazy(() =>
  envelope.unwrap().extend({ code: z.enum([ERROR_CODES.termsNotAccepted]).optional() }),
);
export type WithdrawalEligibilityResponse = z.infer<typeof withdrawalEligibilityResponse>;

export const withdrawalApi = {
  withdrawalEligibility: endpoint({
    method: 'GET',
    path: '/api/motorista/verificar-saque',
    auth: true,
    capability: 'payout',
    summary: 'O motorista pode sacar agora? (code TERMS_NOT_ACCEPTED quando falta aceitar os termos)',
    response: withdrawalEligibilityResponse,
  }),
  withdraw: endpoint({
    method: 'POST',
    path: '/api/motorista/sacar',
    auth: true,
    capability: 'payout',
    idempotent: true,
    requiresTerms: true,
    summary: 'Sacar saldo para uma chave Pix',
    body: withdrawalRequest,
    response: withdrawalResponse,
  }),
};
