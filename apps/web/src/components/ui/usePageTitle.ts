import { useEffect } from 'react';
import { notePageTitle } from '../../early-paint/prerendering';

const APP_NAME = 'Portal do Motorista';

/** 'Entrar' -> document.title 'Entrar | Portal do Motorista'. */
export function pageTitle(title?: string | null): string {
  return title ? `${title} | ${APP_NAME}` : APP_NAME;
}

export function usePageTitle(title?: string | null): void {
  // A page prerendered at build time carries the title in its <title> (early-paint/).
  notePageTitle(title);
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
