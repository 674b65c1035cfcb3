import { cnpj, cpf } from 'cpf-cnpj-validator';
import { messages } from './messages.js';

/** Upper-cased letters and digits only: the form a CPF/CNPJ is stored and sent in. */
export function stripDocument(value: string): string {
  return value.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

export function isValidCpf(value: string): boolean {
  const digits = stripDocument(value);
  return /^\d{11}$/.test(digits) && cpf.isValid(digits);
}

/** Numeric and alphanumeric (RFB, July 2026) CNPJ. */
export function isValidCnpj(value: string): boolean {
  const chars = stripDocument(value);
  return /^[0-9A-Z]{12}\d{2}$/.test(chars) && cnpj.isValid(chars, true);
}

export type DocumentKind = 'CPF' | 'CNPJ';

/** spec §5: 11 characters or fewer are read as a CPF, longer as a CNPJ. */
export function documentKind(value: string): DocumentKind {
  return stripDocument(value).length <= 11 ? 'CPF' : 'CNPJ';
}

export function isValidCpfCnpj(value: string): boolean {
  return documentKind(value) === 'CPF' ? isValidCpf(value) : isValidCnpj(value);
}

/** The registration message for a CPF/CNPJ, or null when it is valid. */
export function cpfCnpjError(value: string): string | null {
  const chars = stripDocument(value);
  if (chars.length === 0) return messages.registration.cpfCnpjRequired;
  if (documentKind(chars) === 'CPF') return isValidCpf(chars) ? null : messages.registration.cpfInvalid;
  return isValidCnpj(chars) ? null : messages.registration.cnpjInvalid;
}

/** 999.999.999-99 or AA.AAA.AAA/AAAA-99; partial input is formatted as far as it goes. */
export function formatCpfCnpj(value: string): string {
  const c = stripDocument(value);
  if (c.length <= 11) {
    return c.replace(/^(.{3})(.{1,3})?(.{1,3})?(.{1,2})?$/, (_m, a: string, b?: string, d?: string, e?: string) =>
      [a, b && `.${b}`, d && `.${d}`, e && `-${e}`].filter(Boolean).join(''),
    );
  }
  return c
    .slice(0, 14)
    .replace(
      /^(.{2})(.{3})(.{3})(.{1,4})(.{0,2})$/,
      (_m, a: string, b: string, d: string, e: string, f: string) => `${a}.${b}.${d}/${e}${f ? `-${f}` : ''}`,
    );
}

/** For logs and support screens: never the whole document (LGPD). */
export function maskCpfCnpj(value: string): string {
  const c = stripDocument(value);
  if (c.length < 6) return '*'.repeat(c.length);
  return `${c.slice(0, 3)}${'*'.repeat(c.length - 5)}${c.slice(-2)}`;
}
