import { reaisToCents, STATEMENT_ORIGINS, STATEMENT_PLACE_NAMES } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Trx } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import { forUpdate } from '../../db/lock.js';
import type { Database, PixChargeRow } from '../../db/schema.js';
import { accountId, post } from '../ledger/ledger.js';
import { enqueueNotification } from '../notifications/outbox.js';
import type { CycleCharges } from './handlers.js';

/** Our charge, by our id: the event that named it was already matched to it (founding decision 26). */
export interface ChargeRef {
  chargeId: string;
}

/** No charge answers to the reference: nothing changes (the webhook records it for the operator). */
export type UnknownCharge = 'unknown-charge';
export type ReceivedOutcome = 'credited' | 'already-credited' | 'refunded-before' | 'amount-mismatch' | UnknownCharge;
export type RefundOutcome = 'refunded' | 'refunded-uncredited' | 'already-refunded' | UnknownCharge;
export type PartialRefundOutcome = 'refunded-part' | 'unchanged' | 'not-credited' | UnknownCharge;
export type OverdueOutcome = 'overdue' | 'unchanged' | UnknownCharge;

/**
 * Settles charges, whatever the order and number of deliveries: each event runs in one
 * transaction on the locked charge row, and money moves only through idempotent ledger keys.
 */
export class SettlementService {
  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** Decision 58: the charges of Pix Automático's cycles (modules/pix-automatic, registered in services.ts). */
    private readonly cycles: CycleCharges,
    /** Told of each credit after it commits (decision 76: the free-flow tolls awaiting this money are paid at once). */
    private readonly afterCredit: (driverId: number) => void = () => undefined,
  ) {}

  /** PAYMENT_RECEIVED / PAYMENT_CONFIRMED: credit the driver's own account once. */
  async received(ref: ChargeRef, paidReais: number): Promise<ReceivedOutcome> {
    let credited: number | null = null;
    const outcome = await this.db.kysely.transaction().execute(async (trx): Promise<ReceivedOutcome> => {
      const charge = await this.lock(trx, ref);
      if (!charge) return 'unknown-charge';
      if (!sameAmount(paidReais, charge.amount_cents)) {
        this.log.warn({ chargeId: charge.id, paidReais, amountCents: charge.amount_cents }, 'valor do pagamento difere da cobrança');
        return 'amount-mismatch';
      }
      if (charge.status === 'REFUNDED') return 'refunded-before';
      // Decision 58: a cycle of the recurring top-up is credited as a purchase is, under its own name.
      const automatic = await this.cycles.isCycleCharge(trx, charge.id);
      const result = await post(trx, {
        accountId: await accountId(trx, charge.driver_id, 'own'),
        amountCents: charge.amount_cents,
        origin: automatic ? STATEMENT_ORIGINS.pixAutomaticTopUp : STATEMENT_ORIGINS.pixPurchase,
        event: 'RECEIVED',
        placeName: automatic ? STATEMENT_PLACE_NAMES.pixAutomaticTopUp : STATEMENT_PLACE_NAMES.pixPurchase,
        reference: charge.id,
        idempotencyKey: `pix-charge:${charge.id}:credit`,
      });
      if (charge.status !== 'RECEIVED') {
        await trx.updateTable('pix_charges').set({ status: 'RECEIVED', received_at: nowIso() }).where('id', '=', charge.id).execute();
      }
      if (automatic) await this.cycles.cyclePaid(trx, charge, result.status === 'posted');
      if (!automatic && result.status === 'posted') {
        await enqueueNotification(trx, charge.driver_id, { kind: 'pixReceived', chargeId: charge.id, amountCents: charge.amount_cents });
      }
      if (result.status === 'posted') this.log.info({ chargeId: charge.id, driverId: charge.driver_id }, 'compra de saldo creditada');
      if (result.status === 'posted') credited = charge.driver_id;
      return result.status === 'posted' ? 'credited' : 'already-credited';
    });
    if (credited !== null) this.afterCredit(credited);
    return outcome;
  }

  /** PAYMENT_OVERDUE (or our own expiry): PENDING -> OVERDUE, no money. */
  async overdue(ref: ChargeRef): Promise<OverdueOutcome> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const charge = await this.lock(trx, ref);
      if (!charge) return 'unknown-charge';
      if (charge.status !== 'PENDING') return 'unchanged';
      await trx.updateTable('pix_charges').set({ status: 'OVERDUE' }).where('id', '=', charge.id).execute();
      return 'overdue';
    });
  }

  /**
   * PAYMENT_REFUNDED: the provider gave the money back, so an unguarded debit takes back what
   * was credited and not yet taken back by partial refunds.
   */
  async refunded(ref: ChargeRef): Promise<RefundOutcome> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const charge = await this.lock(trx, ref);
      if (!charge) return 'unknown-charge';
      if (charge.status === 'REFUNDED') return 'already-refunded';
      const credited = charge.status === 'RECEIVED';
      const remaining = charge.amount_cents - charge.refunded_cents;
      if (credited && remaining > 0) await takeBack(trx, charge, remaining, `pix-charge:${charge.id}:refund`);
      const patch = { status: 'REFUNDED' as const, refunded_at: nowIso(), ...(credited ? { refunded_cents: charge.amount_cents } : {}) };
      await trx.updateTable('pix_charges').set(patch).where('id', '=', charge.id).execute();
      this.log.info({ chargeId: charge.id, driverId: charge.driver_id, credited }, 'compra de saldo estornada');
      return credited ? 'refunded' : 'refunded-uncredited';
    });
  }

  /**
   * PAYMENT_PARTIALLY_REFUNDED: `refundedCents` is the provider's total given back so far; only
   * the part not yet taken back leaves the balance (once per total, whatever the deliveries).
   */
  async partiallyRefunded(ref: ChargeRef, refundedCents: number): Promise<PartialRefundOutcome> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const charge = await this.lock(trx, ref);
      if (!charge) return 'unknown-charge';
      if (charge.status === 'REFUNDED') return 'unchanged';
      if (charge.status !== 'RECEIVED') return 'not-credited';
      const amount = charge.amount_cents;
      const target = Math.min(refundedCents, amount);
      const delta = target - charge.refunded_cents;
      if (delta <= 0) return 'unchanged';
      await takeBack(trx, charge, delta, `pix-charge:${charge.id}:refund-upto:${target}`);
      const whole = target === amount;
      const patch = { refunded_cents: target, ...(whole ? { status: 'REFUNDED' as const, refunded_at: nowIso() } : {}) };
      await trx.updateTable('pix_charges').set(patch).where('id', '=', charge.id).execute();
      this.log.info({ chargeId: charge.id, driverId: charge.driver_id, refundedCents: target }, 'compra de saldo estornada em parte');
      return 'refunded-part';
    });
  }

  /** Our charge by our id (an event's externalReference), without a lock. */
  async byId(chargeId: string): Promise<PixChargeRow | null> {
    return (await this.db.kysely.selectFrom('pix_charges').selectAll().where('id', '=', chargeId).executeTakeFirst()) ?? null;
  }

  /** The charge that stored this provider payment id, if any. */
  async byProviderId(providerChargeId: string): Promise<PixChargeRow | null> {
    return (
      (await this.db.kysely.selectFrom('pix_charges').selectAll().where('provider_charge_id', '=', providerChargeId).executeTakeFirst()) ??
      null
    );
  }

  private async lock(trx: Trx, ref: ChargeRef): Promise<PixChargeRow | null> {
    const row = await trx
      .selectFrom('pix_charges')
      .selectAll()
      .where('id', '=', ref.chargeId)
      .$call(forUpdate<Database, 'pix_charges', PixChargeRow>(this.db.dialect))
      .executeTakeFirst();
    return row ?? null;
  }
}

function sameAmount(reais: number, cents: number): boolean {
  try {
    return reaisToCents(reais) === cents;
  } catch {
    return false;
  }
}

/** A refund leaves the driver's balance: an unguarded debit (the provider already gave it back). */
async function takeBack(trx: Trx, charge: PixChargeRow, cents: number, idempotencyKey: string): Promise<void> {
  await post(trx, {
    accountId: await accountId(trx, charge.driver_id, 'own'),
    amountCents: -cents,
    origin: STATEMENT_ORIGINS.pixRefund,
    event: 'REFUND',
    placeName: STATEMENT_PLACE_NAMES.pixRefund,
    reference: charge.id,
    idempotencyKey,
  });
}
