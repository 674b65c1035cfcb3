/**
 * What the prerendered pages, their first script (boot.ts) and the app agree on for what a driver
 * does before the app is live: a form submitted, a button pressed. No imports: boot.ts must stay tiny.
 */

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
