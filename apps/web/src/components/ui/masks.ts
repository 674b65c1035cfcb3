import type { DynamicMasked, MaskOptions } from './MaskedInput';

/** CPF 000.000.000-00. */
export const cpfMask: MaskOptions = { mask: '000.000.000-00' };

/** CNPJ AA.AAA.AAA/AAAA-00: alphanumeric CNPJ (founding decision 10), letters upper-cased, 2 numeric check digits. */
export const cnpjMask: MaskOptions = {
  mask: 'AA.AAA.AAA/AAAA-00',
  definitions: { A: /[0-9A-Z]/ },
  prepareChar: (chars: string) => chars.toUpperCase(),
};

/**
 * CPF 000.000.000-00 up to 11 characters, CNPJ AA.AAA.AAA/AAAA-00 beyond (alphanumeric CNPJ,
 * founding decision 10: letters upper-cased, the 2 check digits numeric). At most 14 letters/digits.
 */
export const cpfCnpjMask: MaskOptions = {
  mask: [{ mask: cpfMask.mask }, { mask: cnpjMask.mask, definitions: cnpjMask.definitions }],
  prepareChar: (chars: string) => chars.toUpperCase(),
  dispatch: (appended: string, masked: DynamicMasked) => {
    const chars = (masked.unmaskedValue + appended).toUpperCase().replace(/[^0-9A-Z]/g, '');
    const cnpj = chars.length > 11 || /[A-Z]/.test(chars);
    return masked.compiledMasks[cnpj ? 1 : 0];
  },
};

/** (DD) NNNNN-NNNN, at most 11 digits. */
export const phoneMask: MaskOptions = { mask: '(00) 00000-0000' };
