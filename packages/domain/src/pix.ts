import { formatCpfCnpj, isValidCnpj, isValidCpf, stripDocument } from './documents.js';
import { PHONE_DIGITS } from './phone.js';
import { hasInvalidCharacters, TEXT_MAX } from './text.js';

/** The five Pix key types of spec §2/5, as the wire and Asaas (pixAddressKeyType) name them. */
export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'PHONE', 'EMAIL', 'EVP'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export const pixKeyTypeLabels: Record<PixKeyType, string> = {
  CPF: 'CPF',
  CNPJ: 'CNPJ',
  PHONE: 'Telefone',
  EMAIL: 'E-mail',
  EVP: 'Chave Aleatória',
};

export function isPixKeyType(value: unknown): value is PixKeyType {
  return typeof value === 'string' && (PIX_KEY_TYPES as readonly string[]).includes(value);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A random key (EVP) is a UUID (BACEN's DICT); SPEC's "longer than 7 characters" let any text through. */
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * spec §7: digits only for CPF and PHONE; CNPJ without its mask (letters kept for the
 * alphanumeric CNPJ, founding decision 10); the e-mail and the random key in lower case (surrounding
 * spaces removed): one mailbox is one key whatever its case (decision 61), as the transfer validation and
 * banks compare it.
 */
export function normalizePixKey(type: PixKeyType, key: string): string {
  switch (type) {
    case 'CPF':
    case 'PHONE':
      return key.replace(/\D/g, '');
    case 'CNPJ':
      return stripDocument(key);
    case 'EMAIL':
    case 'EVP':
      return key.trim().toLowerCase();
  }
}

/** spec §5 'Key validity by type'. */
export function isValidPixKey(type: PixKeyType, key: string): boolean {
  const normalized = normalizePixKey(type, key);
  switch (type) {
    case 'CPF':
      return isValidCpf(normalized);
    case 'CNPJ':
      return isValidCnpj(normalized);
    case 'PHONE':
      return normalized.length === PHONE_DIGITS;
    case 'EMAIL':
      return normalized.length <= TEXT_MAX.pixKey && EMAIL.test(normalized) && !hasInvalidCharacters(normalized);
    case 'EVP':
      return EVP.test(normalized);
  }
}

/**
 * A Pix key as banks print it on a receipt: a CPF as ***.456.789-** (the Central Bank's rule for
 * showing a CPF), a phone's last four digits, an e-mail's first letter and domain, a random key's
 * first and last four characters. A CNPJ is a company's public registry number: shown whole.
 */
export function maskPixKey(type: PixKeyType, key: string): string {
  switch (type) {
    case 'CPF': {
      const d = key.replace(/\D/g, '');
      return d.length === 11 ? `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**` : '***';
    }
    case 'CNPJ':
      return formatCpfCnpj(key);
    case 'PHONE': {
      const d = key.replace(/\D/g, '');
      return d.length >= 4 ? `(**) *****-${d.slice(-4)}` : '***';
    }
    case 'EMAIL': {
      const at = key.indexOf('@');
      return at > 0 ? `${key.charAt(0)}***${key.slice(at)}` : '***';
    }
    case 'EVP':
      return key.length > 8 ? `${key.slice(0, 4)}…${key.slice(-4)}` : '***';
  }
}
