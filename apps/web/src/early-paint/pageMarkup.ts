/**
 * What every prerendered page, its first script (scripts/boot.ts) and the app agree on: the page's
 * mark, the <meta> the first script reads, and what a driver does before the app is live (a form
 * submitted, a button pressed). Named here once and imported by all three: the scripts are built on
 * their own (build/earlyScripts.ts), so what they import is copied into them. No imports: the
 * scripts must stay small. Apart from the balance's and the vehicle's names: the app's entry uses
 * these, and a module shared by the entry and a screen's chunk becomes a chunk of its own.
 */

/** On #root in a prerendered page: the path whose screen the markup is (e.g. '/login'). */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/**
 * On <html>, 'true' once the app is live (AppRoot, when the page is hydrated or drawn): from then on
 * a submit or a press is the app's (boot.ts holds them before). Browser journeys wait for it.
 */
export const LIVE_ATTRIBUTE = 'data-live';

/**
 * The name of the page's <meta> that tells boot.ts what to load and read: the app's entry and the
 * screen's chunks (its content), and the early read's attributes below.
 */
export const APP_META_NAME = 'portal-app';

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

/**
 * On the button of a press (or a form's submit) boot.ts held, at once (issue 25: on a weak link the
 * app went live 1.2-5.5 s after the press, with no sign it was seen): its value is the text the
 * button shows instead of its own (global.css draws it with a spinner). The app takes it off once
 * live, before making the press (typedBeforeHydration.ts).
 */
export const HELD_PRESS_ATTRIBUTE = 'data-held-press';

export const HELD_PRESS_TEXT = 'Aguarde…';

/**
 * The status boot.ts adds outside #root (React never sees it) when it holds a press, for a screen
 * reader: the press was seen and is made once the portal is ready. Hidden on screen (global.css).
 */
export const HELD_STATUS_ID = 'toque-recebido';

export const HELD_STATUS_TEXT = 'Toque recebido. O portal está terminando de carregar e faz o que você pediu em seguida.';
