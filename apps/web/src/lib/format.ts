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

/** The joining words of a Brazilian name, kept lower-case ('Maria da Silva'). */
const NAME_PARTICLES = new Set(['da', 'das', 'de', 'do', 'dos', 'e']);

/** 'maria da silva' -> 'Maria da Silva' (the header's line says whose account is shown, decision 77). */
export function fullName(name: string | null | undefined): string {
  return (name ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word, index) => {
      const lower = word.toLocaleLowerCase('pt-BR');
      if (index > 0 && NAME_PARTICLES.has(lower)) return lower;
      return word === word.toLocaleLowerCase('pt-BR') ? word.charAt(0).toLocaleUpperCase('pt-BR') + word.slice(1) : word;
    })
    .join(' ');
}

/** 'maria da silva' -> 'Maria'. */
export function firstName(fullName: string | null | undefined): string {
  const first = (fullName ?? '').trim().split(/\s+/)[0] ?? '';
  return first ? first.charAt(0).toLocaleUpperCase('pt-BR') + first.slice(1) : '';
}
