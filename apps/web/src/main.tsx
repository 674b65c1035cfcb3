import './app/styles';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchPath } from 'react-router';
import { AppRoot } from './app/AppRoot';
import { createAppRouter } from './app/router';
import { createRoutes, loadScreens, routes } from './app/routes';
import { getActingAccountText, getToken } from './lib/storage';
import { startSaoPauloZoneCheck } from './lib/zoneData';
import { PRERENDERED_ATTRIBUTE } from './early-paint/pageMarkup';
import { prerenderedPage } from './early-paint/pages';
import { forgetHeldClick, rememberTypedBeforeHydration } from './early-paint/typedBeforeHydration';

const container = document.getElementById('root');
if (!container) throw new Error('Elemento #root ausente em index.html');

/**
 * A prerendered page (src/early-paint/, served for its path) already holds the screen's first look:
 * adopt it instead of repainting. Not when the address asks for something the build did not draw
 * (a list's ?page=3), nor a signed-in page without a session, nor a screen the phone's own data
 * draws differently (PrerenderedPage.adoptable), nor a signed-in page while a company's account is
 * chosen (decision 77: its role may hide what the build drew, the balance of a Motorista): those
 * render from scratch.
 */
function adoptablePage() {
  const page = prerenderedPage(container?.getAttribute(PRERENDERED_ATTRIBUTE) ?? null);
  if (!page || !matchPath(page.path, window.location.pathname)) return undefined;
  if (page.signedIn && (window.location.search !== '' || !getToken() || getActingAccountText() !== null)) return undefined;
  if (page.adoptable && !page.adoptable()) return undefined;
  return page;
}

// Before the first render: a summer time this browser's zone data read on an earlier visit.
startSaoPauloZoneCheck();

const page = adoptablePage();
if (page) {
  // The page modulepreloads these chunks, so awaiting them costs no extra round trip.
  const preloaded = await loadScreens(page.screens);
  // A transition: React hydrates in slices, yielding to the browser, instead of one long task.
  rememberTypedBeforeHydration(container);
  startTransition(() => {
    hydrateRoot(container, <AppRoot router={createAppRouter(createRoutes(preloaded), { prerendered: true })} />);
  });
} else {
  // Drawn anew: a button pressed on the page before is not one of these.
  forgetHeldClick();
  createRoot(container).render(<AppRoot router={createAppRouter(routes)} />);
}

// The service worker (offline app shell, update prompt) once the page has loaded: its code and
// its precache downloads never compete with the first paint.
if (import.meta.env.PROD) {
  const showUpdate = (update: () => void) => void import('./app/showUpdatePrompt').then((m) => m.showUpdatePrompt(update));
  const startServiceWorker = () => void import('./pwa/registerServiceWorker').then((m) => m.registerServiceWorker(showUpdate));
  if (document.readyState === 'complete') startServiceWorker();
  else window.addEventListener('load', startServiceWorker, { once: true });
}
