import { NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';
import { cpfCnpjError, stripDocument } from './documents.js';
import { messages } from './messages.js';
import { phoneError } from './phone.js';

/** A name as it is kept: no spaces around it, one between words (registration and 'Seus dados' alike). */
export function normalizeName(value: string): string {
  return value.trim().replace(/\s+/g, ' ');
}

export interface RegistrationFields {
  name: string;
  cpfCnpj: string;
  phoneNumber: string;
  password: string;
  password_confirmation: string;
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** spec §5 'Registration': the first failing rule of each field, the same on both sides. */
export function registrationErrors(input: RegistrationFields): FieldErrors<keyof RegistrationFields> {
  const errors: FieldErrors<keyof RegistrationFields> = {};
  if (normalizeName(input.name).length < NAME_MIN_LENGTH) errors.name = messages.registration.nameTooShort;
  const document = cpfCnpjError(input.cpfCnpj);
  if (document) errors.cpfCnpj = document;
  const phone = phoneError(input.phoneNumber);
  if (phone) errors.phoneNumber = phone;
  if (input.password.length < PASSWORD_MIN_LENGTH) errors.password = messages.registration.passwordTooShort;
  if (input.password_confirmation !== input.password) {
    errors.password_confirmation = messages.registration.passwordMismatch;
  }
  return errors;
}

export interface LoginFields {
  cpfCnpj: string;
  password: string;
}

export function loginErrors(input: LoginFields): FieldErrors<keyof LoginFields> {
  const errors: FieldErrors<keyof LoginFields> = {};
  if (stripDocument(input.cpfCnpj).length === 0) errors.cpfCnpj = messages.login.cpfCnpjRequired;
  if (input.password.length === 0) errors.password = messages.login.passwordRequired;
  return errors;
}
