import { centsToReais, formatBrl, formatCpfCnpj } from '@portal/domain';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { DEMO_DRIVER } from '../startup/demo-seed.js';

export class CliFailure extends Error {}

type PaymentEvent = 'PAYMENT_RECEIVED' | 'PAYMENT_OVERDUE';

/**
 * Sends the webhook Asaas would send for a local charge to the RUNNING server, so the
 * settlement goes through exactly the path of production (token, lock, idempotent credit).
 */
export async function simulatePixEvent(config: Config, db: Db, chargeId: string | undefined, event: PaymentEvent): Promise<string> {
  if (!chargeId) throw new CliFailure('Informe o id da cobrança (ex.: chg_0123456789abcdef0123).');
  return sendPaymentEvent(config, db, chargeId, event);
}

/**
 * pix:pay without an id (issue 33): the demo driver's newest charge still waiting (not expired), said by
 * its id, so a newcomer pays what the purchase screen shows without looking for it.
 */
export async function payNewestDemoCharge(config: Config, db: Db, now = new Date()): Promise<string> {
  const newest = await db.kysely
    .selectFrom('pix_charges')
    .innerJoin('drivers', 'drivers.id', 'pix_charges.driver_id')
    .select('pix_charges.id')
    .where('drivers.cpf_cnpj', '=', DEMO_DRIVER.cpfCnpj)
    .where('pix_charges.provider', '=', 'local')
    .where('pix_charges.status', '=', 'PENDING')
    .where('pix_charges.expires_at', '>', now.toISOString())
    .orderBy('pix_charges.created_at', 'desc')
    .orderBy('pix_charges.id', 'desc')
    .executeTakeFirst();
  const demo = formatCpfCnpj(DEMO_DRIVER.cpfCnpj);
  if (!newest) {
    throw new CliFailure(
      `Nenhuma cobrança Pix aguardando pagamento do motorista de demonstração (CPF ${demo}): gere uma em "Comprar créditos de pedágio" ou informe o id da cobrança.`,
    );
  }
  const sent = await sendPaymentEvent(config, db, newest.id, 'PAYMENT_RECEIVED');
  return `Sem id: a cobrança aguardando mais recente do motorista de demonstração (CPF ${demo}) é ${newest.id}.\n${sent}`;
}

async function sendPaymentEvent(config: Config, db: Db, chargeId: string, event: PaymentEvent): Promise<string> {
  const charge = await db.kysely
    .selectFrom('pix_charges')
    .select(['id', 'provider', 'provider_charge_id', 'amount_cents', 'status'])
    .where('id', '=', chargeId)
    .executeTakeFirst();
  if (!charge) throw new CliFailure(`Cobrança Pix não encontrada: ${chargeId}`);
  if (charge.provider !== 'local') {
    throw new CliFailure(`A cobrança ${chargeId} é do provedor ${charge.provider}: só cobranças do provedor local podem ser simuladas.`);
  }
  const message = await postWebhook(config, {
    id: `evt_cli_${Date.now()}`,
    event,
    payment: {
      id: charge.provider_charge_id,
      value: centsToReais(Number(charge.amount_cents)),
      externalReference: charge.id,
      billingType: 'PIX',
    },
  });
  return `${event} enviado para a cobrança ${charge.id} (${formatBrl(Number(charge.amount_cents))}): ${message}`;
}

/**
 * Posts one webhook body to the RUNNING server as Asaas would (its token), and answers the server's
 * Mensagem; a refusal or no answer is a CliFailure that says what to do.
 */
export async function postWebhook(config: Config, body: { event: string } & Record<string, unknown>): Promise<string> {
  const url = `${config.serverUrl}/api/webhooks/asaas`;
  const event = body.event;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'asaas-access-token': config.pix.webhookToken },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new CliFailure(`O servidor não respondeu em ${config.serverUrl}. Inicie-o (npm start) ou informe o endereço em SERVER_URL.`);
  }
  const answer = (await res.json().catch(() => null)) as { Mensagem?: unknown } | null;
  const message = typeof answer?.Mensagem === 'string' ? answer.Mensagem : `HTTP ${res.status}`;
  if (!res.ok) throw new CliFailure(`O servidor recusou o evento ${event} (HTTP ${res.status}): ${message}`);
  return message;
}
