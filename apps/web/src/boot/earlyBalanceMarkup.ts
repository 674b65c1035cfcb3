/**
 * What the prerendered pages, their first script (boot.ts) and the app agree on: the dashboard's
 * balance painted before the app arrives, and a form submitted before it. No imports: boot.ts
 * must stay tiny.
 */

/** GET /api/motorista/saldo (the contract's api.balance; test/earlyBalance.test.tsx keeps them equal). */
export const BALANCE_PATH = '/api/motorista/saldo';

/** On the balance panel: boot.ts may paint its figures (the elements marked SLOT_ATTRIBUTE). */
export const EARLY_BALANCE_ATTRIBUTE = 'data-early-balance';

/** On each figure's placeholder inside the panel. */
export const SLOT_ATTRIBUTE = 'data-balance-slot';

/** On <html> once boot.ts painted the balance: the answer and when it came (JSON), for the app. */
export const ANSWER_ATTRIBUTE = 'data-early-balance-answer';

/** On the build's <template>s of a figure (Money as the app draws it), one per size and sign. */
export const FIGURE_TEMPLATE_ATTRIBUTE = 'data-figure-template';

/**
 * On <html> when a prerendered form was submitted before the app was live: boot.ts held it (the
 * browser would have sent it away), and the app submits it once live (the form's index in
 * document.forms).
 */
export const HELD_SUBMIT_ATTRIBUTE = 'data-held-submit';

/**
 * On <html> when a button of a prerendered page (not a submit) was pressed before the app was live
 * (a tag's action the first script painted): boot.ts noted it, and the app presses it once live.
 * JSON: the button's index among HELD_CLICK_BUTTONS and its text, so that only that button is pressed.
 */
export const HELD_CLICK_ATTRIBUTE = 'data-held-click';

/** The buttons a held press may name: the page's own, not its forms' submits (HELD_SUBMIT_ATTRIBUTE). */
export const HELD_CLICK_BUTTONS = '#root button[type="button"]';

export function figureTemplateKey(hero: boolean, cents: number): string {
  return `${hero ? 'hero' : 'other'}:${cents < 0 ? 'negative' : cents > 0 ? 'positive' : 'zero'}`;
}
