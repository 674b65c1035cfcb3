import { describe, expect, it } from 'vitest';
import { changePayoutLimit, PAYOUT_LIMIT_RAISE_HOURS, payoutLimitAt } from '../src/index.js';

const HOUR = 3_600_000;
const asked = new Date('2026-11-25T12:00:00-03:00');
const later = new Date(asked.getTime() + 2 * HOUR);

describe('changePayoutLimit (decision 44)', () => {
  it('a lowering is in force at once and drops a raise waiting', () => {
    const waiting = changePayoutLimit({ valueCents: 100_000, pending: null }, 300_000, asked);
    expect(changePayoutLimit(waiting, 50_000, later)).toEqual({ valueCents: 50_000, pending: null });
  });

  it('a raise waits PAYOUT_LIMIT_RAISE_HOURS, then is the value in force', () => {
    const waiting = changePayoutLimit({ valueCents: 100_000, pending: null }, 300_000, asked);
    expect(waiting).toEqual({
      valueCents: 100_000,
      pending: { valueCents: 300_000, effectiveAt: new Date(asked.getTime() + PAYOUT_LIMIT_RAISE_HOURS * HOUR) },
    });
    expect(payoutLimitAt(waiting, new Date(asked.getTime() + PAYOUT_LIMIT_RAISE_HOURS * HOUR))).toEqual({
      valueCents: 300_000,
      pending: null,
    });
  });

  it('the same raise asked again (Configurações sends the three limits) keeps its time; another raise starts again', () => {
    const waiting = changePayoutLimit({ valueCents: 100_000, pending: null }, 300_000, asked);
    expect(changePayoutLimit(waiting, 300_000, later)).toEqual(waiting);
    expect(changePayoutLimit(waiting, 400_000, later).pending).toEqual({
      valueCents: 400_000,
      effectiveAt: new Date(later.getTime() + PAYOUT_LIMIT_RAISE_HOURS * HOUR),
    });
  });
});
