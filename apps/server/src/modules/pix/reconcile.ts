import { centsToReais, formatBrl, serverMessages } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { ListedTransfer, PixProvider } from '../../adapters/pix/port.js';
import { PAID_STATUSES, PixProviderUnavailable } from '../../adapters/pix/port.js';
import { toIso } from '../../db/connection.js';
import type { Db } from '../../db/connection.js';
import type { PixChargeRow, WithdrawalRow } from '../../db/schema.js';
import { contradictedWithdrawal, withdrawalContradiction } from './contradictions.js';
import type { ChargeExpiry } from './expiry.js';
import type { WithdrawalTransfers } from './handlers.js';
import { creditedHere, ProviderTruth } from './provider-truth.js';
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
  /** Decision 60: settled rows the provider contradicts (recorded for pix:events, applied by pix:contradiction:apply). */
  contradictions: number;
}

/** How far back pix:reconcile compares settled withdrawals and charges with the provider. */
const SETTLED_LOOKBACK_DAYS = 7;

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
    private readonly withdrawals: WithdrawalTransfers,
    private readonly expiry: ChargeExpiry,
    private readonly events: WebhookEventLog,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
    private readonly truth = new ProviderTruth(provider),
  ) {}

  async run(): Promise<ReconcileReport> {
    const report: ReconcileReport = { lines: [], changed: 0, waiting: 0, unreachable: 0, contradictions: 0 };
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
    await this.compareSettled(report);
    return report;
  }

  /**
   * Decision 60: the withdrawals and charges settled in the last days, compared with what the
   * provider says now; every disagreement is listed and recorded, and nothing is applied (the
   * operator applies it with pix:contradiction:apply). The local provider keeps no record to compare.
   */
  private async compareSettled(report: ReconcileReport): Promise<void> {
    if (this.provider.name === 'local') return;
    const since = new Date(this.now().getTime() - SETTLED_LOOKBACK_DAYS * 86_400_000).toISOString();
    const withdrawals = await this.db.kysely
      .selectFrom('withdrawals')
      .selectAll()
      .where('status', 'in', ['DONE', 'FAILED'])
      .where('completed_at', '>=', since)
      .orderBy('created_at')
      .execute();
    // The transfers of those whose transfer id never reached the portal: read once, from the oldest's day.
    const unnamed = withdrawals.filter((w) => !w.provider_transfer_id).map((w) => toIso(w.created_at));
    let listed: ListedTransfer[] | null | undefined;
    if (unnamed.length > 0) {
      const oldest = unnamed.reduce((a, b) => (a < b ? a : b));
      await this.guard(report, 'transferências', async () => {
        listed = await this.provider.transfersSince(new Date(oldest));
      });
    }
    for (const w of withdrawals) {
      if (!w.provider_transfer_id && listed === undefined) continue;
      await this.guard(report, w.id, () => this.settledWithdrawal(w, report, listed));
    }
    const charges = await this.db.kysely
      .selectFrom('pix_charges')
      .selectAll()
      .where('provider', '=', this.provider.name)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'RECEIVED'), eb('received_at', '>=', since)]),
          eb.and([eb('status', '=', 'REFUNDED'), eb('refunded_at', '>=', since)]),
          eb.and([eb('status', '=', 'OVERDUE'), eb('provider_cancelled_at', 'is not', null), eb('created_at', '>=', since)]),
        ]),
      )
      .orderBy('created_at')
      .execute();
    for (const c of charges) await this.guard(report, c.id, () => this.settledCharge(c, report));
  }

  private async settledWithdrawal(w: WithdrawalRow, report: ReconcileReport, listed: ListedTransfer[] | null | undefined): Promise<void> {
    const verdict = await this.truth.transferOf(w, listed);
    const theirs = contradictedWithdrawal(w, verdict);
    if (!theirs) return;
    const transfer = verdict.kind === 'done' || verdict.kind === 'failed' ? verdict.transfer : null;
    const detail = withdrawalContradiction(w, theirs);
    await this.events.recordFinding(transfer?.id ?? w.id, detail, {
      withdrawal: w.id,
      transfer: transfer?.id ?? null,
      providerStatus: transfer?.status ?? 'inexistente',
    });
    this.log.warn(
      { withdrawalId: w.id, driverId: w.driver_id, transferId: transfer?.id ?? null, ours: w.status, theirs },
      'o Asaas contradiz um saque já encerrado',
    );
    this.contradiction(report, `Saque ${w.id} (${formatBrl(w.amount_cents)}): ${w.status} no portal, ${theirs} no provedor`, w.id);
  }

  private async settledCharge(c: PixChargeRow, report: ReconcileReport): Promise<void> {
    const verdict = await this.truth.paymentOf(c);
    if (verdict.kind !== 'settled') return;
    const here = await creditedHere(this.db.kysely, c);
    if (here === verdict.creditedCents) return;
    const detail = serverMessages.pix.contradiction.charge(c.id, c.status, verdict.status);
    await this.events.recordFinding(c.provider_charge_id, detail, {
      charge: c.id,
      payment: c.provider_charge_id,
      providerStatus: verdict.status,
      creditedHere: here,
      creditedByProvider: verdict.creditedCents,
    });
    this.log.warn(
      { chargeId: c.id, driverId: c.driver_id, ours: c.status, theirs: verdict.status },
      'o Asaas contradiz uma cobrança já encerrada',
    );
    const amounts = `${formatBrl(here)} creditado(s) no portal, ${formatBrl(verdict.creditedCents)} pelo provedor`;
    this.contradiction(
      report,
      `Cobrança ${c.id} (${formatBrl(c.amount_cents)}): ${c.status} no portal, ${verdict.status} no provedor (${amounts})`,
      c.id,
    );
  }

  private contradiction(report: ReconcileReport, what: string, id: string): void {
    report.contradictions++;
    report.lines.push(`${what}: CONTRADIÇÃO; nada aplicado, aplique com pix:contradiction:apply ${id}.`);
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
