import { messages } from './messages.js';

/**
 * The longest text each field may carry, in characters (code points). Bounds a stored value,
 * a log line and an argon2 input; every field of the contract names one of these.
 */
export const TEXT_MAX = {
  /** A person's full name. */
  name: 120,
  /** argon2 hashes any length, so a bound keeps a 60 KB "password" from costing the CPU. */
  password: 128,
  /** CPF/CNPJ as typed, with its mask (18) and some spaces. */
  document: 32,
  /** '+55 (11) 98765-4321' and the like. */
  phone: 32,
  /** A Pix key: the DICT's longest is an e-mail of 77. */
  pixKey: 77,
  /** The Pix transfer description. */
  description: 140,
  /** A tag serial as typed: 19 with its spaces (SPEC 9), some slack for separators. */
  serial: 32,
  plate: 16,
  rntrc: 16,
  /** A model id of the catalogue. */
  modelId: 64,
  /** Fixed codes the client echoes (invoiceGroupCode, statusId, origem, type). */
  code: 32,
  /** A partner's own id of what it pushes. */
  externalId: 100,
  /** A toll plaza, a city, a place. */
  place: 120,
  /** Ids of a Pix provider (charges, transfers, events) and ours (pc_..., wd_...). */
  providerId: 100,
  /** A provider's event name. */
  event: 64,
  /** An ISO 8601 date-time with offset and nanoseconds is 35. */
  dateTime: 40,
  /** A provider's free-text reason (payout failures). */
  reason: 500,
} as const;

/*
 * C0 controls (NUL included), DEL, C1 controls and the Unicode line and paragraph separators:
 * every field is a single line, and PostgreSQL cannot store NUL at all.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** Half of a UTF-16 pair: not a character; drivers would silently store U+FFFD instead. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function hasInvalidCharacters(value: string): boolean {
  return CONTROL.test(value) || LONE_SURROGATE.test(value);
}

/** Characters as a person counts them (an emoji is one), stopping once past max. */
function longerThan(value: string, max: number): boolean {
  if (value.length <= max) return false;
  let count = 0;
  for (const _char of value) if (++count > max) return true;
  return false;
}

export function tooLongMessage(max: number): string {
  return messages.input.tooLong.replace('{max}', String(max));
}

/** The one rule of every text field: no control characters, at most max characters. */
export function textError(value: string, max: number): string | null {
  if (hasInvalidCharacters(value)) return messages.input.invalidCharacters;
  if (longerThan(value, max)) return tooLongMessage(max);
  return null;
}

/** A provider's free text we keep and show: controls become spaces, cut at max (never refused). */
export function cleanText(value: string, max: number): string {
  const clean = value.replace(new RegExp(CONTROL.source, 'g'), ' ').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd');
  return longerThan(clean, max) ? [...clean].slice(0, max).join('') : clean;
}
