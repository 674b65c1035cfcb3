import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * São Paulo's time is the zone's data: UTC−3 by arithmetic only while a check finds the data agrees.
 * A summer time the data brings back (here one invented for January 2030, UTC−2) is what the portal
 * shows once the check (server start, web page live) has read it, with no code changed.
 */
const SUMMER_2030_START = Date.UTC(2030, 0, 6, 3); // 00:00 of 6 Jan 2030 (UTC−3) becomes 01:00
const SUMMER_2030_END = Date.UTC(2030, 1, 3, 2); // 00:00 of 3 Feb 2030 (UTC−2) goes back to 23:00

const RealDateTimeFormat = Intl.DateTimeFormat;

/** The zone's data as it would read if Brazil brought summer time back in 2030. */
let formattersBuilt = 0;
class WithSummer2030 extends RealDateTimeFormat {
  constructor(...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
    super(...args);
    formattersBuilt += 1;
  }

  override formatToParts(date?: Date | number): Intl.DateTimeFormatPart[] {
    const time = date === undefined ? Date.now() : Number(date);
    return super.formatToParts(time >= SUMMER_2030_START && time < SUMMER_2030_END ? time + 3_600_000 : time);
  }
}

vi.stubGlobal('Intl', Object.create(Intl, { DateTimeFormat: { value: WithSummer2030 } }));
const { checkSaoPauloZoneDataAround, followsSaoPauloZoneData, formatDateTime, onSaoPauloZoneData, saoPauloWallClock } =
  await import('../src/dates.js');
afterAll(() => vi.unstubAllGlobals());

describe("São Paulo's time, from the zone's data", () => {
  it("before a check, reads UTC−3 by arithmetic without building a formatter (a screen's first render)", () => {
    expect(formatDateTime('2026-11-21T19:24:49Z')).toBe('21/11/2026 16:24:49');
    expect(formattersBuilt).toBe(0);
    expect(followsSaoPauloZoneData()).toBe(false);
  });

  it('a check over the days the portal shows finds the summer time, tells once, and every date follows the data', () => {
    const told = vi.fn();
    onSaoPauloZoneData(told);
    // Agreeing days change nothing.
    expect(checkSaoPauloZoneDataAround(Date.UTC(2026, 10, 28))).toBeNull();
    expect(followsSaoPauloZoneData()).toBe(false);
    // Three years ahead of December 2027 reach January 2030: the first day of summer time is named.
    expect(checkSaoPauloZoneDataAround(Date.UTC(2027, 11, 1))?.toISOString()).toBe('2030-01-06T12:00:00.000Z');
    expect(followsSaoPauloZoneData()).toBe(true);
    expect(told).toHaveBeenCalledTimes(1);
    checkSaoPauloZoneDataAround(Date.UTC(2027, 11, 1));
    expect(told).toHaveBeenCalledTimes(1);
  });

  it('shows a summer time the data brings back, from its first second to its last', () => {
    expect(formatDateTime('2030-01-06T02:59:59Z')).toBe('05/01/2030 23:59:59');
    expect(formatDateTime('2030-01-06T03:00:00Z')).toBe('06/01/2030 01:00:00');
    expect(formatDateTime('2030-01-20T15:00:00Z')).toBe('20/01/2030 13:00:00');
    expect(saoPauloWallClock(new Date('2030-02-03T01:59:59Z'))).toMatchObject({ day: 2, hour: 23, minute: 59 });
    expect(formatDateTime('2030-02-03T02:00:00Z')).toBe('02/02/2030 23:00:00');
  });

  it('reads UTC−3 outside it, the same day before and after', () => {
    expect(formatDateTime('2030-01-05T12:00:00Z')).toBe('05/01/2030 09:00:00');
    expect(formatDateTime('2030-02-04T12:00:00Z')).toBe('04/02/2030 09:00:00');
    expect(formatDateTime('2026-11-21T19:24:49Z')).toBe('21/11/2026 16:24:49');
  });
});
