import { STATEMENT_ORIGINS, STATEMENT_PLACE_NAMES } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import { forUpdate } from '../../db/lock.js';
import type { Database, WithdrawalRow } from '../../db/schema.js';
import type { Trx } from '../ledger/ledger.js';
import { accountId, post } from '../ledger/ledger.js';

export interface WithdrawalRef {
  providerTransferId?: string | null;
  withdrawalId?: string | null;
}

/**
 * The end of a withdrawal, from the payout answer or from a TRANSFER_* webhook, once whatever
 * the number of deliveries: only a PROCESSING withdrawal changes, on its locked row.
 */
export class WithdrawalOutcomes {
  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  async done(ref: WithdrawalRef, providerTransferId?: string): Promise<WithdrawalRow | null> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const w = await this.lock(trx, ref);
      if (!w) return null;
      if (w.status !== 'PROCESSING') return w;
      const patch = { status: 'DONE' as const, completed_at: nowIso(), provider_transfer_id: providerTransferId ?? w.provider_transfer_id };
      await trx.updateTable('withdrawals').set(patch).where('id', '=', w.id).execute();
      this.log.info({ withdrawalId: w.id, driverId: w.driver_id }, 'saque concluído');
      return { ...w, ...patch };
    });
  }

  async pending(withdrawalId: string, providerTransferId: string): Promise<void> {
    await this.db.kysely
      .updateTable('withdrawals')
      .set({ provider_transfer_id: providerTransferId })
      .where('id', '=', withdrawalId)
      .where('provider_transfer_id', 'is', null)
      .execute();
  }

  /** The payout failed: the money comes back by a reversal credit, and the withdrawal says why. */
  async failed(ref: WithdrawalRef, reason: string): Promise<WithdrawalRow | null> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const w = await this.lock(trx, ref);
      if (!w) return null;
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
      this.log.warn({ withdrawalId: w.id, driverId: w.driver_id, reason }, 'saque falhou; valor devolvido');
      return { ...w, ...patch };
    });
  }

  /** The withdrawal as stored, without a lock: which one an event names, before asking the provider. */
  async find(ref: WithdrawalRef): Promise<WithdrawalRow | null> {
    return this.select(this.db.kysely, ref, false);
  }

  private async lock(trx: Trx, ref: WithdrawalRef): Promise<WithdrawalRow | null> {
    return this.select(trx, ref, true);
  }

  private async select(db: Trx | Db['kysely'], ref: WithdrawalRef, lock: boolean): Promise<WithdrawalRow | null> {
    const byProvider = ref.providerTransferId ?? null;
    const byOurs = ref.withdrawalId ?? null;
    if (!byProvider && !byOurs) return null;
    const row = await db
      .selectFrom('withdrawals')
      .selectAll()
      .where((eb) =>
        eb.or([
          ...(byProvider ? [eb('provider_transfer_id', '=', byProvider)] : []),
          ...(byOurs ? [eb('id', '=', byOurs)] : []),
        ]),
      )
      .limit(1)
      .$call((qb) => (lock ? forUpdate<Database, 'withdrawals', WithdrawalRow>(this.db.dialect)(qb) : qb))
      .executeTakeFirst();
    return row ?? null;
  }
}
