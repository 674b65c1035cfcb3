import { messages } from './messages.js';

export const DISPLAY_TIME_ZONE = 'America/Sao_Paulo';

const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

const parts = new Intl.DateTimeFormat('pt-BR', {
  timeZone: DISPLAY_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** DD/MM/YYYY HH:mm:ss in São Paulo time. Throws SPEC 3's error for anything else. */
export function formatDateTime(value: Date | string): string {
  const date = toDate(value);
  const p = Object.fromEntries(parts.formatToParts(date).map((x) => [x.type, x.value]));
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}:${p.second}`;
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
