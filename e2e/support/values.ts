/** How the screens write values, written out independently of the app's formatters, and random test data. */

/**
 * An amount in reais as the screens show it (Intl puts a no-break space after R$):
 * 1234.5 -> /R\$\s1\.234,50/, -40 -> /-R\$\s40,00/. A positive amount does not match its negative.
 */
export function brl(reais: number): RegExp {
  const [integer, decimals] = Math.abs(reais).toFixed(2).split('.');
  const thousands = integer!.replace(/\B(?=(\d{3})+(?!\d))/g, '.').replace(/\./g, '\\.');
  return new RegExp(`${reais < 0 ? '-' : '(?<!-)'}R\\$\\s${thousands},${decimals}(?!\\d)`);
}

/** A tag serial as the screens group it: '1234567890123456' -> '1234 5678 9012 3456'. */
export const grouped = (serial: string) => serial.replace(/(.{4})(?=.)/g, '$1 ');

/** n random decimal digits, e.g. for serials and partner ids unique to one run. */
export const randomDigits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');

/** Today in São Paulo as YYYY-MM-DD (a date input's value). */
export function todayInSaoPaulo(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
}
