import { performance } from 'node:perf_hooks';
import { followSaoPauloZoneData, formatDateTime } from '@portal/domain';
import { median } from './lib.js';

/**
 * São Paulo's date and time written for many instants: the domain's formatDateTime following the
 * zone's data (through Intl, the offset kept per day: what a summer time found by the zone check
 * switches to) against the UTC−3 arithmetic it uses while the data agrees, copied here as the
 * baseline, over the same instants in alternating rounds.
 */

/** 00:00 of 17 February 2019 (UTC−2): the last summer time's end, from which the arithmetic read UTC−3. */
const LAST_SUMMER_TIME_END_MS = Date.UTC(2019, 1, 17, 2);
const twoDigits = (n: number) => String(n).padStart(2, '0');

/** The replaced formatDateTime, for instants from 2019 on (the bench's instants are). */
function formatByArithmetic(instant: Date): string {
  if (Number.isNaN(instant.getTime()) || instant.getTime() < LAST_SUMMER_TIME_END_MS) throw new Error('out of the baseline');
  const local = new Date(instant.getTime() - 3 * 3_600_000);
  return `${twoDigits(local.getUTCDate())}/${twoDigits(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} ${twoDigits(local.getUTCHours())}:${twoDigits(local.getUTCMinutes())}:${twoDigits(local.getUTCSeconds())}`;
}

/** `count` instants spread at random over `days` days from `start` (a seeded generator), in random or date order. */
function instants(count: number, days: number, start: number, inDateOrder: boolean): Date[] {
  let seed = 34;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const dates = Array.from({ length: count }, () => new Date(start + Math.floor(next() * days * 86_400_000)));
  return inDateOrder ? dates.sort((a, b) => a.getTime() - b.getTime()) : dates;
}

function timeMs(format: (d: Date) => string, dates: Date[]): number {
  const started = performance.now();
  let length = 0;
  for (const d of dates) length += format(d).length;
  if (length === 0) throw new Error('nothing written');
  return performance.now() - started;
}

export interface DatesSpan {
  label: string;
  days: number;
  arithmeticMs: number;
  zoneDataMs: number;
  /** zone data / arithmetic, median of the rounds' ratios. */
  ratio: number;
  ratios: number[];
}

export async function benchDates(
  count: number,
  rounds: number,
): Promise<{ count: number; rounds: number; firstCallMs: number; spans: DatesSpan[] }> {
  followSaoPauloZoneData();
  const start = Date.UTC(2019, 2, 1);
  const firstStarted = performance.now();
  formatDateTime(new Date(start));
  const firstCallMs = performance.now() - firstStarted;
  const spans: DatesSpan[] = [];
  for (const [label, days, inDateOrder] of [
    ['one year, in random order', 365, false],
    ['seven years in date order (an export)', 7 * 365, true],
    ['seven years in random order (fewer days than the 4,096 kept)', 7 * 365, false],
    ['twenty years in random order (more days than kept: the worst case)', 20 * 365, false],
  ] as const) {
    const dates = instants(count, days, start, inDateOrder);
    const differ = dates.find((d) => formatDateTime(d) !== formatByArithmetic(d));
    if (differ) throw new Error(`the zone's data and UTC−3 disagree at ${differ.toISOString()}`);
    const arithmetic: number[] = [];
    const zoneData: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const a = timeMs(formatByArithmetic, dates);
      const z = timeMs(formatDateTime, dates);
      arithmetic.push(a);
      zoneData.push(z);
      ratios.push(z / a);
    }
    spans.push({ label, days, arithmeticMs: median(arithmetic), zoneDataMs: median(zoneData), ratio: median(ratios), ratios });
  }
  return { count, rounds, firstCallMs, spans };
}
