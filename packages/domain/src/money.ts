/** Money is integer centavos inside the system; reais (max 2 decimals) on the wire. */
export type Cents = number;

/**
 * 123456 -> 'R$ 1.234,56'; -1590 -> '-R$ 15,90' (the sign is always written, never colour alone).
 * What Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }) writes (a no-break space
 * after R$; the tests hold the two equal), built by hand: a phone's first Intl formatter loads the
 * locale's data, ~30 ms of one task at 1x CPU, while the portal's pages are starting.
 */
export function formatBrl(cents: Cents): string {
  assertCents(cents);
  const whole = Math.abs(cents);
  const reais = Math.floor(whole / 100)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, '.');
  return `${cents < 0 ? '-' : ''}R$\u00a0${reais},${String(whole % 100).padStart(2, '0')}`;
}

/** Wire value (reais) -> centavos. Refuses more than 2 decimals and unsafe values. */
export function reaisToCents(reais: number): Cents {
  if (!Number.isFinite(reais)) throw new RangeError('Valor monetário inválido');
  const scaled = reais * 100;
  const cents = Math.round(scaled);
  // Float noise grows with magnitude (0.1 + 0.2, 123456789.07 * 100); a real third decimal does not.
  const noise = Math.max(1e-6, Math.abs(scaled) * 8 * Number.EPSILON);
  if (Math.abs(cents - scaled) > noise || !Number.isSafeInteger(cents)) {
    throw new RangeError('Valor monetário com mais de 2 casas decimais');
  }
  return cents;
}

export function isReaisAmount(reais: number): boolean {
  try {
    reaisToCents(reais);
    return true;
  } catch {
    return false;
  }
}

export function centsToReais(cents: Cents): number {
  assertCents(cents);
  return cents / 100;
}

/**
 * A driver's typed value ('1.234,56', 'R$ 150,00', '150') -> centavos, or null when it is
 * not a number. spec §5: thousand dots removed, the comma becomes the decimal point.
 */
export function parseBrlInput(text: string): Cents | null {
  const normalised = text.replace(/R\$/g, '').replace(/\s/g, '').replace(/\./g, '').replace(',', '.');
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(normalised);
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

function assertCents(cents: Cents): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Centavos devem ser inteiros: ${cents}`);
}
