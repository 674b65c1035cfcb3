import type { Trx } from '../../db/connection.js';
import type { PixChargeRow } from '../../db/schema.js';
import { enqueueNotification } from '../notifications/outbox.js';
import type { CycleCharges } from '../pix/handlers.js';
import { cycleOfCharge } from './queries.js';

/** Decision 58: a cycle's Pix charge, credited as a purchase is, under its own name (pix/settlement.ts). */
export const cycleCharges: CycleCharges = {
  async isCycleCharge(trx: Trx, chargeId: string): Promise<boolean> {
    return (await cycleOfCharge(trx, chargeId)) !== null;
  },

  async cyclePaid(trx: Trx, charge: PixChargeRow, posted: boolean): Promise<void> {
    await trx
      .updateTable('pix_automatic_cycles')
      .set({ status: 'PAID' })
      .where('charge_id', '=', charge.id)
      .where('status', '!=', 'PAID')
      .execute();
    if (posted) {
      const notice = { kind: 'pixAutoCyclePaid', cycleId: charge.id, amountCents: charge.amount_cents, receiptId: charge.id } as const;
      await enqueueNotification(trx, charge.driver_id, notice);
    }
  },
};
