import { api } from '@portal/contract';
import { messages, purchaseAmountError, reaisToCents, stripDocument } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { fieldError, forbidden } from '../../http/errors.js';
import { driverRoute, publicRoute } from '../../http/route.js';
import type { ChargeService } from './charges.js';
import { chargeView } from './charges.js';
import type { AsaasWebhookHandler } from './webhook.js';
import { requireWebhookToken } from './webhook-auth.js';

/** NaN (absent or not a number) -> 0, which asks for a value; more than 2 decimals -> null. */
function toCents(reais: number): number | null {
  if (Number.isNaN(reais)) return 0;
  try {
    return reaisToCents(reais);
  } catch {
    return null;
  }
}

export function pixRoutes(app: FastifyInstance, charges: ChargeService, webhook: AsaasWebhookHandler, webhookToken: string): void {
  driverRoute(app, api.createPixCharge, async ({ driver, body }) => {
    const cents = toCents(body.valor);
    const amountError = purchaseAmountError(cents);
    if (amountError || cents === null) throw fieldError('valor', amountError ?? messages.purchase.belowMinimum);
    if (stripDocument(body.cpfCnpj) !== driver.cpfCnpj) throw forbidden(messages.pix.notYourDocument);
    const row = await charges.create(driver.id, cents);
    return { Sucesso: true, Mensagem: messages.pix.chargeCreated, qrCode: chargeView(row) };
  });

  driverRoute(app, api.pixCharge, async ({ driver, params }) => {
    const row = await charges.forDriver(driver.id, params.id);
    return { Sucesso: true, Mensagem: messages.pix.chargeStatus[row.status], qrCode: chargeView(row) };
  });

  publicRoute(
    app,
    api.asaasWebhook,
    async ({ body }) => ({ Sucesso: true, Mensagem: await webhook.handle(body) }),
    { onRequest: requireWebhookToken(webhookToken) },
  );
}
