/**
 * What the prerendered dashboard, its first script (scripts/boot.ts) and the app agree on for the
 * balance painted before the app arrives. Named here once and imported by all three: the scripts
 * are built on their own (build/earlyScripts.ts), so what they import is copied into them. No
 * imports: the scripts must stay small.
 */

/** GET /api/motorista/saldo (the contract's api.balance; test/early-paint/prerender.test.tsx holds them equal). */
export const BALANCE_PATH = '/api/motorista/saldo';

/** On the balance panel: boot.ts may paint its figures (the elements marked SLOT_ATTRIBUTE). */
export const EARLY_BALANCE_ATTRIBUTE = 'data-early-balance';

/** On each figure's placeholder inside the panel. */
export const SLOT_ATTRIBUTE = 'data-balance-slot';

/** On <html> once boot.ts painted the balance: the answer and when it came (JSON), for the app. */
export const ANSWER_ATTRIBUTE = 'data-early-balance-answer';

/** On the build's <template>s of a figure (Money as the app draws it), one per size and sign. */
export const FIGURE_TEMPLATE_ATTRIBUTE = 'data-figure-template';

export function figureTemplateKey(hero: boolean, cents: number): string {
  return `${hero ? 'hero' : 'other'}:${cents < 0 ? 'negative' : cents > 0 ? 'positive' : 'zero'}`;
}
