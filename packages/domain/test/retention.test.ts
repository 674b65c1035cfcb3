import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calendarMonthsCutoff, calendarMonthsLastDay, saoPauloDay } from '../src/index.js';

/** An instant of a São Paulo wall clock (UTC−3 since 2019). */
const sp = (wall: string) => new Date(`${wall}-03:00`);

describe('periods of calendar months (Código Civil art. 132, § 3)', () => {
  it('a period ends on the day of the same number, or the next day when the month has none', () => {
    expect(calendarMonthsLastDay(sp('2026-01-10T09:00:00'), 6)).toBe('2026-07-10');
    expect(calendarMonthsLastDay(sp('2026-03-31T23:59:00'), 6)).toBe('2026-10-01');
    expect(calendarMonthsLastDay(sp('2026-08-31T12:00:00'), 6)).toBe('2027-03-01');
    expect(calendarMonthsLastDay(sp('2027-08-29T12:00:00'), 6)).toBe('2028-02-29');
    // São Paulo's day, not UTC's: 22:00 on 31 March is 01:00 UTC on 1 April.
    expect(calendarMonthsLastDay(sp('2026-03-31T22:00:00'), 6)).toBe('2026-10-01');
    expect(calendarMonthsLastDay(sp('2026-12-15T08:00:00'), 60)).toBe('2031-12-15');
  });

  it('a record stays through the whole of its last day and may go at the next São Paulo midnight', () => {
    const written = sp('2026-03-31T10:00:00');
    // Its 6 months end on 1 October (no 31 September): kept all of that day.
    expect(written < calendarMonthsCutoff(sp('2026-10-01T23:59:59'), 6)).toBe(false);
    expect(written < calendarMonthsCutoff(sp('2026-10-02T00:00:00'), 6)).toBe(true);
    const march30 = sp('2026-03-30T10:00:00');
    expect(march30 < calendarMonthsCutoff(sp('2026-09-30T23:59:59'), 6)).toBe(false);
    expect(march30 < calendarMonthsCutoff(sp('2026-10-01T00:00:00'), 6)).toBe(true);
    expect(calendarMonthsCutoff(sp('2026-10-01T00:00:00'), 6).toISOString()).toBe('2026-03-31T03:00:00.000Z');
  });

  it('for every instant written and every now: past the cutoff exactly when its last day is over', () => {
    const start = Date.UTC(2025, 0, 1);
    const span = 3 * 366 * 86_400_000;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: span }),
        fc.integer({ min: 0, max: span }),
        fc.integer({ min: 0, max: 72 }),
        (writtenOffset, laterBy, months) => {
          const written = new Date(start + writtenOffset);
          const now = new Date(written.getTime() + laterBy);
          const over = calendarMonthsLastDay(written, months) < saoPauloDay(now);
          return written < calendarMonthsCutoff(now, months) === over;
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('refuses a negative or fractional number of months', () => {
    expect(() => calendarMonthsCutoff(new Date(), -1)).toThrow(RangeError);
    expect(() => calendarMonthsCutoff(new Date(), 1.5)).toThrow(RangeError);
  });
});
