import { PARTNER_EVENT_MAX_AGE_DAYS, PARTNER_EVENT_MAX_AHEAD_HOURS } from './constants.js';
import { messages } from './messages.js';

export const DISPLAY_TIME_ZONE = 'America/Sao_Paulo';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * 00:00 of 17 February 2019 in summer time (UTC−2), when São Paulo's clocks went back for the last
 * time: Decreto nº 9.772 of 26 April 2019 ended daylight saving time in Brazil, and since then they
 * read UTC−3 all year.
 */
const LAST_SUMMER_TIME_END_MS = Date.UTC(2019, 1, 17, 2);
const SAO_PAULO_UTC_OFFSET_MS = -3 * 3_600_000;

let saoPauloParts: Intl.DateTimeFormat | undefined;

/** How far São Paulo's clocks are from UTC at an instant; the zone's history (Intl) before the last summer time ended. */
function utcOffsetMs(instant: Date): number {
  if (instant.getTime() >= LAST_SUMMER_TIME_END_MS) return SAO_PAULO_UTC_OFFSET_MS;
  saoPauloParts ??= new Intl.DateTimeFormat('pt-BR', {
    timeZone: DISPLAY_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const p = Object.fromEntries(saoPauloParts.formatToParts(instant).map((x) => [x.type, Number(x.value)]));
  const wholeSecond = Math.floor(instant.getTime() / 1000) * 1000;
  return Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day, p.hour, p.minute, p.second) - wholeSecond;
}

/**
 * What São Paulo's clocks read at an instant (numbers; month 1 to 12). Since 2019 by arithmetic, not
 * Intl: a browser's first Intl formatter loads ICU's locale and zone data, one task of 25 to 140 ms
 * on a desktop (four times that on a phone) in the first render of every screen that shows a date.
 * A test holds the two equal over the years to come: a summer time brought back into the zone's data
 * fails it.
 */
export function saoPauloWallClock(instant: Date): {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
} {
  const local = new Date(instant.getTime() + utcOffsetMs(instant));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** DD/MM/YYYY HH:mm:ss in São Paulo time. Throws spec §3's error for anything else. */
export function formatDateTime(value: Date | string): string {
  const w = saoPauloWallClock(toDate(value));
  return `${twoDigits(w.day)}/${twoDigits(w.month)}/${w.year} ${twoDigits(w.hour)}:${twoDigits(w.minute)}:${twoDigits(w.second)}`;
}

function toDate(value: Date | string): Date {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Error(messages.dates.invalidFormat);
    return value;
  }
  if (typeof value !== 'string' || !ISO_8601.test(value.trim())) throw new Error(messages.dates.invalidFormat);
  const date = new Date(value.trim());
  if (Number.isNaN(date.getTime())) throw new Error(messages.dates.invalidFormat);
  return date;
}

const OFFSET_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;
const MAX_OFFSET_HOURS = 18;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * An ISO 8601 date-time with its offset that names a real instant, or null. Every component
 * is checked: Date.parse alone reads 2026-02-30 as 2 March.
 */
export function parseOffsetDateTime(value: string): Date | null {
  const m = OFFSET_DATE_TIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = m.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > MAX_OFFSET_HOURS || offsetMinutes > 59) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** When a partner says something happened: a real date-time with offset, inside the accepted window. */
export function occurredAtError(value: string, now: Date = new Date()): string | null {
  const date = parseOffsetDateTime(value);
  if (!date) return messages.partner.occurredAtInvalid;
  const earliest = now.getTime() - PARTNER_EVENT_MAX_AGE_DAYS * 86_400_000;
  const latest = now.getTime() + PARTNER_EVENT_MAX_AHEAD_HOURS * 3_600_000;
  if (date.getTime() < earliest || date.getTime() > latest) return messages.partner.occurredAtOutOfRange;
  return null;
}
