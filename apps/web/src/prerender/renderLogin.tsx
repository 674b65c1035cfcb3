/**
 * Build-time entry (build/prerender.ts runs it in Node): the /login screen as static HTML, from
 * the same element tree the browser hydrates.
 */
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { AppRoot } from '../app/AppRoot';
import { createRoutes } from '../app/routes';
import { pageTitle } from '../components/ui/usePageTitle';
import { LoginPage, LOGIN_TITLE } from '../features/auth/LoginPage';

export const LOGIN_PATH = '/login';

export function renderLogin(): { html: string; title: string } {
  const router = createMemoryRouter(createRoutes({ LoginPage }), { initialEntries: [LOGIN_PATH] });
  return { html: renderToString(<AppRoot router={router} />), title: pageTitle(LOGIN_TITLE) };
}

export { PRERENDERED_ATTRIBUTE } from './marker';
