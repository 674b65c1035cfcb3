import { z } from 'zod';
import { CLOSURE_BLOCKERS, closureRequestErrors, TEXT_MAX } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, isoDateTime, passwordText, refineWith } from './common.js';

/** Issue 35, decision 70: one thing that keeps the account from being closed, and how to clear it. */
export const closureBlocker = z.lazy(() =>
  z.object({
    motivo: z.enum(CLOSURE_BLOCKERS),
    /** 'Saque o saldo de R$ 12,40 antes de encerrar.' */
    mensagem: z.string(),
  }),
);
export type ClosureBlocker = z.infer<typeof closureBlocker>;

export const closureStatusResponse = z.lazy(() =>
  envelope.unwrap().extend({
    Encerramento: z.object({
      podeEncerrar: z.boolean(),
      /** Every reason, in the order the screen shows them; empty when the account can be closed. */
      pendencias: z.array(closureBlocker),
    }),
  }),
);
export type ClosureStatusResponse = z.infer<typeof closureStatusResponse>;

/**
 * The password and a ticked confirmation: a checkbox, not a word to type (a phone's keyboard makes
 * typing 'ENCERRAR' an exercise in capitals; the box's sentence says what happens, and the password
 * already proves who asks). Anything but `true` is refused on the field.
 */
export const closureRequest = z.lazy(() =>
  z.object({ senha: passwordText(TEXT_MAX.password), confirmacao: z.boolean().catch(false) }).superRefine(refineWith(closureRequestErrors)),
);
export type ClosureRequest = z.input<typeof closureRequest>;

export const closureResponse = z.lazy(() =>
  envelope.unwrap().extend({
    Comprovante: z.object({
      /** GET it without a session (the closing ended every session) until expiraEm. */
      url: z.string(),
      expiraEm: isoDateTime,
    }),
  }),
);
export type ClosureResponse = z.infer<typeof closureResponse>;

export const closureReceiptParams = z.lazy(() => z.object({ token: z.string().catch('') }));

export const accountClosureApi = {
  accountClosure: endpoint({
    method: 'GET',
    path: '/api/motorista/encerramento',
    auth: true,
    capability: 'self',
    summary: 'O que impede o encerramento da conta, e como resolver',
    response: closureStatusResponse,
  }),
  closeAccount: endpoint({
    method: 'POST',
    path: '/api/motorista/encerramento',
    auth: true,
    capability: 'self',
    summary: 'Encerrar a conta (a senha e a confirmação); todas as sessões terminam',
    body: closureRequest,
    response: closureResponse,
  }),
  closureReceipt: endpoint({
    method: 'GET',
    path: '/api/encerramento/comprovante/:token',
    auth: false,
    summary: 'O comprovante de encerramento em PDF, pelo link de uso curto que o encerramento devolve',
    params: closureReceiptParams,
    response: envelope,
    file: { contentTypes: ['application/pdf'] },
  }),
};
