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
  }),
);
export type PixCharge = z.infer<typeof pixCharge>;

export const purchaseResponse = z.lazy(() => envelope.unwrap().extend({ qrCode: pixCharge }));
export type PurchaseResponse = z.infer<typeof purchaseResponse>;

/** Asaas webhook body (the fields we read; Asaas sends more). */
const providerId = strictText(TEXT_MAX.providerId);
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
  }),
);
export type AsaasWebhook = z.infer<typeof asaasWebhook>;

export const creditApi = {
  createPixCharge: endpoint({
    method: 'POST',
    path: '/api/transacoes/gerar-qrcode',
    auth: true,
    idempotent: true,
    summary: 'Gerar Pix para comprar saldo',
    body: purchaseRequest,
    response: purchaseResponse,
  }),
  pixCharge: endpoint({
    method: 'GET',
    path: '/api/transacoes/qrcode/:id',
    auth: true,
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
};
