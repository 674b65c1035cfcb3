import './app/styles';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppRoot } from './app/AppRoot';
import { createAppRouter } from './app/router';
import { createRoutes, routes } from './app/routes';
import { PRERENDERED_ATTRIBUTE } from './prerender/marker';

const container = document.getElementById('root');
if (!container) throw new Error('Elemento #root ausente em index.html');

// login.html (served for /login) already holds the rendered screen: adopt it instead of repainting.
if (container.getAttribute(PRERENDERED_ATTRIBUTE) === window.location.pathname) {
  // login.html modulepreloads this chunk, so awaiting it costs no extra round trip.
  const { LoginPage } = await import('./features/auth/LoginPage');
  hydrateRoot(container, <AppRoot router={createAppRouter(createRoutes({ LoginPage }))} />);
} else {
  createRoot(container).render(<AppRoot router={createAppRouter(routes)} />);
}

// The service worker (offline app shell, update prompt) once the page has loaded: its code and
// its precache downloads never compete with the first paint.
if (import.meta.env.PROD) {
  const startServiceWorker = () => void import('./pwa/registerServiceWorker').then((m) => m.registerServiceWorker());
  if (document.readyState === 'complete') startServiceWorker();
  else window.addEventListener('load', startServiceWorker, { once: true });
}
