import { useLayoutEffect } from 'react';
import { notePageTitle } from '../../early-paint/prerendering';

const APP_NAME = 'Portal do Motorista';

/** 'Entrar' -> document.title 'Entrar | Portal do Motorista'. */
export function pageTitle(title?: string | null): string {
  return title ? `${title} | ${APP_NAME}` : APP_NAME;
}

export function usePageTitle(title?: string | null): void {
  // A page prerendered at build time carries the title in its <title> (early-paint/).
  notePageTitle(title);
  // Set in the same commit as the page's heading: a reader (or a screen reader's announcement of the
  // new page) never meets the new heading under the previous page's title.
  useLayoutEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
