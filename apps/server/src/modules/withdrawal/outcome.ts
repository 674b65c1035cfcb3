import { STATEMENT_ORIGINS, STATEMENT_PLACE_NAMES } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { TransferReceiver } from '../../adapters/pix/port.js';
import type { Db, Trx } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import { forUpdate } from '../../db/lock.js';
import type { Database, WithdrawalRow } from '../../db/schema.js';
import { accountId, post } from '../ledger/ledger.js';
import { enqueueNotification } from '../notifications/outbox.js';
import { storedReceiver } from './receiver.js';

export interface WithdrawalRef {
  withdrawalId: string;
}

/**
 * The end of a withdrawal, from the payout answer, a TRANSFER_* webhook, pix:reconcile or the
 * operator, once whatever the number of deliveries: only a PROCESSING withdrawal changes, on its
 * locked row. `transferId` names the provider's transfer the news is about (founding decision 26): when the
 * row already holds another one, nothing changes and the row comes back as it is (the caller sees
 * that its provider_transfer_id is not the one it named); when it holds none, it is kept.
 */
export class WithdrawalOutcomes {
  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  async done(ref: WithdrawalRef, transferId?: string | null, receiver?: TransferReceiver | null): Promise<WithdrawalRow | null> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const found = await this.lock(trx, ref);
      if (!found || !sameTransfer(found, transferId)) return found;
      const w = await this.note(trx, found, transferId, receiver);
      if (w.status !== 'PROCESSING') return w;
      const patch = { status: 'DONE' as const, completed_at: nowIso() };
      await trx.updateTable('withdrawals').set(patch).where('id', '=', w.id).execute();
      const notice = { kind: 'withdrawalDone', withdrawalId: w.id, amountCents: Number(w.amount_cents) } as const;
      await enqueueNotification(trx, w.driver_id, notice);
      this.log.info({ withdrawalId: w.id, driverId: w.driver_id }, 'saque concluído');
      return { ...w, ...patch };
    });
  }

  /** The provider took the payout and will tell its end later: its transfer id (and holder, if known). */
  async pending(withdrawalId: string, transferId: string, receiver?: TransferReceiver | null): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const w = await this.lock(trx, { withdrawalId });
      if (w && sameTransfer(w, transferId)) await this.note(trx, w, transferId, receiver);
    });
  }

  /** The payout failed: the money comes back by a reversal credit, and the withdrawal says why. */
  async failed(ref: WithdrawalRef, reason: string, transferId?: string | null): Promise<WithdrawalRow | null> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const found = await this.lock(trx, ref);
      if (!found || !sameTransfer(found, transferId)) return found;
      const w = await this.note(trx, found, transferId, null);
      if (w.status !== 'PROCESSING') return w;
      await post(trx, {
        accountId: await accountId(trx, w.driver_id, 'own'),
        amountCents: Number(w.amount_cents),
        origin: STATEMENT_ORIGINS.pixWithdrawalReversal,
        event: 'REFUND',
        placeName: STATEMENT_PLACE_NAMES.pixWithdrawalReversal,
        reference: w.id,
        idempotencyKey: `withdrawal:${w.id}:reversal`,
      });
      const patch = { status: 'FAILED' as const, failure_reason: reason, completed_at: nowIso() };
      await trx.updateTable('withdrawals').set(patch).where('id', '=', w.id).execute();
      const notice = { kind: 'withdrawalReturned', withdrawalId: w.id, amountCents: Number(w.amount_cents) } as const;
      await enqueueNotification(trx, w.driver_id, notice);
      this.log.warn({ withdrawalId: w.id, driverId: w.driver_id, reason }, 'saque falhou; valor devolvido');
      return { ...w, ...patch };
    });
  }

  /** Our withdrawal by our id (an event's or a validation's externalReference), without a lock. */
  async byId(withdrawalId: string): Promise<WithdrawalRow | null> {
    return (await this.db.kysely.selectFrom('withdrawals').selectAll().where('id', '=', withdrawalId).executeTakeFirst()) ?? null;
  }

  /** The withdrawal that stored this provider transfer id, if any. */
  async byTransferId(transferId: string): Promise<WithdrawalRow | null> {
    return (
      (await this.db.kysely.selectFrom('withdrawals').selectAll().where('provider_transfer_id', '=', transferId).executeTakeFirst()) ?? null
    );
  }

  /**
   * Keeps a transfer id the row has not stored yet (compare-and-set: only where it is still
   * null) and returns the row as stored after; the Asaas transfer validation claims the transfer
   * it approves this way.
   */
  async claimTransfer(withdrawalId: string, transferId: string): Promise<WithdrawalRow | null> {
    await this.db.kysely
      .updateTable('withdrawals')
      .set({ provider_transfer_id: transferId })
      .where('id', '=', withdrawalId)
      .where('provider_transfer_id', 'is', null)
      .execute();
    return this.byId(withdrawalId);
  }

  /** The transfer id (when not stored yet) and the holder the provider reported, whatever the status. */
  private async note(
    trx: Trx,
    w: WithdrawalRow,
    transferId: string | null | undefined,
    receiver: TransferReceiver | null | undefined,
  ): Promise<WithdrawalRow> {
    const patch = { ...(transferId && !w.provider_transfer_id ? { provider_transfer_id: transferId } : {}), ...storedReceiver(receiver) };
    if (Object.keys(patch).length === 0) return w;
    await trx.updateTable('withdrawals').set(patch).where('id', '=', w.id).execute();
    return { ...w, ...patch };
  }

  private async lock(trx: Trx, ref: WithdrawalRef): Promise<WithdrawalRow | null> {
    const row = await trx
      .selectFrom('withdrawals')
      .selectAll()
      .where('id', '=', ref.withdrawalId)
      .$call(forUpdate<Database, 'withdrawals', WithdrawalRow>(this.db.dialect))
      .executeTakeFirst();
    return row ?? null;
  }
}

/** No transfer named, none stored yet, or the very one stored. */
function sameTransfer(w: WithdrawalRow, transferId: string | null | undefined): boolean {
  return !transferId || !w.provider_transfer_id || w.provider_transfer_id === transferId;
}
