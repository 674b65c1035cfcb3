import { HELD_CLICK_ATTRIBUTE, HELD_CLICK_BUTTONS, HELD_PRESS_ATTRIBUTE, HELD_STATUS_ID, HELD_SUBMIT_ATTRIBUTE } from './pageMarkup';

/**
 * A prerendered page (pages.ts) shows its form before the app is live, and a driver on a weak
 * connection may type in it then. Hydration keeps the elements but not what was typed in a field
 * the app controls (a mask, a value kept in the form's state): main.tsx notes what was typed just
 * before hydrating, and once the tree is live (AppRoot) it is typed again, through each field's
 * own handlers, as if the driver typed it now: the mask shapes it, the form and the phone keep it.
 */
/** Each field typed in before hydration, and its text then. */
const typed = new Map<string, string>();

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function changedByHand(field: Field): boolean {
  if (field instanceof HTMLSelectElement) return [...field.options].some((option) => option.selected !== option.defaultSelected);
  if (field instanceof HTMLInputElement && ['checkbox', 'radio', 'hidden', 'file'].includes(field.type)) return false;
  return field.value !== field.defaultValue;
}

/** main.tsx, right before hydrating a prerendered page: which of its named fields were typed in or chosen. */
export function rememberTypedBeforeHydration(root: ParentNode): void {
  typed.clear();
  for (const field of root.querySelectorAll<Field>('input[name], select[name], textarea[name]')) {
    if (changedByHand(field)) typed.set(field.name, field.value);
  }
}

/**
 * Types the field's text again as a keystroke would reach the app. React compares an input's value
 * with the one it last knew: that is made empty first (the element's own setter, which React
 * watches), then the text is set past it (the prototype's setter) and the input event fires.
 */
function typeAgain(field: Field, value: string): void {
  if (!(field instanceof HTMLSelectElement)) field.value = '';
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/**
 * Once the app is live: each field typed in before is typed again, with what it holds now (more may
 * have been typed while the app hydrated), or what it held then if hydration emptied it.
 */
export function replayTypedBeforeHydration(root: ParentNode): void {
  for (const [name, before] of typed) {
    const field = root.querySelector<Field>(`[name="${CSS.escape(name)}"]`);
    if (field) typeAgain(field, field.value || before);
  }
  typed.clear();
}

/**
 * Once the app is live, before a held press is made: the 'Aguarde…' boot.ts put on its button and
 * the status it added go (issue 25); from here the app's own pending state says it.
 */
export function clearHeldPress(): void {
  for (const button of document.querySelectorAll(`[${HELD_PRESS_ATTRIBUTE}]`)) button.removeAttribute(HELD_PRESS_ATTRIBUTE);
  document.getElementById(HELD_STATUS_ID)?.remove();
}

/** Once the app is live and the typed text is back: the form boot.ts held, submitted now by the app. */
export function submitHeldBeforeHydration(): void {
  const html = document.documentElement;
  const held = html.getAttribute(HELD_SUBMIT_ATTRIBUTE);
  if (held === null) return;
  html.removeAttribute(HELD_SUBMIT_ATTRIBUTE);
  document.forms.item(Number(held))?.requestSubmit();
}

/** main.tsx, when the page is drawn anew instead of hydrated: its buttons are not the ones pressed. */
export function forgetHeldClick(): void {
  document.documentElement.removeAttribute(HELD_CLICK_ATTRIBUTE);
  clearHeldPress();
}

/**
 * Once the app is live: the button boot.ts saw pressed before, pressed now through the app, if the
 * button at its place still says the same (the page is the one hydrated, so it is that very element;
 * a different text means the page changed under it, and nothing is pressed).
 */
export function clickHeldBeforeHydration(): void {
  const html = document.documentElement;
  const raw = html.getAttribute(HELD_CLICK_ATTRIBUTE);
  if (raw === null) return;
  html.removeAttribute(HELD_CLICK_ATTRIBUTE);
  try {
    const held = JSON.parse(raw) as { index?: unknown; text?: unknown };
    const button = document.querySelectorAll<HTMLButtonElement>(HELD_CLICK_BUTTONS).item(Number(held.index));
    if (button && !button.disabled && button.textContent === held.text) button.click();
  } catch (error) {
    console.error('Toque antes do app ilegível', error);
  }
}
