import { formatCpfCnpj, formatPhone, PIX_KEY_TYPES, pixKeyTypeLabels, type PixKeyType } from '@portal/domain';
import type { MaskOptions } from './MaskedInput';
import { cnpjMask, cpfMask, phoneMask } from './masks';

/**
 * A Pix key as the driver types it and reads it, shared by the withdrawal and 'Minhas chaves Pix'.
 * spec §2 key masks: CPF, CNPJ (alphanumeric allowed) and phone; none for e-mail and random key.
 */
export const pixKeyMasks: Partial<Record<PixKeyType, MaskOptions>> = { CPF: cpfMask, CNPJ: cnpjMask, PHONE: phoneMask };

export const pixKeyPlaceholders: Record<PixKeyType, string> = {
  CPF: '000.000.000-00',
  CNPJ: '00.000.000/0000-00',
  PHONE: '(00) 00000-0000',
  EMAIL: 'nome@exemplo.com',
  EVP: 'Ex.: 123e4567-e89b-12d3-a456-426614174000',
};

export const pixKeyInputModes: Record<PixKeyType, 'numeric' | 'text' | 'tel' | 'email'> = {
  CPF: 'numeric',
  CNPJ: 'text',
  PHONE: 'tel',
  EMAIL: 'email',
  EVP: 'text',
};

/** The key type select's options: 'Selecione o tipo da chave' first, then the five types. */
export const pixKeyTypeOptions = [
  { value: '', label: 'Selecione o tipo da chave' },
  ...PIX_KEY_TYPES.map((type) => ({ value: type, label: pixKeyTypeLabels[type] })),
];

/** A stored (normalised) key as its field shows it: '52998224725' -> '529.982.247-25', a phone as (11) 98765-4321. */
export function formatPixKey(type: PixKeyType, key: string): string {
  switch (type) {
    case 'CPF':
    case 'CNPJ':
      return formatCpfCnpj(key);
    case 'PHONE':
      return formatPhone(key);
    case 'EMAIL':
    case 'EVP':
      return key;
  }
}
