import { NAME_MIN_LENGTH } from './constants.js';
import { messages } from './messages.js';
import { phoneError } from './phone.js';
import { type FieldErrors, normalizeName } from './registration.js';

/**
 * Issue 35 (LGPD art. 18, III, correction): what a driver corrects of their own data in
 * Configurações. The CPF/CNPJ is the account's identity and is not corrected here.
 */
export const PROFILE_FIELDS = ['nome', 'telefone'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

export interface ProfileFields {
  nome: string;
  telefone: string;
  senha: string;
}

const FIELD_NAMES: Readonly<Record<ProfileField, string>> = { nome: 'nome', telefone: 'telefone' };

/** 'nome', 'telefone' or 'nome e telefone', in PROFILE_FIELDS order. */
export function changedFieldsText(fields: readonly ProfileField[]): string {
  return PROFILE_FIELDS.filter((f) => fields.includes(f))
    .map((f) => FIELD_NAMES[f])
    .join(' e ');
}

export const profileMessages = {
  loaded: 'Seus dados',
  saved: 'Seus dados foram atualizados.',
  unchanged: 'Nada mudou: seus dados já estão assim.',
  passwordRequired: 'Digite sua senha para confirmar a alteração.',
  changedNotice: (fields: string, at: string) =>
    `Seus dados foram alterados em ${at}: ${fields}. Se não foi você, troque sua senha e fale com o suporte.`,
} as const;

/** The registration's rules for the name and the phone, and the password that confirms: the first failing rule of each field. */
export function profileErrors(input: ProfileFields): FieldErrors<keyof ProfileFields> {
  const errors: FieldErrors<keyof ProfileFields> = {};
  if (normalizeName(input.nome).length < NAME_MIN_LENGTH) errors.nome = messages.registration.nameTooShort;
  const phone = phoneError(input.telefone);
  if (phone) errors.telefone = phone;
  if (input.senha === '') errors.senha = profileMessages.passwordRequired;
  return errors;
}
