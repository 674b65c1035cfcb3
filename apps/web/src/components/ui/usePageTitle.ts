import { useEffect } from 'react';

const APP_NAME = 'Portal do Motorista';

/** 'Entrar' -> document.title 'Entrar | Portal do Motorista'. */
export function pageTitle(title?: string | null): string {
  return title ? `${title} | ${APP_NAME}` : APP_NAME;
}

export function usePageTitle(title?: string | null): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
