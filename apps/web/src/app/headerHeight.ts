import { observeHeight } from '../lib/observeHeight';

/** The CSS variable the toasts are placed under (global.css): the height of the shell's header. */
const HEADER_HEIGHT_VARIABLE = '--portal-header-height';

/**
 * Issue 25: a toast at the top covered the whole header ('Sair', 'Configurações') for 5 s at 360 px.
 * The header is sticky, always at the top of the screen, and its height follows the font size the
 * phone asks for: it is measured (after layout, lib/observeHeight.ts), and the toasts begin below
 * it. A ref callback (React 19: what it returns is its cleanup).
 */
export function watchHeaderHeight(header: HTMLElement | null): (() => void) | undefined {
  if (!header) return undefined;
  return observeHeight(header, (height) => document.documentElement.style.setProperty(HEADER_HEIGHT_VARIABLE, `${String(height)}px`));
}
