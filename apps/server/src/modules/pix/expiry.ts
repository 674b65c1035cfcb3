import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { PixProvider } from '../../adapters/pix/port.js';
import { nowIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';

export interface ExpiredCharge {
  id: string;
  provider: string;
  provider_charge_id: string;
}

/**
 * A charge expires here after PIX_CHARGE_TTL_MINUTES (founding decision 14) while Asaas would take its
 * QR code for a year: once OVERDUE here it is cancelled there. A failure only logs; pix:reconcile
 * retries every OVERDUE charge not yet cancelled, and a payment that still arrives is credited.
 */
export class ChargeExpiry {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly provider: PixProvider,
    private readonly log: FastifyBaseLogger,
  ) {}

  async cancelAtProvider(charge: ExpiredCharge): Promise<'cancelled' | 'refused' | 'failed' | 'other-provider'> {
    if (charge.provider !== this.provider.name) return 'other-provider';
    try {
      if (!(await this.provider.cancelCharge(charge.provider_charge_id))) {
        this.log.info({ chargeId: charge.id }, 'provedor recusou cancelar a cobrança vencida (paga ou já removida?)');
        return 'refused';
      }
    } catch (error) {
      this.log.warn({ err: error, chargeId: charge.id }, 'falha ao cancelar no provedor a cobrança vencida');
      return 'failed';
    }
    await this.markCancelled(charge.id);
    return 'cancelled';
  }

  async markCancelled(chargeId: string): Promise<void> {
    await this.db
      .updateTable('pix_charges')
      .set({ provider_cancelled_at: nowIso() })
      .where('id', '=', chargeId)
      .where('provider_cancelled_at', 'is', null)
      .execute();
  }
}
