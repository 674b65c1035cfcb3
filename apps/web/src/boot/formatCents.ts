/**
 * The domain's formatBrl, repeated for boot.ts alone (importing the domain would be a chunk of its
 * own); test/prerender.test.tsx keeps the two equal. By hand, not Intl: the first Intl formatter
 * loads the locale's data in one long task (~120 ms on a mid-range phone) as the page should answer.
 */
export function formatCents(cents: number): string {
  const whole = Math.abs(cents);
  const reais = Math.floor(whole / 100)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, '.');
  return `${cents < 0 ? '-' : ''}R$\u00a0${reais},${String(whole % 100).padStart(2, '0')}`;
}
