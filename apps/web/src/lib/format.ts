import { formatBrl, formatDateTime, reaisToCents, type Cents } from '@portal/domain';

/** Wire reais -> centavos; a value with stray float noise is rounded rather than refused. */
export function toCents(reais: number): Cents {
  try {
    return reaisToCents(reais);
  } catch {
    return Math.round(reais * 100);
  }
}

/** 1234.5 -> 'R$ 1.234,50', -15.9 -> '-R$ 15,90'. */
export function formatReais(reais: number): string {
  return formatBrl(toCents(reais));
}

/** DD/MM/YYYY HH:mm:ss (São Paulo), or null when the value is not a valid date. */
export function formatDateTimeOrNull(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  try {
    return formatDateTime(value);
  } catch (error) {
    console.error(error);
    return null;
  }
}

/** 'maria da silva' -> 'Maria'. */
export function firstName(fullName: string | null | undefined): string {
  const first = (fullName ?? '').trim().split(/\s+/)[0] ?? '';
  return first ? first.charAt(0).toLocaleUpperCase('pt-BR') + first.slice(1) : '';
}
