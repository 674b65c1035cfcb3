import { act, render, screen } from '@testing-library/react';
import { afterAll, expect, it, vi } from 'vitest';

/**
 * A screen's dates are UTC−3 by arithmetic until the page is live; then this browser's zone data is
 * checked, and a summer time found there (here one invented for January 2030) shows at once and from
 * the first render of the next visit.
 */
const SUMMER_2030_START = Date.UTC(2030, 0, 6, 3);
const SUMMER_2030_END = Date.UTC(2030, 1, 3, 2);
const RealDateTimeFormat = Intl.DateTimeFormat;
class WithSummer2030 extends RealDateTimeFormat {
  override formatToParts(date?: Date | number): Intl.DateTimeFormatPart[] {
    const time = date === undefined ? Date.now() : Number(date);
    return super.formatToParts(time >= SUMMER_2030_START && time < SUMMER_2030_END ? time + 3_600_000 : time);
  }
}
vi.stubGlobal('Intl', Object.create(Intl, { DateTimeFormat: { value: WithSummer2030 } }));
const { DateTime } = await import('../../src/components/ui/DateTime');
const { startSaoPauloZoneCheck } = await import('../../src/lib/zoneData');
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const DAY = 86_400_000;
const december2027 = Date.UTC(2027, 11, 1);

it('a check made in the last 7 days is not made again', async () => {
  vi.useFakeTimers({ now: december2027, toFake: ['setTimeout', 'Date'] });
  window.localStorage.setItem('fuso_sp_verificado', `${december2027 / DAY - 6}:0`);
  startSaoPauloZoneCheck();
  render(<DateTime value="2030-01-20T15:00:00Z" />);
  await act(async () => {
    await vi.advanceTimersByTimeAsync(5_000);
  });
  expect(screen.getByText('20/01/2030 12:00:00')).toBeInTheDocument();
  expect(window.localStorage.getItem('fuso_sp_verificado')).toBe(`${december2027 / DAY - 6}:0`);
});

it('shows UTC−3 first, then the summer time the zone data reads once the page is idle, and keeps it for the next visit', async () => {
  vi.useFakeTimers({ now: december2027, toFake: ['setTimeout', 'Date'] });
  window.localStorage.setItem('fuso_sp_verificado', `${december2027 / DAY - 7}:0`);
  startSaoPauloZoneCheck();
  render(<DateTime value="2030-01-20T15:00:00Z" />);
  expect(screen.getByText('20/01/2030 12:00:00')).toBeInTheDocument();

  // The check starts in the first idle moment (a second here, without requestIdleCallback) and
  // compares a slice of days per idle moment after it: the first slice does not reach 2030.
  await act(async () => {
    await vi.advanceTimersByTimeAsync(1_000);
  });
  expect(screen.getByText('20/01/2030 12:00:00')).toBeInTheDocument();
  expect(window.localStorage.getItem('fuso_sp_verificado')).toBe(`${december2027 / DAY - 7}:0`);
  await act(async () => {
    await vi.advanceTimersByTimeAsync(1_000);
  });
  expect(screen.getByText('20/01/2030 13:00:00')).toBeInTheDocument();
  expect(window.localStorage.getItem('fuso_sp_verificado')).toBe(`${december2027 / DAY}:1`);
});
