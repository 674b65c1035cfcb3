import { formatBrl, serverMessages, STATEMENT_ORIGINS, STATEMENT_PLACE_NAMES } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import { PAID_STATUSES } from '../../adapters/pix/port.js';
import type { Db, Trx } from '../../db/connection.js';
import { nowIso, toIso } from '../../db/connection.js';
import type { Kysely, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Database, PixChargeRow, PixChargesTable, WithdrawalRow } from '../../db/schema.js';
import { accountId, post } from '../ledger/ledger.js';
import { enqueueNotification } from '../notifications/outbox.js';
import type { PaymentVerdict, ProviderTruth, TransferVerdict } from './provider-truth.js';
import { netOf, withdrawalNet } from './provider-truth.js';
import type { WebhookEventLog } from './webhook-events.js';

const says = serverMessages.pix.contradiction;

/** What the operator's command did: applied (money moved once), nothing to do, or refused (why). */
export interface ApplyResult {
  result: 'applied' | 'agrees' | 'refused';
  message: string;
}

/**
 * The settled status a withdrawal should have by the provider's word, when it contradicts ours:
 * given back (FAILED) while the bank paid it, or paid (DONE) while the bank paid nothing.
 */
export function contradictedWithdrawal(w: WithdrawalRow, verdict: TransferVerdict): 'DONE' | 'FAILED' | null {
  if (w.status === 'FAILED' && verdict.kind === 'done') return 'DONE';
  if (w.status === 'DONE' && verdict.kind === 'failed') return 'FAILED';
  return null;
}

/** The detail line of a withdrawal's contradiction (ids and statuses only). */
export function withdrawalContradiction(w: WithdrawalRow, theirs: 'DONE' | 'FAILED'): string {
  return says.withdrawal(w.id, w.status, theirs);
}

/**
 * Decision 60: the provider's truth applied to a settled withdrawal or charge it contradicts, by
 * the operator (pix:contradiction:apply), through the ledger, once. The provider is asked again,
 * then on the locked row the own account's entries for the object are summed and only the
 * difference to what the provider's state means is posted (a debit may leave the balance
 * negative: the money did leave). A second run finds nothing to move.
 */
export class ContradictionService {
  constructor(
    private readonly db: Db,
    private readonly truth: ProviderTruth,
    private readonly events: WebhookEventLog,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** By our id: a withdrawal's or a charge's. */
  async apply(id: string): Promise<ApplyResult> {
    const w = await withdrawalById(this.db.kysely, id);
    if (w) return this.applyWithdrawal(w);
    const c = await chargeById(this.db.kysely, id);
    if (c) return this.applyCharge(c);
    return { result: 'refused', message: `Saque ou cobrança não encontrado: ${id}` };
  }

  private async applyWithdrawal(w: WithdrawalRow): Promise<ApplyResult> {
    const label = `Saque ${w.id} (${formatBrl(w.amount_cents)})`;
    if (w.status === 'PROCESSING') return refused(`${label} ainda está em processamento: use pix:reconcile ou withdrawal:resolve.`);
    const verdict = await this.truth.transferOf(w);
    const unsure = unsureTransfer(verdict);
    if (unsure) return refused(`${label}: ${unsure}; nada aplicado.`);
    const target = verdict.kind === 'done' ? 'DONE' : 'FAILED';
    const transfer = verdict.kind === 'done' || verdict.kind === 'failed' ? verdict.transfer : null;
    const outcome = await this.db.kysely.transaction().execute(async (trx) => {
      await lockRow(trx, this.db, 'withdrawals', w.id);
      // Settled rows never go back to PROCESSING: only the status and the money can have moved since.
      const row = (await withdrawalById(trx, w.id)) ?? w;
      const account = await accountId(trx, row.driver_id, 'own');
      const net = await netOf(trx, row.driver_id, account, row.id);
      const delta = withdrawalNet(target, row.amount_cents) - net;
      if (row.status === target && delta === 0) return 'agrees' as const;
      if (delta !== 0) {
        await post(trx, {
          accountId: account,
          amountCents: delta,
          origin: delta < 0 ? STATEMENT_ORIGINS.pixWithdrawalAfterReversal : STATEMENT_ORIGINS.pixWithdrawalReversal,
          event: delta < 0 ? null : 'REFUND',
          placeName: delta < 0 ? STATEMENT_PLACE_NAMES.pixWithdrawalAfterReversal : STATEMENT_PLACE_NAMES.pixWithdrawalReversal,
          reference: row.id,
          idempotencyKey: `withdrawal:${row.id}:provider-truth:${target}:${net}`,
        });
      }
      const failure = transfer?.failReason?.trim() || serverMessages.withdrawal.payoutRejected;
      await trx
        .updateTable('withdrawals')
        .set({
          status: target,
          completed_at: nowIso(),
          failure_reason: target === 'FAILED' ? failure : null,
          ...(transfer && !row.provider_transfer_id ? { provider_transfer_id: transfer.id } : {}),
        })
        .where('id', '=', row.id)
        .execute();
      const notice = { withdrawalId: row.id, amountCents: row.amount_cents } as const;
      await enqueueNotification(trx, row.driver_id, { kind: target === 'DONE' ? 'withdrawalDone' : 'withdrawalReturned', ...notice });
      this.log.warn(
        {
          withdrawalId: row.id,
          driverId: row.driver_id,
          transferId: transfer?.id ?? null,
          from: row.status,
          to: target,
          deltaCents: delta,
        },
        'saque corrigido pela palavra do provedor',
      );
      return delta;
    });
    await this.closeEvents([w.id, w.provider_transfer_id, transfer?.id ?? null]);
    if (outcome === 'agrees') return { result: 'agrees', message: `${label} já está ${target} como no provedor; nada mudou.` };
    const money = outcome < 0 ? `${formatBrl(-outcome)} debitado(s) do saldo` : `${formatBrl(outcome)} devolvido(s) ao saldo`;
    return { result: 'applied', message: `${label} agora ${target}, como no provedor: ${money}.` };
  }

  private async applyCharge(c: PixChargeRow): Promise<ApplyResult> {
    const label = `Cobrança ${c.id} (${formatBrl(c.amount_cents)})`;
    if (c.status === 'PENDING') return refused(`${label} ainda está pendente: use pix:reconcile.`);
    const verdict = await this.truth.paymentOf(c);
    if (verdict.kind !== 'settled') return refused(`${label}: ${unsurePayment(verdict)}; nada aplicado.`);
    const credited = verdict.creditedCents;
    const outcome = await this.db.kysely.transaction().execute(async (trx) => {
      await lockRow(trx, this.db, 'pix_charges', c.id);
      const row = (await chargeById(trx, c.id)) ?? c;
      const account = await accountId(trx, row.driver_id, 'own');
      const net = await netOf(trx, row.driver_id, account, row.id);
      const delta = credited - net;
      if (delta === 0) return 'agrees' as const;
      await post(trx, {
        accountId: account,
        amountCents: delta,
        origin: delta > 0 ? STATEMENT_ORIGINS.pixPurchase : STATEMENT_ORIGINS.pixRefund,
        event: delta > 0 ? 'RECEIVED' : 'REFUND',
        placeName: chargePlaceName(delta, verdict.status),
        reference: row.id,
        idempotencyKey: `pix-charge:${row.id}:provider-truth:${credited}:${net}`,
      });
      await trx
        .updateTable('pix_charges')
        .set(chargePatch(row, verdict.status, credited))
        .where('id', '=', row.id)
        .execute();
      if (delta > 0) await enqueueNotification(trx, row.driver_id, { kind: 'pixReceived', chargeId: row.id, amountCents: delta });
      this.log.warn(
        { chargeId: row.id, driverId: row.driver_id, from: row.status, provider: verdict.status, deltaCents: delta },
        'cobrança corrigida pela palavra do provedor',
      );
      return delta;
    });
    await this.closeEvents([c.id, c.provider_charge_id]);
    if (outcome === 'agrees') return { result: 'agrees', message: `${label} já está como no provedor (${verdict.status}); nada mudou.` };
    const money = outcome < 0 ? `${formatBrl(-outcome)} debitado(s) do saldo` : `${formatBrl(outcome)} creditado(s) no saldo`;
    return { result: 'applied', message: `${label} agora como no provedor (${verdict.status}): ${money}.` };
  }

  private async closeEvents(refs: (string | null)[]): Promise<void> {
    for (const ref of new Set(refs)) {
      if (ref) await this.events.resolveFor(ref, ['contradiction'], 'resolvido: pix:contradiction:apply aplicou a palavra do provedor');
    }
  }
}

function refused(message: string): ApplyResult {
  return { result: 'refused', message };
}

/** Why the provider's word about a transfer cannot be applied; null when it is a settled DONE or FAILED. */
function unsureTransfer(verdict: TransferVerdict): string | null {
  switch (verdict.kind) {
    case 'done':
    case 'failed':
      return null;
    case 'in-progress':
      return `o provedor ainda processa a transferência ${verdict.transfer.id} (${verdict.transfer.status})`;
    case 'unclear':
      return verdict.why;
    case 'no-record':
      return 'o provedor local não guarda transferências para consultar';
  }
}

function unsurePayment(verdict: Exclude<PaymentVerdict, { kind: 'settled' }>): string {
  switch (verdict.kind) {
    case 'in-progress':
      return `o pagamento ainda está em andamento no provedor (${verdict.status})`;
    case 'unclear':
      return verdict.why;
    case 'no-record':
      return 'o provedor local não guarda pagamentos para consultar';
  }
}

/** A credit: the purchase confirmed after all; a debit: a refund the provider made, or the payment undone. */
function chargePlaceName(delta: number, providerStatus: string): string {
  if (delta > 0) return STATEMENT_PLACE_NAMES.pixPurchaseConfirmedLate;
  return providerStatus === 'REFUNDED' || PAID_STATUSES.has(providerStatus)
    ? STATEMENT_PLACE_NAMES.pixRefund
    : STATEMENT_PLACE_NAMES.pixPurchaseUndone;
}

/** The charge as the provider's state describes it: received (what is left credited), refunded, or never paid. */
function chargePatch(row: PixChargeRow, providerStatus: string, credited: number): Updateable<PixChargesTable> {
  const at = (stored: Date | string | null) => (stored === null ? nowIso() : toIso(stored));
  if (credited > 0) return { status: 'RECEIVED', refunded_cents: row.amount_cents - credited, received_at: at(row.received_at) };
  if (providerStatus === 'REFUNDED') return { status: 'REFUNDED', refunded_cents: row.amount_cents, refunded_at: at(row.refunded_at) };
  return { status: 'OVERDUE', refunded_cents: 0 };
}

/** Holds the row until the transaction ends (PostgreSQL; SQLite runs one write transaction at a time). */
async function lockRow(trx: Trx, db: Db, table: 'withdrawals' | 'pix_charges', id: string): Promise<void> {
  if (db.dialect === 'postgres') await sql`select id from ${sql.table(table)} where id = ${id} for update`.execute(trx);
}

const withdrawalById = (db: Kysely<Database>, id: string) =>
  db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst();
const chargeById = (db: Kysely<Database>, id: string) => db.selectFrom('pix_charges').selectAll().where('id', '=', id).executeTakeFirst();
