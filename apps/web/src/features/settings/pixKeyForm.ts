import { savePixKeyRequest } from '@portal/contract';
import { normalizePixKey, PIX_KEY_TYPES } from '@portal/domain';
import { z } from 'zod';

/**
 * 'Salvar chave Pix' over what was typed: the contract's own rules (savePixKeyRequest: the type, a
 * valid key of that type, the password), each message under its field. Out goes the key as the DICT
 * writes it (normalizePixKey).
 */
export const pixKeyForm = z
  .object({ tipo: z.enum(PIX_KEY_TYPES).or(z.literal('')), chave: z.string(), senha: z.string() })
  .pipe(savePixKeyRequest)
  .transform((value) => ({ ...value, chave: value.tipo === '' ? value.chave : normalizePixKey(value.tipo, value.chave) }));
export type PixKeyFormInput = z.input<typeof pixKeyForm>;
export type PixKeyFormValues = z.output<typeof pixKeyForm>;

export const emptyPixKeyForm: PixKeyFormInput = { tipo: '', chave: '', senha: '' };
