/**
 * Build-time entry (prerenderPages.ts runs it in Node, in Vite's module runner): a screen as static
 * HTML, from the same element tree the browser hydrates (main.tsx). Every screen a page draws is
 * loaded here, before the module is done: the build's module runner is closed once this module is
 * loaded, so nothing may load later.
 */
import type { VehicleDetail } from '@portal/contract';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { AppProviders } from '../../app/AppProviders';
import { AppRoot } from '../../app/AppRoot';
import { createRoutes, loadScreens } from '../../app/routes';
import { pageTitle } from '../../components/ui/usePageTitle';
import { BalanceFigure } from '../../features/dashboard/BalancePanel';
import { vehicleDetailQuery } from '../../features/tags/api/queries';
import { queryClient } from '../../lib/queryClient';
import { EARLY_BALANCE_ATTRIBUTE, FIGURE_TEMPLATE_ATTRIBUTE, figureTemplateKey } from '../balanceMarkup';
import { PLATE_PLACEHOLDER, PRERENDERED_PAGES, prerenderedPage, prerenderedPageAt, renderedPath, type ListedPage } from '../pages';
import { prerendering } from '../prerendering';
import { EARLY_VEHICLE_ATTRIBUTE, VEHICLE_PAINTER_ATTRIBUTE } from '../vehicleMarkup';
import type { EarlyScript } from './earlyScripts';
import { vehicleTemplates } from './vehicleTemplates';

/** The code of every screen a prerendered page draws, by the route table's own loaders. */
const SCREENS = await loadScreens([...new Set(PRERENDERED_PAGES.flatMap((page) => page.screens))]);

/**
 * The dashboard's balance figures as the app draws them, one <template> per size and sign: the page's
 * first script (scripts/boot.ts) fills in the amount and puts one where each skeleton is, so the app
 * then hydrates exactly the markup it would have drawn.
 */
function figureTemplates(): string {
  return [true, false]
    .flatMap((hero) =>
      [-1, 0, 1].map((reais) => {
        const html = renderToString(
          <AppProviders>
            <BalanceFigure value={reais} hero={hero} />
          </AppProviders>,
        );
        const figure = /<span[^>]*tabular-nums[^>]*>[^<]*<\/span>/.exec(html)?.[0];
        if (!figure) throw new Error('prerender: no balance figure in its render');
        return `<template ${FIGURE_TEMPLATE_ATTRIBUTE}="${figureTemplateKey(hero, reais * 100)}">${figure}</template>`;
      }),
    )
    .join('');
}

/** The page as the browser hydrates it at this address, with the vehicle of the address read when one is given. */
function draw(page: ListedPage, address: string, vehicle?: VehicleDetail): { html: string; title: string | null | undefined } {
  if (vehicle) queryClient.setQueryData(vehicleDetailQuery(PLATE_PLACEHOLDER).queryKey, { Sucesso: true, Mensagem: 'OK', Dados: vehicle });
  // The page's own screens, as main.tsx preloads them before hydrating it.
  const preloaded = Object.fromEntries(page.screens.map((key) => [key, SCREENS[key]]));
  const router = createMemoryRouter(createRoutes(preloaded), { initialEntries: [address] });
  try {
    const { result: html, title } = prerendering(() => renderToString(<AppRoot router={router} />));
    return { html, title };
  } finally {
    // The screens' reads were only drawn as loading: forget them (and their timers, which would keep
    // the build's process alive for the days of their gcTime).
    queryClient.clear();
  }
}

export interface RenderedPage {
  html: string;
  title: string;
  /** <template>s of the app's markup that boot.ts fills in with the read it makes at once. */
  templates: string;
  /** Attributes of <meta name="portal-app">: which read boot.ts makes at once, if any. */
  early: string;
  /** A script boot.ts loads on this page alone (build/earlyScripts.ts), and the meta attribute that names its file. */
  bootScript?: { attribute: string; script: EarlyScript };
}

/** What the page's first script needs for its early read (PrerenderedPage.earlyRead). */
function earlyRead(page: ListedPage): Pick<RenderedPage, 'templates' | 'early' | 'bootScript'> {
  switch (page.earlyRead) {
    case 'balance':
      return { templates: figureTemplates(), early: EARLY_BALANCE_ATTRIBUTE };
    case 'vehicle':
      // The templates are drawn at the route's own address; the server writes the plate into the meta.
      return {
        templates: vehicleTemplates((vehicle) => draw(page, renderedPath(page), vehicle).html),
        early: `${EARLY_VEHICLE_ATTRIBUTE}="${PLATE_PLACEHOLDER}"`,
        bootScript: { attribute: VEHICLE_PAINTER_ATTRIBUTE, script: 'paintVehicle' },
      };
    case undefined:
      return { templates: '', early: '' };
  }
}

/**
 * A page of PRERENDERED_PAGES: by its route path (a plate page drawn with PLATE_PLACEHOLDER, as the
 * build writes it) or at an address it serves (/tags/detalhes/RIO2A18, as the server fills it in).
 */
export function renderPage(path: string): RenderedPage {
  const page = prerenderedPage(path) ?? prerenderedPageAt(path);
  if (!page) throw new Error(`prerender: ${path} is not in PRERENDERED_PAGES`);
  const { html, title } = draw(page, page.path === path ? renderedPath(page) : path);
  return { html, title: pageTitle(title), ...earlyRead(page) };
}

export { APP_META_NAME, PRERENDERED_ATTRIBUTE } from '../pageMarkup';
export { PRERENDERED_PAGES, pageFile } from '../pages';
