import { centsToReais, formatBrl } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { PixProvider } from '../../adapters/pix/port.js';
import { PAID_STATUSES, PixProviderUnavailable } from '../../adapters/pix/port.js';
import type { Db } from '../../db/connection.js';
import type { PixChargeRow, WithdrawalRow } from '../../db/schema.js';
import type { WithdrawalOutcomes } from '../withdrawal/outcome.js';
import type { ChargeExpiry } from './expiry.js';
import type { SettlementService } from './settlement.js';
import type { UnappliedReason, WebhookEventLog } from './webhook-events.js';

/** Open events a settled outcome answers: they were waiting for exactly this. */
const SETTLED_REASONS: readonly UnappliedReason[] = ['provider-unavailable', 'not-confirmed', 'transfer-blocked'];
const FAILED_TRANSFER = new Set(['FAILED', 'CANCELLED']);

export interface ReconcileReport {
  /** One Portuguese line per charge or withdrawal that changed or needs a person. */
  lines: string[];
  changed: number;
  waiting: number;
  unreachable: number;
}

/**
 * pix:reconcile: asks the provider about every charge still PENDING (or OVERDUE and not yet
 * cancelled there) and every withdrawal still PROCESSING, and applies what it learns through
 * the same idempotent services as the webhook: running it twice changes nothing the second time.
 */
export class PixReconciler {
  constructor(
    private readonly db: Db,
    private readonly provider: PixProvider,
    private readonly settlement: SettlementService,
    private readonly withdrawals: WithdrawalOutcomes,
    private readonly expiry: ChargeExpiry,
    private readonly events: WebhookEventLog,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async run(): Promise<ReconcileReport> {
    const report: ReconcileReport = { lines: [], changed: 0, waiting: 0, unreachable: 0 };
    const charges = await this.db.kysely
      .selectFrom('pix_charges')
      .selectAll()
      .where('provider', '=', this.provider.name)
      .where((eb) => eb.or([eb('status', '=', 'PENDING'), eb.and([eb('status', '=', 'OVERDUE'), eb('provider_cancelled_at', 'is', null)])]))
      .orderBy('created_at')
      .execute();
    for (const charge of charges) await this.guard(report, charge.id, () => this.charge(charge, report));
    const withdrawals = await this.db.kysely
      .selectFrom('withdrawals')
      .selectAll()
      .where('status', '=', 'PROCESSING')
      .orderBy('created_at')
      .execute();
    for (const w of withdrawals) await this.guard(report, w.id, () => this.withdrawal(w, report));
    return report;
  }

  private async guard(report: ReconcileReport, id: string, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      if (!(error instanceof PixProviderUnavailable)) throw error;
      this.log.warn({ err: error, id }, 'provedor não respondeu na reconciliação');
      report.unreachable++;
      report.lines.push(`${id}: o provedor não respondeu; tente novamente.`);
    }
  }

  private async charge(charge: PixChargeRow, report: ReconcileReport): Promise<void> {
    const truth = await this.provider.getPayment(charge.provider_charge_id);
    const expired = new Date(charge.expires_at).getTime() <= this.now().getTime();
    const amount = formatBrl(charge.amount_cents);
    if (truth === 'missing') {
      report.waiting++;
      report.lines.push(`Cobrança ${charge.id} (${amount}): não existe no provedor; verifique no painel.`);
      return;
    }
    if (truth && truth.externalReference !== charge.id) {
      report.waiting++;
      report.lines.push(
        `Cobrança ${charge.id} (${amount}): o provedor vincula o pagamento ${charge.provider_charge_id} a outra referência; nada aplicado, verifique no painel.`,
      );
      return;
    }
    if (truth && PAID_STATUSES.has(truth.status)) {
      const outcome = await this.settlement.received({ chargeId: charge.id }, centsToReais(truth.amountCents));
      if (outcome === 'amount-mismatch') {
        report.waiting++;
        report.lines.push(`Cobrança ${charge.id} (${amount}): paga com outro valor (${formatBrl(truth.amountCents)}); nada creditado.`);
        return;
      }
      if (truth.refundedCents > 0) await this.settlement.partiallyRefunded({ chargeId: charge.id }, truth.refundedCents);
      await this.settled(report, charge.provider_charge_id, `Cobrança ${charge.id} (${amount}): paga; saldo creditado.`);
      return;
    }
    if (truth?.status === 'REFUNDED') {
      await this.settlement.refunded({ chargeId: charge.id });
      await this.settled(report, charge.provider_charge_id, `Cobrança ${charge.id} (${amount}): estornada no provedor.`);
      return;
    }
    if (truth?.deleted) {
      await this.settlement.overdue({ chargeId: charge.id });
      await this.expiry.markCancelled(charge.id);
      await this.settled(
        report,
        charge.provider_charge_id,
        `Cobrança ${charge.id} (${amount}): removida no provedor; marcada como vencida.`,
      );
      return;
    }
    if (!expired) return;
    const overdue = (await this.settlement.overdue({ chargeId: charge.id })) === 'overdue';
    const cancel = await this.expiry.cancelAtProvider(charge);
    if (overdue || cancel === 'cancelled') {
      report.changed++;
      report.lines.push(`Cobrança ${charge.id} (${amount}): vencida${cancel === 'cancelled' ? ' e cancelada no provedor' : ''}.`);
    }
  }

  private async withdrawal(w: WithdrawalRow, report: ReconcileReport): Promise<void> {
    const amount = formatBrl(w.amount_cents);
    const waits = (why: string) => {
      report.waiting++;
      report.lines.push(`Saque ${w.id} (${amount}): ${why}; confira no painel e conclua com withdrawal:resolve.`);
    };
    if (!w.provider_transfer_id) return waits('resultado desconhecido (o provedor não devolveu a transferência)');
    const truth = await this.provider.getTransfer(w.provider_transfer_id);
    if (truth === 'missing') return waits('transferência inexistente no provedor');
    if (truth === null) return waits('em processamento');
    // The stored transfer must be this withdrawal's at the provider too (founding decision 26).
    if (truth.externalReference !== w.id) return waits('o provedor vincula a transferência registrada a outra referência; nada aplicado');
    if (truth.status === 'DONE') {
      await this.withdrawals.done({ withdrawalId: w.id }, w.provider_transfer_id, truth.receiver);
      return this.settled(report, w.provider_transfer_id, `Saque ${w.id} (${amount}): concluído.`);
    }
    if (FAILED_TRANSFER.has(truth.status)) {
      await this.withdrawals.failed(
        { withdrawalId: w.id },
        truth.failReason?.trim() || 'a transferência não foi concluída',
        w.provider_transfer_id,
      );
      return this.settled(report, w.provider_transfer_id, `Saque ${w.id} (${amount}): não concluído; valor devolvido ao motorista.`);
    }
    if (truth.status === 'BLOCKED') return waits('transferência bloqueada no provedor');
  }

  private async settled(report: ReconcileReport, ref: string, line: string): Promise<void> {
    report.changed++;
    report.lines.push(line);
    await this.events.resolveFor(ref, SETTLED_REASONS, 'resolvido por pix:reconcile');
  }
}
