import type { ScreenKey } from '../app/routes';

/**
 * The pages prerendered at build time (build/prerender.ts writes each as <path>.html, served by the
 * server for that path and precached by the service worker): the screen's first look, drawn from
 * the same element tree the browser hydrates. The signed-in ones show the header, the page's
 * headings, buttons and links, and skeletons where the driver's data goes: never a figure.
 * Screens whose path carries data (a plate, a receipt) are not prerendered.
 */
export interface PrerenderedPage {
  path: string;
  /** The code the page renders with (routes.tsx's screenLoaders), loaded before hydrating. */
  screens: readonly ScreenKey[];
  /** Hydrated only with a session; without one the app renders from scratch (and goes to /login). */
  signedIn: boolean;
}

const signedIn = (path: string, screen: ScreenKey): PrerenderedPage => ({ path, screens: ['shell', screen], signedIn: true });

export const PRERENDERED_PAGES: readonly PrerenderedPage[] = [
  { path: '/login', screens: ['login'], signedIn: false },
  signedIn('/dashboard', 'dashboard'),
  signedIn('/tags/listar', 'tags/listar'),
  signedIn('/veiculos/listar', 'veiculos/listar'),
  signedIn('/vpos/listar', 'vpos/listar'),
  signedIn('/extrato/listar', 'extrato/listar'),
  signedIn('/saldo/retirar', 'saldo/retirar'),
  signedIn('/tags/adicionar', 'tags/adicionar'),
];

export function prerenderedPage(path: string | null): PrerenderedPage | undefined {
  return PRERENDERED_PAGES.find((page) => page.path === path);
}
