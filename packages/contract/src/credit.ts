import { z } from 'zod';
import { cleanText, TEXT_MAX } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, isoDateTime, strictText } from './common.js';

export const chargeStatus = z.lazy(() => z.enum(['PENDING', 'RECEIVED', 'OVERDUE', 'REFUNDED']));
export type ChargeStatus = z.infer<typeof chargeStatus>;

/** Reais with at most 2 decimals; the rules (minimum, maximum) are the domain's, checked by the server. */
export const purchaseRequest = z.lazy(() =>
  z.object({
    /** Not a number (or absent) reads as NaN: the server answers the domain's 'digite o valor' message. */
    valor: z.number().catch(Number.NaN),
    cpfCnpj: strictText(TEXT_MAX.document),
    project: z.literal('VPO'),
  }),
);
export type PurchaseRequest = z.input<typeof purchaseRequest>;

export const pixCharge = z.lazy(() =>
  z.object({
    id: z.string(),
    payload: z.string().describe('Pix "copia e cola" (BR Code)'),
    valor: z.number(),
    status: chargeStatus,
    expiresAt: isoDateTime,
    createdAt: isoDateTime,
    /** Decision 61: only a development server sends it, for a charge of its local provider; production never. */
    pagarNoTerminal: z
      .string()
      .optional()
      .describe('Só num servidor de desenvolvimento: o comando que paga este Pix do provedor local, para colar no terminal'),
  }),
);
export type PixCharge = z.infer<typeof pixCharge>;

export const purchaseResponse = z.lazy(() => envelope.unwrap().extend({ qrCode: pixCharge }));
export type PurchaseResponse = z.infer<typeof purchaseResponse>;

/** Asaas webhook body (the fields we read; Asaas sends more). */
const providerId = z.lazy(() => strictText(TEXT_MAX.providerId));
export const asaasWebhook = z.lazy(() =>
  z.object({
    id: providerId.optional(),
    event: strictText(TEXT_MAX.event),
    payment: z
      .object({
        id: providerId,
        value: z.number(),
        externalReference: providerId.nullish(),
        status: strictText(TEXT_MAX.event).optional(),
        deleted: z.boolean().optional(),
        /** Decision 58: the first Pix of a Pix Automático authorization carries its QR Code's conciliationIdentifier. */
        pixQrCodeId: providerId.nullish(),
        pixAutomaticAuthorizationId: providerId.nullish(),
        /** Refunds carried out so far (PAYMENT_PARTIALLY_REFUNDED); Asaas sends null when none. */
        refunds: z
          .array(z.object({ value: z.number(), status: strictText(TEXT_MAX.event).optional() }))
          .max(100)
          .nullish(),
      })
      .optional(),
    transfer: z
      .object({
        id: providerId,
        value: z.number().optional(),
        status: strictText(TEXT_MAX.event).optional(),
        /**
         * The provider's own words, kept and shown to the driver: cleaned, never refused (refusing
         * would leave a failed payout's money held until someone resolves it by hand).
         */
        failReason: z
          .string()
          .transform((v) => cleanText(v, TEXT_MAX.reason))
          .nullish(),
        externalReference: providerId.nullish(),
      })
      .optional(),
    /** Decision 58: PIX_AUTOMATIC_RECURRING_AUTHORIZATION_* (Asaas's authorization object; the fields we read). */
    authorization: z
      .object({
        id: providerId,
        status: strictText(TEXT_MAX.event).nullish(),
        contractId: providerId.nullish(),
        value: z.number().nullish(),
      })
      .optional(),
    /** Decision 58: PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_* (a cycle's debit at the payer's bank). */
    paymentInstruction: z
      .object({
        id: providerId,
        status: strictText(TEXT_MAX.event).nullish(),
        paymentId: providerId.nullish(),
        dueDate: strictText(TEXT_MAX.event).nullish(),
        authorization: z.object({ id: providerId }).nullish(),
        /** The bank's words, kept for the driver: cleaned, never refused. */
        refusalReason: z
          .string()
          .transform((v) => cleanText(v, TEXT_MAX.reason))
          .nullish(),
      })
      .optional(),
  }),
);
export type AsaasWebhook = z.infer<typeof asaasWebhook>;

/**
 * Asaas's transfer validation ("Mecanismo para validação de saque via webhooks"): about 5 s after a
 * transfer is created Asaas posts it here and waits for APPROVED or REFUSED. The fields we compare;
 * Asaas sends the whole transfer object (its holder's name and document are dropped here). Other
 * kinds of cash-out (type PIX_REFUND, BILL, PIX_QR_CODE, ...) carry no transfer and are refused.
 */
export const transferValidationRequest = z.lazy(() =>
  z.object({
    type: strictText(TEXT_MAX.event),
    transfer: z
      .object({
        id: providerId,
        value: z.number(),
        status: strictText(TEXT_MAX.event).nullish(),
        externalReference: providerId.nullish(),
        operationType: strictText(TEXT_MAX.event).nullish(),
        pixAddressKey: strictText(TEXT_MAX.pixKey).nullish(),
        pixAddressKeyType: strictText(TEXT_MAX.event).nullish(),
        bankAccount: z.object({ pixAddressKey: strictText(TEXT_MAX.pixKey).nullish() }).nullish(),
      })
      .nullish(),
  }),
);
export type TransferValidationRequest = z.infer<typeof transferValidationRequest>;

/** Asaas's expected answer: APPROVED, or REFUSED with the reason it shows in its panel. */
export const transferValidationAnswer = z.lazy(() =>
  z.object({
    status: z.enum(['APPROVED', 'REFUSED']),
    refuseReason: z.string().optional(),
  }),
);
export type TransferValidationAnswer = z.infer<typeof transferValidationAnswer>;

export const creditApi = {
  createPixCharge: endpoint({
    method: 'POST',
    path: '/api/transacoes/gerar-qrcode',
    auth: true,
    capability: 'credit',
    idempotent: true,
    requiresTerms: true,
    summary: 'Gerar Pix para comprar saldo',
    body: purchaseRequest,
    response: purchaseResponse,
  }),
  pixCharge: endpoint({
    method: 'GET',
    path: '/api/transacoes/qrcode/:id',
    auth: true,
    capability: 'credit',
    summary: 'Situação de uma cobrança Pix do motorista',
    params: z.lazy(() => z.object({ id: strictText(TEXT_MAX.providerId) })),
    response: purchaseResponse,
  }),
  asaasWebhook: endpoint({
    method: 'POST',
    path: '/api/webhooks/asaas',
    auth: false,
    summary: 'Webhook do Asaas (cabeçalho asaas-access-token)',
    body: asaasWebhook,
    response: envelope,
  }),
  asaasTransferValidation: endpoint({
    method: 'POST',
    path: '/api/webhooks/asaas/validacao-saque',
    auth: false,
    summary: 'Validação de saque do Asaas: aprova só transferências criadas pelo portal (cabeçalho asaas-access-token)',
    body: transferValidationRequest,
    response: transferValidationAnswer,
  }),
};
