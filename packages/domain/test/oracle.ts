/**
 * An independent, deliberately plain implementation of the Receita Federal check digits,
 * written from the published rules, used only as a test oracle for the library we ship.
 */
function mod11Digit(values: number[], weights: number[]): number {
  const sum = values.reduce((acc, v, i) => acc + v * (weights[i] ?? 0), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function cpfCheckDigits(first9: string): string {
  const v = [...first9].map(Number);
  const d1 = mod11Digit(v, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11Digit([...v, d1], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${d1}${d2}`;
}

export function oracleCpf(value: string): boolean {
  if (!/^\d{11}$/.test(value) || /^(\d)\1{10}$/.test(value)) return false;
  return cpfCheckDigits(value.slice(0, 9)) === value.slice(9);
}

/** Alphanumeric CNPJ (NT COCAD/SUARA/RFB 49/2024): each character counts as its char code minus 48. */
export function cnpjCheckDigits(first12: string): string {
  const v = [...first12].map((c) => c.charCodeAt(0) - 48);
  const d1 = mod11Digit(v, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11Digit([...v, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${d1}${d2}`;
}

export function oracleCnpj(value: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value) || /^(.)\1{13}$/.test(value)) return false;
  return cnpjCheckDigits(value.slice(0, 12)) === value.slice(12);
}
