import { PARTNER_EVENT_MAX_AGE_DAYS, PARTNER_EVENT_MAX_AHEAD_HOURS } from './constants.js';
import { messages } from './messages.js';

export const DISPLAY_TIME_ZONE = 'America/Sao_Paulo';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

const DAY_MS = 86_400_000;
/** Days whose offset is kept (about eleven years, some 200 KB at most): a statement's span, and more. */
const OFFSET_CACHE_DAYS = 4_096;

let saoPauloParts: Intl.DateTimeFormat | undefined;

/** How far São Paulo's clocks are from UTC at an instant, read in the zone's data (Intl). */
function zoneOffsetMs(time: number): number {
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
  const p = Object.fromEntries(saoPauloParts.formatToParts(time).map((x) => [x.type, Number(x.value)]));
  const wholeSecond = Math.floor(time / 1000) * 1000;
  return Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day, p.hour, p.minute, p.second) - wholeSecond;
}

/** The offset of each UTC day the clocks do not change in, oldest first (a Map keeps that order). */
const offsetByDay = new Map<number, number>();

/** São Paulo's offset at an instant by the zone's data, read once per UTC day and kept. */
function zoneDataOffsetMs(time: number): number {
  const day = Math.floor(time / DAY_MS);
  const kept = offsetByDay.get(day);
  if (kept !== undefined) return kept;
  const offset = zoneOffsetMs(day * DAY_MS);
  // A day the clocks change in (its first and last second read different offsets) is read at each instant.
  if (zoneOffsetMs((day + 1) * DAY_MS - 1000) !== offset) return zoneOffsetMs(time);
  if (offsetByDay.size >= OFFSET_CACHE_DAYS) offsetByDay.delete(offsetByDay.keys().next().value ?? day);
  offsetByDay.set(day, offset);
  return offset;
}

/**
 * 00:00 of 17 February 2019 in summer time (UTC−2), when São Paulo's clocks last went back: Decreto
 * nº 9.772/2019 ended summer time in Brazil, and the zone's data reads UTC−3 all year since.
 */
const LAST_SUMMER_TIME_END_MS = Date.UTC(2019, 1, 17, 2);
const SAO_PAULO_UTC_OFFSET_MS = -3 * 3_600_000;

/**
 * Whether UTC−3 by arithmetic is what the zone's data reads since LAST_SUMMER_TIME_END_MS. True until
 * a check (checkSaoPauloZoneData) finds a day the data reads otherwise, or followSaoPauloZoneData is
 * called: from then on every instant is read in the data. The arithmetic is for speed only: a
 * browser's first Intl formatter loads ICU's zone data, one task of 25–140 ms on a desktop (four
 * times that on a phone) in the first render of every screen that shows a date.
 */
let arithmeticAgrees = true;
const zoneDataListeners = new Set<() => void>();

/** São Paulo's time is read in the zone's data for every instant from now on (a summer time came back). */
export function followSaoPauloZoneData(): void {
  if (!arithmeticAgrees) return;
  arithmeticAgrees = false;
  for (const listener of zoneDataListeners) listener();
}

/** Whether São Paulo's time is read in the zone's data for every instant (followSaoPauloZoneData was called). */
export function followsSaoPauloZoneData(): boolean {
  return !arithmeticAgrees;
}

/** Called once when São Paulo's time starts following the zone's data; answers its removal. */
export function onSaoPauloZoneData(listener: () => void): () => void {
  zoneDataListeners.add(listener);
  return () => zoneDataListeners.delete(listener);
}

/**
 * Compares the zone's data with UTC−3 at noon (UTC) of each day from `fromMs` to `toMs` (any stretch
 * of summer time lasts more than a day), in order. The first day they differ, São Paulo's time
 * follows the zone's data from then on, and that day is answered; null when they agree. Days before
 * the last summer time's end are always read in the data and are not compared.
 */
export function checkSaoPauloZoneData(fromMs: number, toMs: number): Date | null {
  const first = Math.max(Math.floor(fromMs / DAY_MS), Math.ceil(LAST_SUMMER_TIME_END_MS / DAY_MS));
  for (let day = first; day * DAY_MS <= toMs; day++) {
    const noon = day * DAY_MS + DAY_MS / 2;
    if (zoneOffsetMs(noon) !== SAO_PAULO_UTC_OFFSET_MS) {
      followSaoPauloZoneData();
      return new Date(noon);
    }
  }
  return null;
}

/** What the portal shows: a month back (the newest movements) to three years ahead (deadlines, validity). */
const ZONE_CHECK_BEHIND_DAYS = 31;
const ZONE_CHECK_AHEAD_DAYS = 3 * 366;

/** The stretch checkSaoPauloZoneDataAround compares: the days the portal shows around `now`. */
export function saoPauloZoneCheckSpan(now: number = Date.now()): { fromMs: number; toMs: number } {
  return { fromMs: now - ZONE_CHECK_BEHIND_DAYS * DAY_MS, toMs: now + ZONE_CHECK_AHEAD_DAYS * DAY_MS };
}

/** checkSaoPauloZoneData over the days the portal shows around `now` (about 1,130 days: a few ms on a server). */
export function checkSaoPauloZoneDataAround(now: number = Date.now()): Date | null {
  const { fromMs, toMs } = saoPauloZoneCheckSpan(now);
  return checkSaoPauloZoneData(fromMs, toMs);
}

function utcOffsetMs(instant: Date): number {
  const time = instant.getTime();
  if (arithmeticAgrees && time >= LAST_SUMMER_TIME_END_MS) return SAO_PAULO_UTC_OFFSET_MS;
  return zoneDataOffsetMs(time);
}

/**
 * What São Paulo's clocks read at an instant (numbers; month 1 to 12): the zone's data, by arithmetic
 * while a check finds it agrees (checkSaoPauloZoneData, run by the server at start and by the web app
 * once a page is live). A summer time brought back reaches the portal with the browser's and Node's
 * time-zone data, no code changed.
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

/**
 * How long ago São Paulo's calendar month began, at an instant (ms): what a month's fees, budgets
 * and reports count. Something dated "a while ago" stays in this month when it is dated within it.
 */
export function sinceSaoPauloMonthStart(instant: Date): number {
  const c = saoPauloWallClock(instant);
  return ((((c.day - 1) * 24 + c.hour) * 60 + c.minute) * 60 + c.second) * 1000 + instant.getUTCMilliseconds();
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
