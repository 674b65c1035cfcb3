import type { PayoutLimitKind, PixKeyType } from '@portal/domain';
import { nightPeriod, payoutLimitError, payoutMessages, refuse, saoPauloDayWindow, serverMessages } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Dialect, Trx } from '../../db/connection.js';
import { lockDriver } from '../../db/lock.js';
import type { Database } from '../../db/schema.js';
import { minutesUntil, type PasswordConfirmation } from '../auth/confirmation.js';
import type { SavedKey } from './keys.js';
import { inFirstHours, isOwnKey, newKeyEnd, PixKeyStore } from './keys.js';
import { inForce, PayoutLimitStore } from './limits.js';
import { askedSince, sentBetween } from './usage.js';

/** Per-driver limits on the calls that cost the operator money (issue 21, point 4). */
export interface DriverCallLimits {
  withdrawalsPerHour: number;
  chargesPerHour: number;
  chargesPending: number;
}

const HOUR_MS = 3_600_000;

/** Which key a withdrawal goes to, as the guard sees it: the driver's own, a saved one, or confirmed now. */
export type KeyTrust = { kind: 'own' } | { kind: 'saved'; saved: SavedKey };

/**
 * Decision 44: a payout a thief with a session cannot take. A key not saved needs the password
 * again (and is saved by it); a key in its first 24 hours receives at most R$ 500,00; limits per
 * withdrawal, day and night; withdrawals per hour. The limits are weighed inside the withdrawal's
 * own transaction, on the driver's locked row, so concurrent withdrawals cannot pass one together.
 */
export class PayoutGuard {
  readonly keys: PixKeyStore;
  readonly limits: PayoutLimitStore;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly confirmation: PasswordConfirmation,
    private readonly calls: DriverCallLimits,
    limitDefaults: Readonly<Record<PayoutLimitKind, number>>,
    private readonly log: FastifyBaseLogger,
    readonly now: () => Date = () => new Date(),
  ) {
    this.keys = new PixKeyStore(db);
    this.limits = new PayoutLimitStore(db, limitDefaults);
  }

  /**
   * The key's standing; a key not saved is saved here when the password is right (else 422 on senha).
   * The password is the one of whoever acts (`confirmerId`): on a company's account, the member's own (decision 77).
   */
  async trustKey(
    driver: { id: number; cpfCnpj: string },
    keyType: PixKeyType,
    key: string,
    password: string | undefined,
    confirmerId: number = driver.id,
  ): Promise<KeyTrust> {
    if (isOwnKey(driver.cpfCnpj, keyType, key)) return { kind: 'own' };
    const saved = await this.keys.find(this.db, driver.id, keyType, key);
    if (saved) return { kind: 'saved', saved };
    const result = await this.saveWithPassword(driver.id, keyType, key, password, 'pix.key', confirmerId);
    return { kind: 'saved', saved: result.key };
  }

  /** A key saved once the password is right (saving it again keeps its first date); `field` names it in a refusal. */
  async saveWithPassword(
    driverId: number,
    keyType: PixKeyType,
    key: string,
    password: string | undefined,
    field: string,
    confirmerId: number = driverId,
  ): Promise<{ key: SavedKey; created: boolean }> {
    await this.confirmation.check(confirmerId, password, { message: payoutMessages.passwordRequired, field: 'senha' });
    const result = await this.keys.save(driverId, keyType, key, this.now());
    if (result === 'full') throw refuse.invalid(payoutMessages.tooManyKeys, field);
    if (result.created) this.log.warn({ driverId, keyType, pixKeyId: result.key.id }, 'nova chave Pix salva pelo motorista');
    return result;
  }

  /**
   * Inside the withdrawal's transaction, before its debit: the driver's row is locked (PostgreSQL;
   * SQLite runs one write transaction at a time), so what was sent is read and the new one written
   * by one transaction at a time.
   */
  async weigh(
    trx: Trx,
    driverId: number,
    order: { amountCents: number; keyType: PixKeyType; key: string },
    trust: KeyTrust,
  ): Promise<void> {
    await lockDriver(trx, this.dialect, driverId);
    // Read after the lock: a withdrawal that held it meanwhile was written later than a clock read before.
    const now = this.now();
    const asked = await askedSince(trx, driverId, new Date(now.getTime() - HOUR_MS));
    if (asked.length >= this.calls.withdrawalsPerHour) {
      const freesInMs = new Date(asked[0] ?? now.toISOString()).getTime() + HOUR_MS - now.getTime();
      throw refuse.tooMany(serverMessages.payouts.tooManyWithdrawals(minutesUntil(freesInMs)), Math.ceil(freesInMs / 1000));
    }
    const limits = inForce(await this.limits.read(trx, driverId, now));
    const day = saoPauloDayWindow(now);
    const night = nightPeriod(now);
    const newKey = trust.kind === 'saved' && inFirstHours(trust.saved, now) ? trust.saved : null;
    const [usedTodayCents, usedTonightCents, newKeyUsed] = await Promise.all([
      sentBetween(trx, driverId, day.start, day.end),
      night ? sentBetween(trx, driverId, night.start, night.end) : Promise.resolve(0),
      newKey
        ? sentBetween(trx, driverId, newKey.savedAt, newKeyEnd(newKey), { keyType: order.keyType, key: order.key })
        : Promise.resolve(0),
    ]);
    const message = payoutLimitError({
      amountCents: order.amountCents,
      now,
      limits,
      usedTodayCents,
      usedTonightCents,
      newKey: newKey ? { savedAt: newKey.savedAt, usedCents: newKeyUsed } : null,
    });
    if (message) throw refuse.invalid(message, 'amount');
  }
}
