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
  /** A tag serial as typed: 19 with its spaces (spec §9), some slack for separators. */
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
/*
 * Invisible direction and format characters (issue 21, point 8): the Arabic letter mark U+061C,
 * zero-width space, non-joiner and joiner, the left-to-right and right-to-left marks
 * (U+200B-U+200F), the embeddings and overrides (U+202A-U+202E: a place name with U+202E showed
 * reversed in the statement), the word joiner and invisible operators (U+2060-U+2064), the
 * isolates and the deprecated format controls (U+2066-U+206F) and the zero-width no-break space
 * (U+FEFF). Nothing a driver or a partner means to write: they only change how the text around
 * them is shown, or hide that two texts differ.
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;

export function hasInvalidCharacters(value: string): boolean {
  return CONTROL.test(value) || LONE_SURROGATE.test(value);
}

export function hasInvisibleCharacters(value: string): boolean {
  return INVISIBLE.test(value);
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

/** The one rule of every text field: no control characters, no invisible direction or format characters, at most max characters. */
export function textError(value: string, max: number): string | null {
  if (hasInvalidCharacters(value)) return messages.input.invalidCharacters;
  if (hasInvisibleCharacters(value)) return messages.input.invisibleCharacters;
  if (longerThan(value, max)) return tooLongMessage(max);
  return null;
}

/**
 * A password: the same rule without the invisible characters' one. A password is never shown, so
 * they cannot mislead anyone, and refusing them at sign-in would lock out a driver whose password
 * has one (an emoji joined by U+200D).
 */
export function secretTextError(value: string, max: number): string | null {
  if (hasInvalidCharacters(value)) return messages.input.invalidCharacters;
  if (longerThan(value, max)) return tooLongMessage(max);
  return null;
}

/** A provider's free text we keep and show: controls become spaces, invisible characters go, cut at max (never refused). */
export function cleanText(value: string, max: number): string {
  const clean = value
    .replace(new RegExp(CONTROL.source, 'g'), ' ')
    .replace(new RegExp(INVISIBLE.source, 'g'), '')
    .replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd');
  return longerThan(clean, max) ? [...clean].slice(0, max).join('') : clean;
}
