import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { envelope, isoDateTime } from './common.js';

export const chargeStatus = z.enum(['PENDING', 'RECEIVED', 'OVERDUE', 'REFUNDED']);
export type ChargeStatus = z.infer<typeof chargeStatus>;

/** Reais with at most 2 decimals; the rules (minimum, maximum) are the domain's, checked by the server. */
export const purchaseRequest = z.object({
  /** Not a number (or absent) reads as NaN: the server answers the domain's 'digite o valor' message. */
  valor: z.number().catch(Number.NaN),
  cpfCnpj: z.string(),
  project: z.literal('VPO'),
});
export type PurchaseRequest = z.input<typeof purchaseRequest>;

export const pixCharge = z.object({
  id: z.string(),
  payload: z.string().describe('Pix "copia e cola" (BR Code)'),
  valor: z.number(),
  status: chargeStatus,
  expiresAt: isoDateTime,
  createdAt: isoDateTime,
});
export type PixCharge = z.infer<typeof pixCharge>;

export const purchaseResponse = envelope.extend({ qrCode: pixCharge });
export type PurchaseResponse = z.infer<typeof purchaseResponse>;

/** Asaas webhook body (the fields we read; Asaas sends more). */
export const asaasWebhook = z.object({
  id: z.string().optional(),
  event: z.string(),
  payment: z
    .object({
      id: z.string(),
      value: z.number(),
      externalReference: z.string().nullish(),
      status: z.string().optional(),
    })
    .optional(),
  transfer: z
    .object({
      id: z.string(),
      value: z.number().optional(),
      status: z.string().optional(),
      failReason: z.string().nullish(),
      externalReference: z.string().nullish(),
    })
    .optional(),
});
export type AsaasWebhook = z.infer<typeof asaasWebhook>;

export const creditApi = {
  createPixCharge: endpoint({
    method: 'POST',
    path: '/api/transacoes/gerar-qrcode',
    auth: true,
    summary: 'Gerar Pix para comprar saldo',
    body: purchaseRequest,
    response: purchaseResponse,
  }),
  pixCharge: endpoint({
    method: 'GET',
    path: '/api/transacoes/qrcode/:id',
    auth: true,
    summary: 'Situação de uma cobrança Pix do motorista',
    params: z.object({ id: z.string().min(1).max(64) }),
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
