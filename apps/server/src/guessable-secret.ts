/**
 * Whether a secret is trivially guessable (issue 33, point 3; decision 61). A secret made as the
 * operations guide says (`openssl rand -hex 32`, base64 of random bytes) never fails these rules: over
 * 200,000 random values each, 32 hex characters kept 8 or more distinct characters, 90 or more bits,
 * and at most 39% of steps of one; the rules stop values a person types or an example hands out.
 */

/** Fewer different characters than this (letters of either case counted once) is guessable. */
const SECRET_MINIMUM_DISTINCT = 6;
/** Fewer bits than this, by the frequency of each character times the length, is guessable. */
const SECRET_MINIMUM_BITS = 64;
/** A larger share of neighbouring characters one code point apart (0123…, abc…, 9876…) is a sequence. */
const SECRET_MAXIMUM_SEQUENCE_SHARE = 0.5;

export type GuessableReason = 'fewDistinct' | 'repeatedPattern' | 'sequence' | 'lowEntropy';

/** The smallest p such that the value is a piece of length p written again and again (0: none up to half). */
function repeatingPeriod(chars: readonly string[]): number {
  for (let period = 1; period <= chars.length / 2; period++) {
    if (chars.every((c, i) => i < period || c === chars[i - period])) return period;
  }
  return 0;
}

function sequenceShare(chars: readonly string[]): number {
  let steps = 0;
  for (let i = 1; i < chars.length; i++) {
    if (Math.abs((chars[i]?.codePointAt(0) ?? 0) - (chars[i - 1]?.codePointAt(0) ?? 0)) === 1) steps++;
  }
  return chars.length > 1 ? steps / (chars.length - 1) : 0;
}

/** Shannon's estimate over the value's own character frequencies, in bits for the whole value. */
function estimatedBits(chars: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / chars.length) * Math.log2(n / chars.length);
  return perChar * chars.length;
}

/** Why the secret is trivially guessable, or null. Case does not hide a pattern (AbAb… is abab…). */
export function guessableReason(secret: string): GuessableReason | null {
  const chars = [...secret.toLowerCase()];
  if (new Set(chars).size < SECRET_MINIMUM_DISTINCT) return 'fewDistinct';
  if (repeatingPeriod(chars) > 0) return 'repeatedPattern';
  if (sequenceShare(chars) > SECRET_MAXIMUM_SEQUENCE_SHARE) return 'sequence';
  if (estimatedBits(chars) < SECRET_MINIMUM_BITS) return 'lowEntropy';
  return null;
}
