import { matchPath } from 'react-router';
import { getBuyPix, getBuyValue } from '../lib/storage';

/**
 * The pages prerendered at build time (build/prerenderPages.ts writes each as <path>.html, served by the
 * server for that path and precached by the service worker): the screen's first look, drawn from
 * the same element tree the browser hydrates. The signed-in ones show the header, the page's
 * headings, buttons and links, and skeletons where the driver's data goes: never a figure.
 *
 * A path may carry the vehicle's plate (`:licensePlate`): the build draws the page once with
 * PLATE_PLACEHOLDER where the plate goes (the screens write the plate upper-cased), and the server
 * writes the plate of the address there (apps/server/src/plugins/web.ts). Such a page is a template:
 * the service worker keeps it out of its cache (offline, those paths get index.html).
 */
export interface PrerenderedPage<Screen extends string = string> {
  /** A route path of routes.tsx. */
  path: string;
  /**
   * The code the page renders with, by its key in app/routes.tsx's screenLoaders, loaded before
   * hydrating. Named here as literals: the app checks they are its screens where it loads them
   * (loadScreens takes only a ScreenKey), so this layer needs nothing from app/.
   */
  screens: readonly Screen[];
  /** Hydrated only with a session; without one the app renders from scratch (and goes to /login). */
  signedIn: boolean;
  /**
   * False when what the phone keeps would draw the screen differently from the page (a Pix charge
   * still to pay): the app then draws it from scratch over the page.
   */
  adoptable?: () => boolean;
  /**
   * The one read the page's first script makes at once and paints before the app arrives
   * (scripts/boot.ts), from build-time templates of the app's markup: the dashboard's balance, a tag's
   * vehicle.
   */
  earlyRead?: 'balance' | 'vehicle';
}

/** What the build writes where a plate goes; the server replaces it with the address's plate, upper-cased. */
export const PLATE_PLACEHOLDER = '__LICENSEPLATE__';

const signedIn = <Screen extends string>(
  path: string,
  screen: Screen,
  more: Pick<PrerenderedPage, 'adoptable' | 'earlyRead'> = {},
): PrerenderedPage<'shell' | Screen> => ({ path, screens: ['shell', screen], signedIn: true, ...more });

const signedOut = <Screen extends string>(path: string, screen: Screen): PrerenderedPage<Screen> => ({
  path,
  screens: [screen],
  signedIn: false,
});

export const PRERENDERED_PAGES = [
  signedOut('/login', 'login'),
  signedOut('/registrar', 'registrar'),
  // Decision 72: the privacy notice, read before signing in; its encarregado arrives from the API.
  signedOut('/privacidade', 'privacidade'),
  signedIn('/dashboard', 'dashboard', { earlyRead: 'balance' }),
  signedIn('/tags/listar', 'tags/listar'),
  signedIn('/veiculos/listar', 'veiculos/listar'),
  signedIn('/vpos/listar', 'vpos/listar'),
  signedIn('/extrato/listar', 'extrato/listar'),
  signedIn('/contestacoes', 'contestacoes'),
  // Decision 76: the free-flow tolls of the driver's plates.
  signedIn('/livre-passagem', 'livre-passagem'),
  signedIn('/saldo/retirar', 'saldo/retirar'),
  // The value typed and the Pix to pay survive a reload (founding decision 6): the page has neither.
  signedIn('/saldo/comprar', 'saldo/comprar', { adoptable: () => !getBuyValue() && getBuyPix() === null }),
  // Decision 58: the recurring top-up by Pix Automático.
  signedIn('/saldo/recarga-automatica', 'saldo/recarga-automatica'),
  signedIn('/tags/adicionar', 'tags/adicionar'),
  signedIn('/tags/detalhes/:licensePlate', 'tags/detalhes/:licensePlate', { earlyRead: 'vehicle' }),
  signedIn('/tags/editar/:licensePlate', 'tags/editar/:licensePlate'),
  // Decision 59: Configurações (alert level, payout limits and keys, notifications on this device).
  signedIn('/configuracoes', 'configuracoes'),
] as const;

/** One of the pages above, its screens named by their literal keys. */
export type ListedPage = (typeof PRERENDERED_PAGES)[number];

/** The page listed for this route path (the one a prerendered page names on its #root). */
export function prerenderedPage(path: string | null): ListedPage | undefined {
  return PRERENDERED_PAGES.find((page) => page.path === path);
}

/** The page drawn for this address, if any (a plate page for /tags/detalhes/RIO2A18). */
export function prerenderedPageAt(pathname: string): ListedPage | undefined {
  return PRERENDERED_PAGES.find((page) => matchPath(page.path, pathname) !== null);
}

/** Where the build renders a page: its path, with PLATE_PLACEHOLDER for the plate. */
export const renderedPath = (page: PrerenderedPage): string => page.path.replace(':licensePlate', PLATE_PLACEHOLDER);

/**
 * The page's file in the build: /dashboard -> dashboard.html, /tags/listar -> tags/listar.html (the
 * names Workbox's cleanURLs finds for a navigation); a plate page's is a template the worker leaves
 * out (/tags/detalhes/:licensePlate -> tags/detalhes/[licensePlate].html).
 */
export const pageFile = (page: PrerenderedPage): string => `${page.path.slice(1).replace(':licensePlate', '[licensePlate]')}.html`;
