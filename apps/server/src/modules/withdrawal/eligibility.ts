import { serverMessages } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TermsService } from '../terms/service.js';

/** GET /api/motorista/verificar-saque: null when the driver may withdraw, else the reason. */
export class WithdrawalEligibility {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly terms: TermsService,
  ) {}

  async refusal(driverId: number): Promise<string | null> {
    const status = await this.terms.status(driverId);
    if (status?.action !== 'aceite') return serverMessages.withdrawal.termsNotAccepted;
    return this.processingRefusal(driverId);
  }

  /** A withdrawal still under way: the only reason left once the route checked the terms (decision 45). */
  async processingRefusal(driverId: number): Promise<string | null> {
    const processing = await this.db
      .selectFrom('withdrawals')
      .select('id')
      .where('driver_id', '=', driverId)
      .where('status', '=', 'PROCESSING')
      .limit(1)
      .executeTakeFirst();
    return processing ? serverMessages.withdrawal.alreadyProcessing : null;
  }
}
