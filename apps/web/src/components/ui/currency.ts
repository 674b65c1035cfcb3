/** At most R$ 999.999.999,99 can be typed (11 digits). */
const CURRENCY_MAX_DIGITS = 11;

/**
 * Currency typed like a cash register: the digits fill from the right, the comma and the thousand
 * dots are placed for the driver ('15000' -> '150,00', '123456' -> '1.234,56'). Phone keypads
 * (inputMode tel) have no comma, so only digits count; '' stays '' (the placeholder shows 0,00).
 */
export function formatCurrencyInput(text: string): string {
  const digits = text.replace(/\D/g, '').replace(/^0+/, '').slice(0, CURRENCY_MAX_DIGITS);
  if (!digits) return '';
  const padded = digits.padStart(3, '0');
  const integer = padded.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${integer},${padded.slice(-2)}`;
}
