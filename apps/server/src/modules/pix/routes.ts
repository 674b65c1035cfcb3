import { api } from '@portal/contract';
import { messages, purchaseValueError, reaisToCents, refuse, serverMessages, stripDocument } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute, publicRoute } from '../../http/route.js';
import type { ChargeService } from './charges.js';
import { chargeView } from './charges.js';
import type { AsaasWebhookHandler } from './webhook.js';
import { requireWebhookToken } from './webhook-auth.js';

/**
 * Decision 61: a development server tells the purchase screen the command that pays a local charge; any
 * other server (tests, production, a demonstration) sends the charge alone.
 */
function chargeAnswer(row: Parameters<typeof chargeView>[0], development: boolean) {
  const view = chargeView(row);
  return development && row.provider === 'local' ? { ...view, pagarNoTerminal: `npm run cli -- pix:pay ${row.id}` } : view;
}

export function pixRoutes(
  app: FastifyInstance,
  charges: ChargeService,
  webhook: AsaasWebhookHandler,
  webhookToken: string,
  development = false,
): void {
  driverRoute(app, api.createPixCharge, async ({ driver, body }) => {
    // NaN (absent or not a number) asks for a value; too large or fractions of a centavo name the value.
    const amountError = purchaseValueError(body.valor);
    if (amountError) throw refuse.invalid(amountError, 'valor');
    if (stripDocument(body.cpfCnpj) !== driver.cpfCnpj) throw refuse.forbidden(serverMessages.pix.notYourDocument);
    const row = await charges.create(driver.id, reaisToCents(body.valor));
    return { Sucesso: true, Mensagem: serverMessages.pix.chargeCreated, qrCode: chargeAnswer(row, development) };
  });

  driverRoute(app, api.pixCharge, async ({ driver, params }) => {
    const row = await charges.forDriver(driver.id, params.id);
    return { Sucesso: true, Mensagem: messages.pix.chargeStatus[row.status], qrCode: chargeAnswer(row, development) };
  });

  publicRoute(app, api.asaasWebhook, async ({ body }) => ({ Sucesso: true, Mensagem: await webhook.handle(body) }), {
    onRequest: requireWebhookToken(webhookToken),
  });
}
