import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanText,
  formatBrl,
  isValidPixKey,
  MAX_PASSAGE_CENTS,
  MAX_PURCHASE_CENTS,
  messages,
  normalizePixKey,
  occurredAtError,
  parseOffsetDateTime,
  partnerValueError,
  purchaseValueError,
  secretTextError,
  textError,
} from '../src/index.js';

describe('the text rule', () => {
  it('refuses NUL, every C0 and C1 control, DEL, line separators and half surrogate pairs', () => {
    const bad = ['\u0000', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f', '\u2028', '\u2029', '\ud800', '\udc00', 'a\udbffb'];
    for (const c of bad) expect(textError(`Maria ${c} Souza`, 120), JSON.stringify(c)).toBe(messages.input.invalidCharacters);
  });

  it('refuses every invisible direction and format character, with its own message (issue 21, point 8)', () => {
    const invisible = [
      '\u061c',
      '\u200b',
      '\u200c',
      '\u200d',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2060',
      '\u2061',
      '\u2062',
      '\u2063',
      '\u2064',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u206a',
      '\u206f',
      '\ufeff',
    ];
    for (const c of invisible) {
      expect(textError(`Praça ${c}aveputI`, 120), c.codePointAt(0)?.toString(16)).toBe(messages.input.invisibleCharacters);
      // A password is never shown: it keeps only the control rule (no driver locked out).
      expect(secretTextError(`senha${c}123`, 128)).toBeNull();
    }
    expect(secretTextError('senha\u0000', 128)).toBe(messages.input.invalidCharacters);
    expect(messages.input.invisibleCharacters).toMatch(/invisíveis/);
    // Neighbours that are visible stay accepted: a hyphen, a non-breaking space, the figure space.
    for (const ok of ['Praça‐Itupeva', 'Praça\u00a0Itupeva', 'Praça\u2007Itupeva', 'São João – Pedágio'])
      expect(textError(ok, 120)).toBeNull();
  });

  it('accepts accents, emoji and every printable character up to the maximum, counted as a person counts', () => {
    expect(textError('José da Conceição Ñoño', 120)).toBeNull();
    expect(textError('🚚'.repeat(10), 10)).toBeNull();
    expect(textError('🚚'.repeat(11), 10)).toBe('Use no máximo 10 caracteres');
    expect(textError('a'.repeat(60_000), 120)).toBe('Use no máximo 120 caracteres');
    const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom('\ud800', '\udfff', '\u0000', '\u0085', '\u2028', '\u202e', '\u200b', '\ufeff', '\u2066'),
            fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
          ),
          maxLength: 40,
        }),
        (s) => {
          const printable = [...s].every((c) => {
            const code = c.codePointAt(0) ?? 0;
            const invisible =
              code === 0x061c ||
              (code >= 0x200b && code <= 0x200f) ||
              (code >= 0x202a && code <= 0x202e) ||
              (code >= 0x2060 && code <= 0x2064) ||
              (code >= 0x2066 && code <= 0x206f) ||
              code === 0xfeff;
            return !(code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || invisible);
          });
          return (textError(s, 1000) === null) === (printable && wellFormed(s));
        },
      ),
    );
  });

  it('cleans a provider text instead of refusing it: controls become spaces, cut at the maximum', () => {
    expect(cleanText('Conta\u0000 encerrada\n', 500)).toBe('Conta  encerrada ');
    expect(cleanText('Conta \u202eadarrecne\u202c\u200b', 500)).toBe('Conta adarrecne');
    expect(cleanText('x'.repeat(600), 500)).toHaveLength(500);
    expect(textError(cleanText('a\ud800\u0085b'.repeat(200), 500), 500)).toBeNull();
  });
});

describe('dates a partner sends', () => {
  it('reads only real calendar date-times with an offset', () => {
    expect(parseOffsetDateTime('2026-02-30T10:00:00-03:00')).toBeNull();
    expect(parseOffsetDateTime('2025-02-29T10:00:00Z')).toBeNull();
    expect(parseOffsetDateTime('2024-02-29T10:00:00Z')?.toISOString()).toBe('2024-02-29T10:00:00.000Z');
    expect(parseOffsetDateTime('2026-04-31T10:00:00Z')).toBeNull();
    expect(parseOffsetDateTime('2026-13-01T10:00:00Z')).toBeNull();
    expect(parseOffsetDateTime('2026-01-01T24:00:00Z')).toBeNull();
    expect(parseOffsetDateTime('2026-01-01T10:60:00Z')).toBeNull();
    expect(parseOffsetDateTime('2026-01-01T10:00:60Z')).toBeNull();
    expect(parseOffsetDateTime('2026-01-01T10:00:00+25:00')).toBeNull();
    expect(parseOffsetDateTime('2026-01-01T10:00:00')).toBeNull();
    expect(parseOffsetDateTime('2026-01-31T10:00:00.123456789-03:00')?.toISOString()).toBe('2026-01-31T13:00:00.123Z');
    expect(parseOffsetDateTime('2026-01-31T10:00-03:00')?.toISOString()).toBe('2026-01-31T13:00:00.000Z');
  });

  it('accepts at most a year in the past and a day ahead', () => {
    const now = new Date('2026-06-15T12:00:00Z');
    expect(occurredAtError('2026-06-15T09:00:00-03:00', now)).toBeNull();
    expect(occurredAtError('2025-06-15T12:00:00Z', now)).toBeNull();
    expect(occurredAtError('2025-06-15T11:59:59Z', now)).toBe(messages.partner.occurredAtOutOfRange);
    expect(occurredAtError('2026-06-16T12:00:00Z', now)).toBeNull();
    expect(occurredAtError('2026-06-16T12:00:01Z', now)).toBe(messages.partner.occurredAtOutOfRange);
    expect(occurredAtError('0000-01-01T00:00:00Z', now)).toBe(messages.partner.occurredAtOutOfRange);
    expect(occurredAtError('9999-12-31T23:59:59-03:00', now)).toBe(messages.partner.occurredAtOutOfRange);
    expect(occurredAtError('2026-02-30T10:00:00Z', now)).toBe(messages.partner.occurredAtInvalid);
  });
});

describe('amounts', () => {
  it('a purchase too large or with fractions of a centavo gets a message about the value', () => {
    expect(purchaseValueError(100.005)).toBe(messages.purchase.valueInvalid);
    expect(purchaseValueError(1e308)).toBe(messages.purchase.aboveMaximum);
    expect(purchaseValueError(MAX_PURCHASE_CENTS / 100 + 0.01)).toBe(messages.purchase.aboveMaximum);
    expect(purchaseValueError(MAX_PURCHASE_CENTS / 100)).toBeNull();
    expect(purchaseValueError(99.99)).toBe('O valor mínimo para compra de saldo é de R$ 100,00');
    expect(purchaseValueError(Number.NaN)).toBe('Por favor digite o valor que deseja comprar de saldo');
    expect(purchaseValueError(-1e308)).toBe('Por favor digite o valor que deseja comprar de saldo');
  });

  it("a partner's amount has a maximum per kind", () => {
    const above = messages.partner.valueAboveMaximum.replace('{max}', formatBrl(MAX_PASSAGE_CENTS));
    expect(partnerValueError(90071992547409.91, MAX_PASSAGE_CENTS)).toBe(above);
    expect(partnerValueError(5000.01, MAX_PASSAGE_CENTS)).toBe(above);
    expect(partnerValueError(5000, MAX_PASSAGE_CENTS)).toBeNull();
    expect(partnerValueError(0.001, MAX_PASSAGE_CENTS)).toBe(messages.partner.valueInvalid);
    expect(partnerValueError(0, MAX_PASSAGE_CENTS)).toBe(messages.partner.valueInvalid);
    expect(partnerValueError(5e-324, MAX_PASSAGE_CENTS)).toBe(messages.partner.valueInvalid);
    expect(partnerValueError(1e-9, MAX_PASSAGE_CENTS)).toBe(messages.partner.valueInvalid);
    expect(partnerValueError(0.01, MAX_PASSAGE_CENTS)).toBeNull();
  });
});

describe('Pix keys', () => {
  it('a random key (EVP) is a UUID, kept in lower case', () => {
    expect(isValidPixKey('EVP', '123e4567-e89b-12d3-a456-426614174000')).toBe(true);
    expect(isValidPixKey('EVP', ' 123E4567-E89B-12D3-A456-426614174000 ')).toBe(true);
    expect(normalizePixKey('EVP', ' 123E4567-E89B-12D3-A456-426614174000 ')).toBe('123e4567-e89b-12d3-a456-426614174000');
    for (const key of ['chave-aleatoria-123', '123e4567-e89b-12d3', '123e4567-e89b-12d3-a456-42661417400g', 'x'.repeat(60_000)]) {
      expect(isValidPixKey('EVP', key), key.slice(0, 40)).toBe(false);
    }
  });

  it('an e-mail key has at most 77 characters and no control characters', () => {
    const local = 'a'.repeat(77 - '@ex.com'.length);
    expect(isValidPixKey('EMAIL', `${local}@ex.com`)).toBe(true);
    expect(isValidPixKey('EMAIL', `${local}a@ex.com`)).toBe(false);
    expect(isValidPixKey('EMAIL', 'a\u0000b@ex.com')).toBe(false);
  });
});
