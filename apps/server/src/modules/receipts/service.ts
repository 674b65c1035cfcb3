import type { Receipt, ReceiptKind, ReceiptParty } from '@portal/contract';
import {
  centsToReais,
  documentKind,
  maskPixKey,
  messages,
  pixKeyTypeLabels,
  refuse,
  serverMessages,
  STATEMENT_PLACE_NAMES,
} from '@portal/domain';
import type { Kysely } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { Database, PixChargeRow, PixProviderName, WithdrawalRow } from '../../db/schema.js';
import type { SessionDriver } from '../auth/sessions.js';
import { cycleOfCharge } from '../pix-automatic/queries.js';

/** The driver as a receipt names them. */
export type ReceiptDriver = Pick<SessionDriver, 'id' | 'name' | 'cpfCnpj'>;

/**
 * A CPF as banks print it on a Pix receipt (***.456.789-**), a CNPJ whole: the same rule as the
 * Pix key (domain maskPixKey), or a withdrawal to the driver's own CPF key would print that key
 * in full as the receiver's document.
 */
function receiptDocument(cpfCnpj: string): string {
  return maskPixKey(documentKind(cpfCnpj), cpfCnpj);
}

const portal: ReceiptParty = { nome: messages.receipt.portal, documento: null, chavePix: null, tipoChave: null };

function driverParty(driver: ReceiptDriver): ReceiptParty {
  return { nome: driver.name, documento: receiptDocument(driver.cpfCnpj), chavePix: null, tipoChave: null };
}

/** A withdrawal's receiver: the key, and its account's holder only as the provider reported it. */
function holderParty(row: WithdrawalRow): ReceiptParty {
  return {
    nome: row.receiver_name,
    documento: row.receiver_document,
    chavePix: maskPixKey(row.pix_key_type, row.pix_key),
    tipoChave: pixKeyTypeLabels[row.pix_key_type],
  };
}

const providerLabel = (name: PixProviderName): string => serverMessages.receipt.providers[name];

/** A settled purchase's status: refunds in part or whole, or received. */
function purchaseStatus(row: PixChargeRow): Receipt['status'] {
  if (row.refunded_cents > 0 && row.refunded_cents < row.amount_cents) return 'PARTIALLY_REFUNDED';
  return row.status === 'REFUNDED' ? 'REFUNDED' : 'RECEIVED';
}

/** Decision 58: `automatic`, a cycle of the recurring top-up by Pix Automático (its first Pix included). */
function purchaseReceipt(row: PixChargeRow, driver: ReceiptDriver, automatic: boolean): Receipt {
  if (row.received_at === null || (row.status !== 'RECEIVED' && row.status !== 'REFUNDED'))
    throw refuse.conflict(serverMessages.receipt.purchaseNotPaid);
  const status = purchaseStatus(row);
  return {
    tipo: 'compra',
    id: row.id,
    titulo: automatic ? serverMessages.receipt.automaticTitle : serverMessages.receipt.purchaseTitle,
    valor: centsToReais(row.amount_cents),
    dataHora: toIso(row.received_at),
    concluidoEm: toIso(row.refunded_at ?? row.received_at),
    status,
    statusTexto: messages.receipt.status[status],
    valorDevolvido: centsToReais(row.refunded_cents),
    pagador: driverParty(driver),
    recebedor: portal,
    provedor: providerLabel(row.provider),
    idTransacaoProvedor: row.provider_charge_id,
    descricao: automatic ? STATEMENT_PLACE_NAMES.pixAutomaticTopUp : STATEMENT_PLACE_NAMES.pixPurchase,
    motivo: null,
  };
}

/** A withdrawal in any status; FAILED is reversed: the whole value came back to the balance. */
function withdrawalReceipt(row: WithdrawalRow, driver: ReceiptDriver, provider: PixProviderName): Receipt {
  return {
    tipo: 'saque',
    id: row.id,
    titulo: serverMessages.receipt.withdrawalTitle,
    valor: centsToReais(row.amount_cents),
    dataHora: toIso(row.created_at),
    concluidoEm: row.completed_at === null ? null : toIso(row.completed_at),
    status: row.status,
    statusTexto: messages.receipt.status[row.status],
    valorDevolvido: row.status === 'FAILED' ? centsToReais(row.amount_cents) : 0,
    pagador: portal,
    recebedor: holderParty(row),
    provedor: providerLabel(provider),
    idTransacaoProvedor: row.provider_transfer_id,
    descricao: row.description === '' ? null : row.description,
    motivo: row.status === 'FAILED' ? row.failure_reason : null,
  };
}

/**
 * The driver's receipt of one purchase or withdrawal. Another driver's id reads exactly as an
 * unknown one (404): nothing tells that it exists. The driver's own purchase not paid yet is 409.
 * Withdrawals keep no provider of their own: `provider` is the one the portal pays out with.
 */
async function findReceipt(
  db: Kysely<Database>,
  driver: ReceiptDriver,
  kind: ReceiptKind,
  id: string,
  provider: PixProviderName,
): Promise<Receipt> {
  if (kind === 'compra') {
    const row = await db.selectFrom('pix_charges').selectAll().where('id', '=', id).where('driver_id', '=', driver.id).executeTakeFirst();
    if (!row) throw refuse.notFound(messages.receipt.notFound);
    return purchaseReceipt(row, driver, (await cycleOfCharge(db, row.id)) !== null);
  }
  const row = await db.selectFrom('withdrawals').selectAll().where('id', '=', id).where('driver_id', '=', driver.id).executeTakeFirst();
  if (!row) throw refuse.notFound(messages.receipt.notFound);
  return withdrawalReceipt(row, driver, provider);
}

/** The driver's receipts (built once in services.ts); `provider` is the one the portal pays withdrawals out with. */
export class ReceiptService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly provider: PixProviderName,
  ) {}

  find(driver: ReceiptDriver, kind: ReceiptKind, id: string): Promise<Receipt> {
    return findReceipt(this.db, driver, kind, id, this.provider);
  }
}
