import { ERROR_CODES } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TermsService } from '../terms/service.js';

/** Why the driver may not withdraw now; `code` names a refusal for the terms (issue 25). */
export interface WithdrawalRefusal {
  Mensagem: string;
  code?: typeof ERROR_CODES.termsNotAccepted;
}

/** GET /api/motorista/verificar-saque: null when the driver may withdraw, else the reason. */
export class WithdrawalEligibility {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly terms: TermsService,
  ) {}

  async refusal(driverId: number): Promise<WithdrawalRefusal | null> {
    const status = await this.terms.status(driverId);
    if (status?.action !== 'aceite') return { Mensagem: serverMessages.withdrawal.termsNotAccepted, code: ERROR_CODES.termsNotAccepted };
    const processing = await this.processingRefusal(driverId);
    return processing === null ? null : { Mensagem: processing };
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
