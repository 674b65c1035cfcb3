import { PAYOUT_PASSWORD_MAX_FAILURES, PAYOUT_PASSWORD_WINDOW_MINUTES, payoutMessages, refuse } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { RateLimitStore } from '../../db/rate-limit-store.js';
import type { Database } from '../../db/schema.js';
import type { PasswordHasher } from './passwords.js';

/** One counter for every 'your password again' (a new Pix key, a correction of the driver's data). */
const SCOPE = 'payout-password';

export function minutesUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

/**
 * The signed-in driver's password asked again before a change a thief with the session must not
 * make (decision 44): PAYOUT_PASSWORD_MAX_FAILURES wrong ones a window, then 429; a right one gives
 * its attempt back. Refusals are 422 on `field`.
 */
export class PasswordConfirmation {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly passwords: PasswordHasher,
    private readonly counters: RateLimitStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  async check(driverId: number, password: string | undefined, missing: { message: string; field: string }): Promise<void> {
    if (!password) throw refuse.invalid(missing.message, missing.field);
    const windowMs = PAYOUT_PASSWORD_WINDOW_MINUTES * 60_000;
    const take = await this.counters.take(SCOPE, String(driverId), PAYOUT_PASSWORD_MAX_FAILURES, windowMs);
    if (!take.allowed) {
      this.log.warn({ driverId }, 'confirmação de senha bloqueada por tentativas');
      throw refuse.tooMany(payoutMessages.passwordThrottled(minutesUntil(take.retryAfterMs)), Math.ceil(take.retryAfterMs / 1000));
    }
    const row = await this.db.selectFrom('drivers').select('password_hash').where('id', '=', driverId).executeTakeFirstOrThrow();
    if (!(await this.passwords.verify(row.password_hash, password))) {
      this.log.warn({ driverId }, 'senha incorreta ao confirmar uma alteração');
      throw refuse.invalid(payoutMessages.passwordWrong, missing.field);
    }
    await this.counters.giveBack(take.window);
  }
}
