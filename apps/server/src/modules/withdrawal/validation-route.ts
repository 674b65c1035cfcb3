import { api } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { publicRoute } from '../../http/route.js';
import { requireWebhookToken } from '../pix/webhook-auth.js';
import type { TransferValidator } from './validation.js';

/**
 * POST /api/webhooks/asaas/validacao-saque, with its own asaas-access-token (checked before the
 * body is read). Every well-formed, authenticated request is answered 200 with APPROVED or REFUSED:
 * an error answer is a failed attempt, and after three Asaas cancels the transfer anyway.
 */
export function transferValidationRoute(app: FastifyInstance, validator: TransferValidator, token: string): void {
  publicRoute(app, api.asaasTransferValidation, async ({ body }) => validator.validate(body), { onRequest: requireWebhookToken(token) });
}
