import type { PixKeyType } from '@portal/domain';
import {
  isPixKeyType,
  messages,
  normalizePixKey,
  reaisToCents,
  refuse,
  serverMessages,
  STATEMENT_ORIGINS,
  STATEMENT_PLACE_NAMES,
  stripDocument,
  withdrawalError,
} from '@portal/domain';
import type { withdrawalRequest } from '@portal/contract';
import type { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.js';
import { newId } from '../../db/ids.js';
import type { WithdrawalRow, WithdrawalStatus } from '../../db/schema.js';
import { PayoutRejected, PixProviderUnavailable } from '../../adapters/pix/port.js';
import type { PixProvider } from '../../adapters/pix/port.js';
import type { SessionDriver } from '../auth/sessions.js';
import { accountId, balances, postGuardedDebit } from '../ledger/ledger.js';
import type { WithdrawalEligibility } from './eligibility.js';
import type { WithdrawalOutcomes } from './outcome.js';
import { claimApproval } from './approval-claim.js';
import type { KeyTrust, PayoutGuard } from '../payouts/guard.js';

/** A withdrawal the rules allowed: amount, normalised key and what the driver wrote. */
export interface WithdrawalOrder {
  driverId: number;
  amountCents: number;
  keyType: PixKeyType;
  key: string;
  description: string;
  /** How the payout guard sees the key (decision 44); absent only for the operator's own calls (tests of the debit). */
  trust?: KeyTrust;
  /** Decision 77: the pending withdrawal a second Gestor approves: claimed in the same transaction as the debit. */
  approval?: { id: number; decidedBy: number };
}

/** The body after the contract's schema (fields that were not strings or numbers read as empty). */
export type WithdrawalInput = z.output<typeof withdrawalRequest>;

export type WithdrawalResult =
  { status: Exclude<WithdrawalStatus, 'FAILED'>; withdrawalId: string } | { status: 'FAILED'; withdrawalId: string; reason: string };

/** Amount as sent (reais): NaN, infinite or more than 2 decimals read as "no value". */
function toCents(amount: number): number | null {
  if (!Number.isFinite(amount)) return null;
  try {
    return reaisToCents(amount);
  } catch {
    return null;
  }
}

/**
 * POST /api/motorista/sacar: eligibility, the rules of spec §5 in order, then a guarded debit and
 * the payout. A failed payout gives the money back (WithdrawalOutcomes.failed).
 */
export class WithdrawalService {
  constructor(
    private readonly db: Db,
    private readonly eligibility: WithdrawalEligibility,
    private readonly outcomes: WithdrawalOutcomes,
    private readonly provider: PixProvider,
    private readonly guard: PayoutGuard,
    private readonly log: FastifyBaseLogger,
  ) {}

  async request(driver: SessionDriver, input: WithdrawalInput, confirmerId: number = driver.id): Promise<WithdrawalResult> {
    return this.execute(await this.prepare(driver, input, confirmerId));
  }

  /**
   * Spec §5's rules in order, the receiver (the account's own document) and the key's trust (saved,
   * or the password of whoever acts): the order to execute, nothing moved yet. A company's withdrawal
   * above its threshold waits as this order for a second Gestor (approvals.ts).
   */
  async prepare(driver: SessionDriver, input: WithdrawalInput, confirmerId: number = driver.id): Promise<WithdrawalOrder> {
    // The route already refused a driver without the current terms (requiresTerms): no second read of them.
    const refusal = await this.eligibility.processingRefusal(driver.id);
    if (refusal) throw refuse.conflict(refusal);
    const amountCents = toCents(input.amount);
    const { own } = await balances(this.db.kysely, driver.id);
    const keyType = input.pix.type;
    const rawKey = input.pix.key;
    const error = withdrawalError({ amountCents, balanceCents: own, keyType, key: rawKey });
    if (error) throw refuse.invalid(error.message, error.field);
    if (amountCents === null || !isPixKeyType(keyType)) throw new Error('withdrawalError deixou passar um valor inválido');
    if (stripDocument(input.receiver_document) !== driver.cpfCnpj) throw refuse.forbidden(serverMessages.withdrawal.notYourDocument);
    const key = normalizePixKey(keyType, rawKey);
    const trust = await this.guard.trustKey(driver, keyType, key, input.senha, confirmerId);
    return {
      driverId: driver.id,
      amountCents,
      keyType,
      key,
      description: input.description.trim() || messages.withdrawal.defaultDescription,
      trust,
    };
  }

  /** Decision 77: a pending withdrawal a second Gestor approved: one withdrawal processing at a time, then as any other. */
  async approved(driver: SessionDriver, order: WithdrawalOrder): Promise<WithdrawalResult> {
    const refusal = await this.eligibility.processingRefusal(driver.id);
    if (refusal) throw refuse.conflict(refusal);
    return this.execute(order);
  }

  /** Debit (guarded) and record, then pay out. Used by request() and by the demo seed. */
  async execute(order: WithdrawalOrder): Promise<WithdrawalResult> {
    const withdrawal = await this.open(order);
    return this.payout(withdrawal);
  }

  /** One transaction: the PROCESSING withdrawal and its guarded debit, or nothing at all. */
  async open(order: WithdrawalOrder): Promise<WithdrawalRow> {
    const id = newId('wd');
    return this.db.kysely.transaction().execute(async (trx) => {
      if (order.trust) await this.guard.weigh(trx, order.driverId, order, order.trust);
      const row = {
        id,
        driver_id: order.driverId,
        amount_cents: order.amountCents,
        pix_key_type: order.keyType,
        pix_key: order.key,
        description: order.description,
        status: 'PROCESSING' as const,
        provider_transfer_id: null,
        failure_reason: null,
        created_at: this.guard.now().toISOString(),
        completed_at: null,
        receiver_name: null,
        receiver_document: null,
      };
      await trx.insertInto('withdrawals').values(row).execute();
      if (order.approval) await claimApproval(trx, order.approval, id, this.guard.now());
      const debit = await postGuardedDebit(trx, {
        accountId: await accountId(trx, order.driverId, 'own'),
        amountCents: -order.amountCents,
        origin: STATEMENT_ORIGINS.pixWithdrawal,
        event: null,
        placeName: STATEMENT_PLACE_NAMES.pixWithdrawal,
        reference: id,
        idempotencyKey: `withdrawal:${id}:debit`,
      });
      // Throwing rolls the withdrawal row back too: nothing is written.
      if (debit.status === 'insufficient') throw refuse.invalid(messages.withdrawal.amountAboveBalance, 'amount');
      return row;
    });
  }

  private async payout(w: WithdrawalRow): Promise<WithdrawalResult> {
    try {
      const sent = await this.provider.sendPayout({
        withdrawalId: w.id,
        amountCents: w.amount_cents,
        key: w.pix_key,
        keyType: w.pix_key_type,
        description: w.description,
      });
      if (sent.status === 'DONE') {
        const done = await this.outcomes.done({ withdrawalId: w.id }, sent.providerTransferId, sent.receiver);
        // A TRANSFER_FAILED webhook may have won the race: report what is stored.
        if (done?.status === 'FAILED') return { status: 'FAILED', withdrawalId: w.id, reason: done.failure_reason ?? '' };
        if (done?.status === 'PROCESSING') return { status: 'PROCESSING', withdrawalId: w.id };
        return { status: 'DONE', withdrawalId: w.id };
      }
      await this.outcomes.pending(w.id, sent.providerTransferId, sent.receiver);
      return { status: 'PROCESSING', withdrawalId: w.id };
    } catch (error) {
      if (error instanceof PixProviderUnavailable && error.mayHaveArrived) {
        // The transfer may have been made: giving the money back now could pay twice. It stays
        // PROCESSING until a TRANSFER_* webhook or an operator (withdrawal:resolve) settles it.
        this.log.error({ err: error, withdrawalId: w.id }, 'saque com resultado desconhecido; aguardando confirmação');
        return { status: 'PROCESSING', withdrawalId: w.id };
      }
      const reason = error instanceof PayoutRejected ? error.reason : serverMessages.withdrawal.providerUnavailable;
      if (!(error instanceof PayoutRejected)) this.log.error({ err: error, withdrawalId: w.id }, 'falha ao enviar saque');
      const failed = await this.outcomes.failed(
        { withdrawalId: w.id },
        reason,
        error instanceof PayoutRejected ? error.providerTransferId : null,
      );
      if (failed?.status === 'DONE') return { status: 'DONE', withdrawalId: w.id };
      return { status: 'FAILED', withdrawalId: w.id, reason: failed?.failure_reason ?? reason };
    }
  }
}

export function payoutFailedMessage(reason: string): string {
  return serverMessages.withdrawal.payoutFailed.replace('{reason}', reason.trim().replace(/[.\s]+$/, ''));
}
