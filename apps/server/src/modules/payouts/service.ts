import type { PayoutLimits, SavedPixKey } from '@portal/contract';
import { PAYOUT_LIMIT_FIELDS } from '@portal/contract';
import type { PayoutLimitKind } from '@portal/domain';
import {
  centsToReais,
  formatBrl,
  formatDateTime,
  isPixKeyType,
  messages,
  nightPeriod,
  NEW_PIX_KEY_CAP_CENTS,
  normalizePixKey,
  PAYOUT_LIMIT_KINDS,
  payoutLimitLabels,
  payoutMessages,
  reaisToCents,
  refuse,
  saoPauloDayWindow,
} from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { PayoutGuard } from './guard.js';
import type { SavedKey } from './keys.js';
import { inFirstHours, isOwnKey, newKeyEnd, ownKey } from './keys.js';
import type { PayoutLimitStates } from './limits.js';
import { sentBetween } from './usage.js';

/** The limits as a driver sets them: reais per kind, by the contract's field names. */
type LimitsRequest = Record<(typeof PAYOUT_LIMIT_FIELDS)[PayoutLimitKind], number>;

/**
 * 'Minhas chaves Pix' and the withdrawal limits as Configurações reads and changes them
 * (decision 44); the guard (guard.ts) weighs them on every withdrawal.
 */
export class PayoutService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly guard: PayoutGuard,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The driver's own CPF/CNPJ key first, then the saved ones. */
  async keys(driver: { id: number; cpfCnpj: string }): Promise<SavedPixKey[]> {
    const own = ownKey(driver.cpfCnpj);
    const saved = await this.guard.keys.list(driver.id);
    return [
      { id: null, tipo: own.keyType, chave: own.key, propria: true, salvaEm: null, limitadaAte: null, restanteLimitada: null },
      ...(await Promise.all(saved.map((k) => this.keyView(driver.id, k)))),
    ];
  }

  /** Saves a key with the password (422 on the field otherwise); saving it again changes nothing. */
  async saveKey(
    driver: { id: number; cpfCnpj: string },
    keyType: string,
    rawKey: string,
    password: string | undefined,
    confirmerId: number = driver.id,
  ): Promise<{ created: boolean; key: SavedPixKey }> {
    if (!isPixKeyType(keyType)) throw refuse.invalid(messages.withdrawal.keyTypeRequired, 'tipo');
    const key = normalizePixKey(keyType, rawKey);
    if (isOwnKey(driver.cpfCnpj, keyType, key)) throw refuse.invalid(payoutMessages.ownKeyAlready, 'chave');
    const result = await this.guard.saveWithPassword(driver.id, keyType, key, password, 'chave', confirmerId);
    return { created: result.created, key: await this.keyView(driver.id, result.key) };
  }

  async removeKey(driverId: number, keyId: number): Promise<void> {
    if (!(await this.guard.keys.remove(driverId, keyId))) throw refuse.notFound(payoutMessages.keyNotFound);
    this.log.info({ driverId, pixKeyId: keyId }, 'chave Pix removida pelo motorista');
  }

  async limits(driverId: number): Promise<PayoutLimits> {
    return this.limitsView(driverId, await this.guard.limits.read(this.db, driverId, this.guard.now()));
  }

  /** A lowering applies at once; a raise waits (its message says until when). */
  async changeLimits(driverId: number, body: LimitsRequest): Promise<{ message: string; limits: PayoutLimits }> {
    const requested = Object.fromEntries(PAYOUT_LIMIT_KINDS.map((kind) => [kind, reaisToCents(body[PAYOUT_LIMIT_FIELDS[kind]])])) as Record<
      PayoutLimitKind,
      number
    >;
    const states = await this.guard.limits.change(driverId, requested, this.guard.now());
    const raises = PAYOUT_LIMIT_KINDS.flatMap((kind) => {
      const pending = states[kind].pending;
      return pending
        ? [payoutMessages.raiseWaits(payoutLimitLabels[kind], formatBrl(pending.valueCents), formatDateTime(pending.effectiveAt))]
        : [];
    });
    this.log.info({ driverId, raises: raises.length }, 'limites de saque alterados');
    const message = raises.length > 0 ? payoutMessages.limitsSavedRaises(raises.join(' ')) : payoutMessages.limitsSaved;
    return { message, limits: await this.limitsView(driverId, states) };
  }

  private async keyView(driverId: number, saved: SavedKey): Promise<SavedPixKey> {
    const now = this.guard.now();
    const capped = inFirstHours(saved, now);
    const used = capped ? await sentBetween(this.db, driverId, saved.savedAt, newKeyEnd(saved), saved) : 0;
    return {
      id: saved.id,
      tipo: saved.keyType,
      chave: saved.key,
      propria: false,
      salvaEm: saved.savedAt.toISOString(),
      limitadaAte: capped ? newKeyEnd(saved).toISOString() : null,
      restanteLimitada: capped ? centsToReais(Math.max(0, NEW_PIX_KEY_CAP_CENTS - used)) : null,
    };
  }

  private async limitsView(driverId: number, states: PayoutLimitStates): Promise<PayoutLimits> {
    const now = this.guard.now();
    const day = saoPauloDayWindow(now);
    const night = nightPeriod(now);
    const [today, tonight] = await Promise.all([
      sentBetween(this.db, driverId, day.start, day.end),
      night ? sentBetween(this.db, driverId, night.start, night.end) : 0,
    ]);
    const view = (kind: PayoutLimitKind) => {
      const s = states[kind];
      return {
        valor: centsToReais(s.valueCents),
        pendente: s.pending ? { valor: centsToReais(s.pending.valueCents), vigenteEm: s.pending.effectiveAt.toISOString() } : null,
      };
    };
    return {
      porSaque: view('perWithdrawal'),
      diario: view('daily'),
      noturno: view('night'),
      usadoHoje: centsToReais(today),
      usadoNestaNoite: centsToReais(tonight),
    };
  }
}
