import { stripDocument } from '@portal/domain';

// '0' takes a digit, 'A' a digit or letter; anything else is a fixed character.
const CPF_PATTERN = '000.000.000-00';
const CNPJ_PATTERN = 'AA.AAA.AAA/AAAA-00';

function fits(char: string, slot: string): boolean {
  return slot === '0' ? /\d/.test(char) : /[0-9A-Z]/.test(char);
}

/** Fills the pattern's slots in order, dropping characters a slot refuses, like an input mask. */
function applyPattern(chars: string, pattern: string): string {
  let out = '';
  let pendingFixed = '';
  let next = 0;
  for (const slot of pattern) {
    if (slot !== '0' && slot !== 'A') {
      pendingFixed += slot;
      continue;
    }
    while (next < chars.length && !fits(chars.charAt(next), slot)) next++;
    if (next >= chars.length) break;
    // Fixed characters appear only once a character follows them (no trailing '.' or '-').
    out += pendingFixed + chars.charAt(next++);
    pendingFixed = '';
  }
  return out;
}

/**
 * The CPF/CNPJ field as typed: CPF 000.000.000-00 up to 11 characters, alphanumeric CNPJ
 * AA.AAA.AAA/AAAA-00 (founding decision 10) beyond or as soon as a letter appears; letters upper-cased,
 * the 2 check digits numeric, at most 14 letters/digits.
 */
export function formatCpfCnpjInput(value: string): string {
  const chars = stripDocument(value);
  const cnpj = chars.length > 11 || /[A-Z]/.test(chars);
  return applyPattern(chars, cnpj ? CNPJ_PATTERN : CPF_PATTERN);
}

/** Where the caret goes in `formatted` to stay after the same number of letters/digits. */
export function caretAfterChars(formatted: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/[0-9A-Z]/.test(formatted.charAt(i)) && ++seen === count) return i + 1;
  }
  return formatted.length;
}
