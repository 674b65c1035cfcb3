import { messages } from './messages.js';

export const PHONE_DIGITS = 11;

/** The national digits (DDD + number): an explicit '+55' country code is dropped. */
export function phoneDigits(value: string): string {
  const digits = value.replace(/\D/g, '');
  return value.trim().startsWith('+55') ? digits.slice(2) : digits;
}

/** spec §5: required, then exactly 11 digits (DDD + 9 digits). */
export function phoneError(value: string): string | null {
  const digits = phoneDigits(value);
  if (digits.length === 0) return messages.registration.phoneRequired;
  if (digits.length !== PHONE_DIGITS) return messages.registration.phoneInvalid;
  return null;
}

/** Founding decision 9: the phone goes out as +55 followed by its 11 digits. */
export function toBrazilianE164(value: string): string {
  return `+55${phoneDigits(value)}`;
}

/** '+5511987654321' or '11987654321' -> '(11) 98765-4321'. */
export function formatPhone(value: string): string {
  const digits = phoneDigits(value);
  const m = /^(\d{2})(\d{5})(\d{4})$/.exec(digits);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : digits;
}
