import { centsToReais, formatBrl, formatCalendarDay, pixAutomaticStateLabels, stripDocument } from '@portal/domain';
import { localFirstPaymentId } from '../adapters/pix/local.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import type { PixAutomaticRow, PixAutomaticStatus } from '../db/schema.js';
import { createLogger } from '../logger.js';
import { createServices } from '../services.js';
import { parseFlags } from './partners.js';
import { CliFailure, postWebhook } from './pix.js';

/** The bank's words when pix:auto:refuse is not given --motivo. */
const DEFAULT_REFUSAL = 'Saldo insuficiente na conta do pagador';

const STATE_LABEL: Record<PixAutomaticStatus, string> = {
  CREATED: pixAutomaticStateLabels.AGUARDANDO,
  ACTIVE: pixAutomaticStateLabels.ATIVA,
  REFUSED: pixAutomaticStateLabels.RECUSADA,
  CANCELLED: pixAutomaticStateLabels.CANCELADA,
  EXPIRED: pixAutomaticStateLabels.EXPIRADA,
};

const eventId = () => `evt_cli_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;

/** --driver <CPF/CNPJ or id>: the driver's newest authorization of the local provider, in the wanted states. */
async function authorizationOf(db: Db, args: string[], wanted: readonly PixAutomaticStatus[], command: string): Promise<PixAutomaticRow> {
  const { flags } = parseFlags(args);
  const who = flags.driver;
  if (!who || who === 'true') throw new CliFailure(`Informe o motorista: ${command} --driver <CPF/CNPJ ou id>`);
  const document = stripDocument(who);
  const driver = await db.kysely
    .selectFrom('drivers')
    .select('id')
    .where((eb) => (/^\d{1,10}$/.test(who) && document.length < 11 ? eb('id', '=', Number(who)) : eb('cpf_cnpj', '=', document)))
    .executeTakeFirst();
  if (!driver) throw new CliFailure(`Motorista não encontrado: ${who}`);
  const row = await db.kysely
    .selectFrom('pix_automatic_authorizations')
    .selectAll()
    .where('driver_id', '=', driver.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row)
    throw new CliFailure('Este motorista não tem recarga automática. Crie uma no portal (Comprar saldo > Recarga automática por Pix).');
  if (row.provider !== 'local')
    throw new CliFailure(`A recarga automática ${row.id} é do provedor ${row.provider}: só as do provedor local podem ser simuladas.`);
  if (!wanted.includes(row.status))
    throw new CliFailure(
      `A recarga automática ${row.id} está ${STATE_LABEL[row.status].toLowerCase()}: ${command} precisa de uma ${wanted.map((s) => STATE_LABEL[s].toLowerCase()).join(' ou ')}.`,
    );
  return row;
}

const money = (row: PixAutomaticRow) => formatBrl(Number(row.amount_cents));

/**
 * pix:auto:activate: the payer's bank pays the QR Code's first Pix and authorizes the recurring
 * debits, as Asaas reports it: PAYMENT_RECEIVED naming the QR Code (no externalReference), then
 * PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED.
 */
export async function activateAutomatic(config: Config, db: Db, args: string[]): Promise<string> {
  const row = await authorizationOf(db, args, ['CREATED'], 'pix:auto:activate');
  const paid = await postWebhook(config, {
    id: eventId(),
    event: 'PAYMENT_RECEIVED',
    payment: {
      id: localFirstPaymentId(row.id),
      value: centsToReais(Number(row.amount_cents)),
      status: 'RECEIVED',
      billingType: 'PIX',
      externalReference: null,
      pixQrCodeId: row.conciliation_id,
    },
  });
  const activated = await postWebhook(config, {
    id: eventId(),
    event: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED',
    authorization: {
      id: row.provider_authorization_id,
      status: 'ACTIVE',
      contractId: row.id,
      value: centsToReais(Number(row.amount_cents)),
    },
  });
  return [`Primeiro Pix de ${money(row)} pago (recarga automática ${row.id}): ${paid}`, `Autorização ativada no banco: ${activated}`].join(
    '\n',
  );
}

/** The cycle the bank debits now: the one already sent and waiting, else the next one sent now, due today. */
async function cycleOf(config: Config, db: Db, row: PixAutomaticRow) {
  const services = createServices(config, db, createLogger('warn'));
  const cycle = await services.pixAutomaticCycles.cycleToDebit(row.id);
  if (!cycle)
    throw new CliFailure(`Não foi possível enviar o próximo ciclo da recarga automática ${row.id}; veja os registros do servidor.`);
  const charge = await db.kysely
    .selectFrom('pix_charges')
    .select(['id', 'provider_charge_id', 'amount_cents'])
    .where('id', '=', cycle.charge_id)
    .executeTakeFirstOrThrow();
  return { cycle, charge };
}

/** pix:auto:cycle: the bank schedules and debits the next cycle (Asaas: the instruction SCHEDULED, then PAYMENT_CONFIRMED). */
export async function runAutomaticCycle(config: Config, db: Db, args: string[]): Promise<string> {
  const row = await authorizationOf(db, args, ['ACTIVE'], 'pix:auto:cycle');
  const { cycle, charge } = await cycleOf(config, db, row);
  const scheduled = await postWebhook(config, {
    id: eventId(),
    event: 'PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_SCHEDULED',
    paymentInstruction: {
      id: cycle.instruction_id ?? `local_pi_${charge.id}`,
      status: 'SCHEDULED',
      paymentId: charge.provider_charge_id,
      dueDate: cycle.due_date,
      authorization: { id: row.provider_authorization_id },
    },
  });
  const paid = await postWebhook(config, {
    id: eventId(),
    event: 'PAYMENT_CONFIRMED',
    payment: {
      id: charge.provider_charge_id,
      value: centsToReais(Number(charge.amount_cents)),
      status: 'CONFIRMED',
      billingType: 'PIX',
      externalReference: charge.id,
      pixAutomaticAuthorizationId: row.provider_authorization_id,
    },
  });
  return [
    `Ciclo ${cycle.number} de ${formatBrl(Number(charge.amount_cents))} (${formatCalendarDay(cycle.due_date)}) agendado no banco: ${scheduled}`,
    `Débito feito (cobrança ${charge.id}): ${paid}`,
  ].join('\n');
}

/** pix:auto:refuse: the bank refuses the next cycle's debit (no balance, a limit): nothing is credited, the driver is told. */
export async function refuseAutomaticCycle(config: Config, db: Db, args: string[]): Promise<string> {
  const row = await authorizationOf(db, args, ['ACTIVE'], 'pix:auto:refuse');
  const { flags } = parseFlags(args);
  const reason = flags.motivo && flags.motivo !== 'true' ? flags.motivo : DEFAULT_REFUSAL;
  const { cycle, charge } = await cycleOf(config, db, row);
  const refused = await postWebhook(config, {
    id: eventId(),
    event: 'PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_REFUSED',
    paymentInstruction: {
      id: cycle.instruction_id ?? `local_pi_${charge.id}`,
      status: 'REFUSED',
      paymentId: charge.provider_charge_id,
      dueDate: cycle.due_date,
      authorization: { id: row.provider_authorization_id },
      refusalReason: reason,
    },
  });
  return `Ciclo ${cycle.number} de ${formatBrl(Number(charge.amount_cents))} (${formatCalendarDay(cycle.due_date)}) recusado pelo banco ("${reason}"): ${refused}`;
}

/** pix:auto:cancel: the payer cancels the authorization in the bank app (PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED). */
export async function cancelAutomaticAtBank(config: Config, db: Db, args: string[]): Promise<string> {
  const row = await authorizationOf(db, args, ['CREATED', 'ACTIVE'], 'pix:auto:cancel');
  const cancelled = await postWebhook(config, {
    id: eventId(),
    event: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED',
    authorization: {
      id: row.provider_authorization_id,
      status: 'CANCELLED',
      contractId: row.id,
      value: centsToReais(Number(row.amount_cents)),
    },
  });
  return `Recarga automática ${row.id} (${money(row)}) cancelada no app do banco: ${cancelled}`;
}
