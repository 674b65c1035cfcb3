import type { PayoutLimits, SavedPixKey } from '@portal/contract';
import { api, PAYOUT_LIMIT_FIELDS } from '@portal/contract';
import type { PayoutLimitKind } from '@portal/domain';
import { centsToReais, formatBrl, formatDateTime, isPixKeyType, nightPeriod, NEW_PIX_KEY_CAP_CENTS, normalizePixKey, PAYOUT_LIMIT_KINDS, payoutLimitLabels, payoutMessages, reaisToCents, saoPauloDayWindow } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { fieldError, notFound } from '../../http/errors.js';
import { driverRoute } from '../../http/route.js';
import type { PayoutGuard } from './guard.js';
import type { SavedKey } from './keys.js';
import { inFirstHours, isOwnKey, newKeyEnd, ownKey } from './keys.js';
import type { PayoutLimitStates } from './limits.js';
import { sentBetween } from './usage.js';

/** 'Minhas chaves Pix' and the withdrawal limits (decision 44): Configurações reads and changes them here. */
export function payoutRoutes(app: FastifyInstance, db: Kysely<Database>, guard: PayoutGuard): void {
  const keyView = async (driverId: number, saved: SavedKey): Promise<SavedPixKey> => {
    const now = guard.now();
    const capped = inFirstHours(saved, now);
    const used = capped ? await sentBetween(db, driverId, saved.savedAt, newKeyEnd(saved), saved) : 0;
    return {
      id: saved.id,
      tipo: saved.keyType,
      chave: saved.key,
      propria: false,
      salvaEm: saved.savedAt.toISOString(),
      limitadaAte: capped ? newKeyEnd(saved).toISOString() : null,
      restanteLimitada: capped ? centsToReais(Math.max(0, NEW_PIX_KEY_CAP_CENTS - used)) : null,
    };
  };

  driverRoute(app, api.pixKeys, async ({ driver }) => {
    const own = ownKey(driver.cpfCnpj);
    const saved = await guard.keys.list(driver.id);
    return {
      Sucesso: true,
      Mensagem: payoutMessages.ok,
      Chaves: [
        { id: null, tipo: own.keyType, chave: own.key, propria: true, salvaEm: null, limitadaAte: null, restanteLimitada: null },
        ...(await Promise.all(saved.map((k) => keyView(driver.id, k)))),
      ],
    };
  });

  driverRoute(
    app,
    api.savePixKey,
    async ({ driver, body }) => {
      if (!isPixKeyType(body.tipo)) throw fieldError('tipo', payoutMessages.keyNotFound);
      const key = normalizePixKey(body.tipo, body.chave);
      if (isOwnKey(driver.cpfCnpj, body.tipo, key)) throw fieldError('chave', payoutMessages.ownKeyAlready);
      await guard.checkPassword(driver.id, body.senha);
      const result = await guard.keys.save(driver.id, body.tipo, key, guard.now());
      if (result === 'full') throw fieldError('chave', payoutMessages.tooManyKeys);
      if (result.created) app.log.warn({ driverId: driver.id, keyType: body.tipo, pixKeyId: result.key.id }, 'nova chave Pix salva pelo motorista');
      return { Sucesso: true, Mensagem: result.created ? payoutMessages.keySaved : payoutMessages.keyAlreadySaved, Chave: await keyView(driver.id, result.key) };
    },
    { status: 201 },
  );

  driverRoute(app, api.removePixKey, async ({ driver, params }) => {
    if (!(await guard.keys.remove(driver.id, params.id))) throw notFound(payoutMessages.keyNotFound);
    app.log.info({ driverId: driver.id, pixKeyId: params.id }, 'chave Pix removida pelo motorista');
    return { Sucesso: true, Mensagem: payoutMessages.keyRemoved };
  });

  const limitsView = async (driverId: number, states: PayoutLimitStates): Promise<PayoutLimits> => {
    const now = guard.now();
    const day = saoPauloDayWindow(now);
    const night = nightPeriod(now);
    const [today, tonight] = await Promise.all([sentBetween(db, driverId, day.start, day.end), night ? sentBetween(db, driverId, night.start, night.end) : 0]);
    const view = (kind: PayoutLimitKind) => {
      const s = states[kind];
      return { valor: centsToReais(s.valueCents), pendente: s.pending ? { valor: centsToReais(s.pending.valueCents), vigenteEm: s.pending.effectiveAt.toISOString() } : null };
    };
    return { porSaque: view('perWithdrawal'), diario: view('daily'), noturno: view('night'), usadoHoje: centsToReais(today), usadoNestaNoite: centsToReais(tonight) };
  };

  driverRoute(app, api.payoutLimits, async ({ driver }) => ({
    Sucesso: true,
    Mensagem: payoutMessages.ok,
    Limites: await limitsView(driver.id, await guard.limits.read(db, driver.id, guard.now())),
  }));

  driverRoute(app, api.updatePayoutLimits, async ({ driver, body }) => {
    const requested = Object.fromEntries(PAYOUT_LIMIT_KINDS.map((kind) => [kind, reaisToCents(body[PAYOUT_LIMIT_FIELDS[kind]])])) as Record<PayoutLimitKind, number>;
    const states = await guard.limits.change(driver.id, requested, guard.now());
    const raises = PAYOUT_LIMIT_KINDS.flatMap((kind) => {
      const pending = states[kind].pending;
      return pending ? [payoutMessages.raiseWaits(payoutLimitLabels[kind], formatBrl(pending.valueCents), formatDateTime(pending.effectiveAt))] : [];
    });
    app.log.info({ driverId: driver.id, raises: raises.length }, 'limites de saque alterados');
    return { Sucesso: true, Mensagem: raises.length > 0 ? payoutMessages.limitsSavedRaises(raises.join(' ')) : payoutMessages.limitsSaved, Limites: await limitsView(driver.id, states) };
  });
}
