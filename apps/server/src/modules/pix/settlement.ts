import { messages, reaisToCents, STATEMENT_ORIGINS, STATEMENT_PLACE_NAMES } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import { forUpdate } from '../../db/lock.js';
import type { PixChargeRow } from '../../db/schema.js';
import { HttpError, notFound } from '../../http/errors.js';
import type { Trx } from '../ledger/ledger.js';
import { accountId, post } from '../ledger/ledger.js';

/** How the provider names a charge: its own id, or ours (externalReference). */
export interface ChargeRef {
  providerChargeId?: string | null;
  chargeId?: string | null;
}

export type ReceivedOutcome = 'credited' | 'already-credited' | 'refunded-before';
export type RefundOutcome = 'refunded' | 'refunded-uncredited' | 'already-refunded';
export type OverdueOutcome = 'overdue' | 'unchanged';

/**
 * Settles charges, whatever the order and number of deliveries: each event runs in one
 * transaction on the locked charge row, and money moves only through idempotent ledger keys.
 */
export class SettlementService {
  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** PAYMENT_RECEIVED / PAYMENT_CONFIRMED: credit the driver's own account once. */
  async received(ref: ChargeRef, paidReais: number): Promise<ReceivedOutcome> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const charge = await this.lock(trx, ref);
      if (!sameAmount(paidReais, Number(charge.amount_cents))) {
        this.log.warn({ chargeId: charge.id, paidReais, amountCents: Number(charge.amount_cents) }, 'valor do pagamento difere da cobrança');
        throw new HttpError(422, messages.pix.webhookAmountMismatch);
      }
      if (charge.status === 'REFUNDED') return 'refunded-before';
      const result = await post(trx, {
        accountId: await accountId(trx, charge.driver_id, 'own'),
        amountCents: Number(charge.amount_cents),
        origin: STATEMENT_ORIGINS.pixPurchase,
        event: 'RECEIVED',
        placeName: STATEMENT_PLACE_NAMES.pixPurchase,
        reference: charge.id,
        idempotencyKey: `pix-charge:${charge.id}:credit`,
      });
      if (charge.status !== 'RECEIVED') {
        await trx.updateTable('pix_charges').set({ status: 'RECEIVED', received_at: nowIso() }).where('id', '=', charge.id).execute();
      }
      if (result.status === 'posted') this.log.info({ chargeId: charge.id, driverId: charge.driver_id }, 'compra de saldo creditada');
      return result.status === 'posted' ? 'credited' : 'already-credited';
    });
  }

  /** PAYMENT_OVERDUE (or our own expiry): PENDING -> OVERDUE, no money. */
  async overdue(ref: ChargeRef): Promise<OverdueOutcome> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const charge = await this.lock(trx, ref);
      if (charge.status !== 'PENDING') return 'unchanged';
      await trx.updateTable('pix_charges').set({ status: 'OVERDUE' }).where('id', '=', charge.id).execute();
      return 'overdue';
    });
  }

  /** PAYMENT_REFUNDED: the provider gave the money back, so an unguarded debit takes the credit back. */
  async refunded(ref: ChargeRef): Promise<RefundOutcome> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const charge = await this.lock(trx, ref);
      if (charge.status === 'REFUNDED') return 'already-refunded';
      const credited = charge.status === 'RECEIVED';
      if (credited) {
        await post(trx, {
          accountId: await accountId(trx, charge.driver_id, 'own'),
          amountCents: -Number(charge.amount_cents),
          origin: STATEMENT_ORIGINS.pixRefund,
          event: 'REFUND',
          placeName: STATEMENT_PLACE_NAMES.pixRefund,
          reference: charge.id,
          idempotencyKey: `pix-charge:${charge.id}:refund`,
        });
      }
      await trx.updateTable('pix_charges').set({ status: 'REFUNDED', refunded_at: nowIso() }).where('id', '=', charge.id).execute();
      this.log.info({ chargeId: charge.id, driverId: charge.driver_id, credited }, 'compra de saldo estornada');
      return credited ? 'refunded' : 'refunded-uncredited';
    });
  }

  private async lock(trx: Trx, ref: ChargeRef): Promise<PixChargeRow> {
    const byProvider = ref.providerChargeId ?? null;
    const byOurs = ref.chargeId ?? null;
    if (!byProvider && !byOurs) throw notFound(messages.pix.chargeNotFound);
    const row = await trx
      .selectFrom('pix_charges')
      .selectAll()
      .where((eb) =>
        eb.or([
          ...(byProvider ? [eb('provider_charge_id', '=', byProvider)] : []),
          ...(byOurs ? [eb('id', '=', byOurs)] : []),
        ]),
      )
      .limit(1)
      .$call(forUpdate(this.db.dialect))
      .executeTakeFirst();
    if (!row) throw notFound(messages.pix.chargeNotFound);
    return row;
  }
}

function sameAmount(reais: number, cents: number): boolean {
  try {
    return reaisToCents(reais) === cents;
  } catch {
    return false;
  }
}
