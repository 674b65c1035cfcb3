import { saoPauloWallClock } from './dates.js';
import { saoPauloMidnight } from './statement.js';

/**
 * Marco Civil da Internet (Lei 12.965/2014), art. 15: an application keeps its access records for
 * 6 months; the least RETENTION_ACCESS_RECORDS_MONTHS may be.
 */
export const ACCESS_RECORDS_MIN_MONTHS = 6;

/**
 * Decision 71: the first instant from which whatever was written before is past a period of `months`
 * calendar months, at `now`. Código Civil art. 132: the first day is not counted and the last is;
 * § 3: a period of months ends on the day of the same number, or the next one when that month has
 * no such day (31 March + 6 months ends on 1 October). Days are São Paulo's.
 *
 * A row written on day d is past its period once its last day is over, that is from the São Paulo
 * midnight that starts the day after it. The answer is the midnight after the latest d whose last
 * day is over by `now`: rows written before it may go (a `< cutoff` comparison).
 */
export function calendarMonthsCutoff(now: Date, months: number): Date {
  if (!Number.isInteger(months) || months < 0) throw new RangeError(`meses inválidos: ${months}`);
  const today = saoPauloWallClock(now);
  // The latest last day already over is yesterday; the latest d whose period ends by then is yesterday
  // less `months` months, on the month's last day when it has no day of that number.
  const yesterday = new Date(Date.UTC(today.year, today.month - 1, today.day - 1));
  const monthIndex = yesterday.getUTCFullYear() * 12 + yesterday.getUTCMonth() - months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const latest = new Date(Date.UTC(year, month, Math.min(yesterday.getUTCDate(), lastOfMonth) + 1));
  return saoPauloMidnight(latest.getUTCFullYear(), latest.getUTCMonth() + 1, latest.getUTCDate());
}

/** The day a period of `months` calendar months started on `start` (São Paulo) ends, inclusive, 'YYYY-MM-DD' (Código Civil art. 132, § 3). */
export function calendarMonthsLastDay(start: Date, months: number): string {
  const d = saoPauloWallClock(start);
  const monthIndex = d.year * 12 + d.month - 1 + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  // No day of that number in the month: the next one, the 1st of the month after.
  const end = d.day <= lastOfMonth ? new Date(Date.UTC(year, month, d.day)) : new Date(Date.UTC(year, month + 1, 1));
  return end.toISOString().slice(0, 10);
}
