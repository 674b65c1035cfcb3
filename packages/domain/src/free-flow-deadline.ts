import Holidays from 'date-holidays';
import { saoPauloWallClock } from './dates.js';
import { FREE_FLOW_DEADLINE_DAYS } from './free-flow.js';
import type { CalendarDay } from './statement.js';
import { parseCalendarDay } from './statement.js';

/**
 * The free-flow deadline (Resolução Contran nº 1.013/2024, art. 7º): 30 calendar days counted from
 * the passage, moved to the next business day when the last one is not. Business days are Monday to
 * Friday but Brazil's national public holidays, read from the date-holidays package ('public' days of
 * 'BR', no state or region: Carnival and Corpus Christi are 'bank'/'optional' there, ponto
 * facultativo, not holidays).
 *
 * Server only: date-holidays carries every country's data (some 800 KB), so this file is not
 * re-exported by index.ts and the web app never imports it. Import it as
 * '@portal/domain/free-flow-deadline' (package.json "exports").
 */

const DAY_MS = 86_400_000;
/** Passage days whose due day is kept (about eleven years), as dates.ts keeps its offsets. */
const DUE_CACHE_DAYS = 4_096;

let calendar: Holidays | undefined;
/** The national public holidays of each year asked, as UTC day numbers (days since 1970-01-01). */
const holidaysByYear = new Map<number, ReadonlySet<number>>();
/** The due day of each passage day asked (a Map keeps insertion order: the oldest goes first). */
const dueByPassageDay = new Map<number, CalendarDay>();

function dayNumber(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

function nationalHolidays(year: number): ReadonlySet<number> {
  const kept = holidaysByYear.get(year);
  if (kept) return kept;
  calendar ??= new Holidays('BR');
  const days = new Set<number>();
  for (const holiday of calendar.getHolidays(year)) {
    if (holiday.type !== 'public') continue;
    // 'YYYY-MM-DD hh:mm:ss', the day in Brazil's calendar.
    days.add(dayNumber(Number(holiday.date.slice(0, 4)), Number(holiday.date.slice(5, 7)), Number(holiday.date.slice(8, 10))));
  }
  holidaysByYear.set(year, days);
  return days;
}

function isBusinessDayNumber(day: number): boolean {
  const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday; 0 is Sunday.
  if (weekday === 0 || weekday === 6) return false;
  return !nationalHolidays(new Date(day * DAY_MS).getUTCFullYear()).has(day);
}

const dayText = (day: number): CalendarDay => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Whether 'YYYY-MM-DD' is a business day: Monday to Friday and not a national public holiday. Throws on an invalid day. */
export function isBusinessDay(day: CalendarDay): boolean {
  const p = parseCalendarDay(day);
  if (!p) throw new RangeError(`Data inválida: ${day}`);
  return isBusinessDayNumber(dayNumber(p.year, p.month, p.day));
}

/**
 * The last day to pay a free-flow toll, 'YYYY-MM-DD': the passage's São Paulo day plus 30 calendar
 * days (the day of the passage is not counted: Código Civil art. 132), moved forward while it is a
 * Saturday, a Sunday or a national public holiday. Kept per passage day: a few hundred nanoseconds.
 */
export function freeFlowDueDay(occurredAt: Date): CalendarDay {
  if (!(occurredAt instanceof Date) || Number.isNaN(occurredAt.getTime())) throw new RangeError('Data da passagem inválida');
  const w = saoPauloWallClock(occurredAt);
  const passage = dayNumber(w.year, w.month, w.day);
  const kept = dueByPassageDay.get(passage);
  if (kept !== undefined) return kept;
  let due = passage + FREE_FLOW_DEADLINE_DAYS;
  while (!isBusinessDayNumber(due)) due++;
  const text = dayText(due);
  if (dueByPassageDay.size >= DUE_CACHE_DAYS) dueByPassageDay.delete(dueByPassageDay.keys().next().value ?? passage);
  dueByPassageDay.set(passage, text);
  return text;
}
