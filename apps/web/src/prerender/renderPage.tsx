/**
 * Build-time entry (build/prerender.ts runs it in Node): a screen as static HTML, from the same
 * element tree the browser hydrates (main.tsx). The screens are imported here statically: the
 * build's module runner is closed once this module is loaded, so nothing may load later.
 */
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { AppRoot } from '../app/AppRoot';
import { AuthenticatedShell } from '../app/AuthenticatedShell';
import { prerendering } from '../app/prerendering';
import { DashboardRoute } from '../app/routes/DashboardRoute';
import { createRoutes, type PreloadedScreens, type ScreenKey } from '../app/routes';
import { pageTitle } from '../components/ui/usePageTitle';
import { FIGURE_TEMPLATE_ATTRIBUTE, figureTemplateKey } from '../boot/earlyBalanceMarkup';
import { LoginPage } from '../features/auth/LoginPage';
import { StatementPage } from '../features/statement/StatementPage';
import { TagRegisterPage } from '../features/tags/TagRegisterPage';
import { TagsListPage } from '../features/tags/TagsListPage';
import { VehiclesListPage } from '../features/vehicles/VehiclesListPage';
import { VposListPage } from '../features/vpos/VposListPage';
import { WithdrawPage } from '../features/withdrawal/WithdrawPage';
import { BalanceFigure } from '../features/dashboard/BalancePanel';
import { AppProviders } from '../app/AppProviders';
import { queryClient } from '../lib/queryClient';
import { prerenderedPage } from './pages';

const SCREENS: PreloadedScreens = {
  login: LoginPage,
  shell: AuthenticatedShell,
  dashboard: DashboardRoute,
  'tags/listar': TagsListPage,
  'veiculos/listar': VehiclesListPage,
  'vpos/listar': VposListPage,
  'extrato/listar': StatementPage,
  'saldo/retirar': WithdrawPage,
  'tags/adicionar': TagRegisterPage,
};

function screensOf(keys: readonly ScreenKey[]): PreloadedScreens {
  return Object.fromEntries(
    keys.map((key) => {
      const screen = SCREENS[key];
      if (!screen) throw new Error(`prerender: ${key} is not imported by renderPage.tsx`);
      return [key, screen];
    }),
  );
}

/**
 * The dashboard's balance figures as the app draws them, one <template> per size and sign: the page's
 * first script (boot/boot.ts) fills in the amount and puts one where each skeleton is, so the app
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

export function renderPage(path: string): { html: string; title: string; templates: string } {
  const page = prerenderedPage(path);
  if (!page) throw new Error(`prerender: ${path} is not in PRERENDERED_PAGES`);
  const router = createMemoryRouter(createRoutes(screensOf(page.screens)), { initialEntries: [path] });
  const { result: html, title } = prerendering(() => renderToString(<AppRoot router={router} />));
  // The screens' reads were only drawn as loading: forget them (and their timers, which would keep
  // the build's process alive for the days of their gcTime).
  queryClient.clear();
  return { html, title: pageTitle(title), templates: page.screens.includes('dashboard') ? figureTemplates() : '' };
}

export { PRERENDERED_ATTRIBUTE } from './marker';
export { PRERENDERED_PAGES } from './pages';
