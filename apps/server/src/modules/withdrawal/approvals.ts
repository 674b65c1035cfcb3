import {
  centsToReais,
  changePayoutLimit,
  documentKind,
  DUAL_CONTROL_HOURS,
  dualControlMessages,
  formatBrl,
  formatDateTime,
  payoutLimitAt,
  pixKeyDisplay,
  reaisToCents,
  refuse,
  Refusal,
} from '@portal/domain';
import type { PayoutLimitState } from '@portal/domain';
import type { PendingWithdrawal, WithdrawalApprovalsResponse } from '@portal/contract';
import type { Db } from '../../db/connection.js';
import { toIso } from '../../db/connection.js';
import type { SessionDriver } from '../auth/sessions.js';
import type { PayoutGuard } from '../payouts/guard.js';
import type { WithdrawalOrder, WithdrawalResult, WithdrawalService } from './service.js';

/** Off, in the arithmetic of a limit's raise: a threshold nothing reaches (changePayoutLimit). */
const OFF = Number.MAX_SAFE_INTEGER;
const HOUR_MS = 3_600_000;

type Threshold = Omit<WithdrawalApprovalsResponse, 'Sucesso' | 'Mensagem' | 'Saques'>;

/**
 * Decision 77, dual control: on a company's account a withdrawal above the threshold the company set
 * is checked as any withdrawal (eligibility, key, limits) and kept, not sent; a second Gestor (never
 * the one who asked) approves it within DUAL_CONTROL_HOURS, and only then is it weighed again by the
 * payout guard and debited, in the transaction that claims the approval. Lowering or turning the
 * threshold on is immediate; raising or turning it off waits, as a withdrawal limit's raise does.
 */
export class WithdrawalApprovals {
  constructor(
    private readonly db: Db,
    private readonly withdrawals: WithdrawalService,
    private readonly guard: PayoutGuard,
  ) {}

  private now(): Date {
    return this.guard.now();
  }

  private async stored(companyId: number): Promise<PayoutLimitState> {
    const row = await this.db.kysely.selectFrom('approval_thresholds').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    if (!row) return { valueCents: OFF, pending: null };
    const pendingCents = row.pending_off === 1 ? OFF : row.pending_cents === null ? null : Number(row.pending_cents);
    return {
      valueCents: row.value_cents === null ? OFF : Number(row.value_cents),
      pending:
        pendingCents !== null && row.pending_at !== null
          ? { valueCents: pendingCents, effectiveAt: new Date(toIso(row.pending_at)) }
          : null,
    };
  }

  private async inForce(companyId: number): Promise<PayoutLimitState> {
    return payoutLimitAt(await this.stored(companyId), this.now());
  }

  /** A withdrawal of the company above its threshold in force waits for a second Gestor. */
  async needsApproval(company: SessionDriver, amountCents: number): Promise<boolean> {
    if (documentKind(company.cpfCnpj) !== 'CNPJ') return false;
    return amountCents > (await this.inForce(company.id)).valueCents;
  }

  async set(company: SessionDriver, reais: number | null): Promise<{ threshold: Threshold; message: string }> {
    if (documentKind(company.cpfCnpj) !== 'CNPJ') throw refuse.forbidden(dualControlMessages.onlyCompanies);
    const requested = reais === null ? OFF : reaisToCents(reais);
    const now = this.now();
    const next = changePayoutLimit(await this.inForce(company.id), requested, now);
    const values = {
      value_cents: next.valueCents === OFF ? null : next.valueCents,
      pending_cents: next.pending && next.pending.valueCents !== OFF ? next.pending.valueCents : null,
      pending_off: next.pending?.valueCents === OFF ? (1 as const) : (0 as const),
      pending_at: next.pending ? next.pending.effectiveAt.toISOString() : null,
    };
    await this.db.kysely
      .insertInto('approval_thresholds')
      .values({ company_id: company.id, ...values })
      .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
      .execute();
    const message = next.pending
      ? next.pending.valueCents === OFF
        ? dualControlMessages.thresholdOffLater(formatDateTime(next.pending.effectiveAt))
        : dualControlMessages.thresholdRaised(formatBrl(next.pending.valueCents), formatDateTime(next.pending.effectiveAt))
      : next.valueCents === OFF
        ? dualControlMessages.thresholdOff
        : dualControlMessages.thresholdSet(formatBrl(next.valueCents));
    return { threshold: thresholdOf(next), message };
  }

  /** Keeps a prepared withdrawal (nothing debited) until a second Gestor decides. */
  async ask(order: WithdrawalOrder, requestedBy: number): Promise<number> {
    const now = this.now();
    const row = await this.db.kysely
      .insertInto('withdrawal_approvals')
      .values({
        company_id: order.driverId,
        requested_by: requestedBy,
        amount_cents: order.amountCents,
        pix_key_type: order.keyType,
        pix_key: order.key,
        description: order.description,
        state: 'PENDENTE',
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + DUAL_CONTROL_HOURS * HOUR_MS).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The threshold and the company's withdrawals that asked for approval, newest first (the last 50). */
  async list(companyId: number, personId: number): Promise<{ threshold: Threshold; rows: PendingWithdrawal[] }> {
    const now = this.now();
    const rows = await this.db.kysely
      .selectFrom('withdrawal_approvals as a')
      .innerJoin('drivers as by', 'by.id', 'a.requested_by')
      .leftJoin('drivers as dec', 'dec.id', 'a.decided_by')
      .select([
        'a.id',
        'a.amount_cents',
        'a.pix_key_type',
        'a.pix_key',
        'a.description',
        'a.state',
        'a.created_at',
        'a.expires_at',
        'a.decided_at',
        'a.requested_by',
        'by.name as requester',
        'dec.name as decider',
      ])
      .where('a.company_id', '=', companyId)
      .orderBy('a.id', 'desc')
      .limit(50)
      .execute();
    return {
      threshold: thresholdOf(await this.inForce(companyId)),
      rows: rows.map((r) => {
        const expired = r.state === 'PENDENTE' && new Date(toIso(r.expires_at)).getTime() <= now.getTime();
        const estado = expired ? 'EXPIRADO' : r.state;
        return {
          id: r.id,
          valor: centsToReais(Number(r.amount_cents)),
          chave: pixKeyDisplay(r.pix_key_type, r.pix_key),
          descricao: r.description,
          pedidoPor: r.requester,
          pedidoEm: toIso(r.created_at),
          expiraEm: toIso(r.expires_at),
          estado,
          decididoPor: r.decider,
          decididoEm: r.decided_at ? toIso(r.decided_at) : null,
          podeAprovar: estado === 'PENDENTE' && r.requested_by !== personId,
        };
      }),
    };
  }

  /** A second Gestor approves: the key must still be the company's (saved), and every payout rule is weighed now. */
  async approve(company: SessionDriver, id: number, approver: number): Promise<WithdrawalResult> {
    const row = await this.pending(company.id, id);
    if (row.requested_by === approver) throw refuse.forbidden(dualControlMessages.ownRequest);
    let trust;
    try {
      trust = await this.guard.trustKey(company, row.pix_key_type, row.pix_key, undefined);
    } catch (error) {
      // Without a password the guard trusts only a key still saved (or the company's own document).
      if (error instanceof Refusal && error.kind === 'invalid') throw refuse.conflict(dualControlMessages.keyNoLongerSaved);
      throw error;
    }
    return this.withdrawals.approved(company, {
      driverId: company.id,
      amountCents: Number(row.amount_cents),
      keyType: row.pix_key_type,
      key: row.pix_key,
      description: row.description,
      trust,
      approval: { id, decidedBy: approver },
    });
  }

  async decline(companyId: number, id: number, person: number): Promise<void> {
    await this.pending(companyId, id);
    const now = this.now().toISOString();
    const done = await this.db.kysely
      .updateTable('withdrawal_approvals')
      .set({ state: 'RECUSADO', decided_by: person, decided_at: now })
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .where('state', '=', 'PENDENTE')
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw refuse.notFound(dualControlMessages.notFound);
  }

  private async pending(companyId: number, id: number) {
    const row = await this.db.kysely
      .selectFrom('withdrawal_approvals')
      .selectAll()
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .where('state', '=', 'PENDENTE')
      .where('expires_at', '>', this.now().toISOString())
      .executeTakeFirst();
    if (!row) throw refuse.notFound(dualControlMessages.notFound);
    return row;
  }
}

function thresholdOf(state: PayoutLimitState): Threshold {
  const reais = (cents: number) => (cents === OFF ? null : centsToReais(cents));
  return {
    limite: reais(state.valueCents),
    pendente: state.pending ? { valor: reais(state.pending.valueCents), aPartirDe: state.pending.effectiveAt.toISOString() } : null,
  };
}
