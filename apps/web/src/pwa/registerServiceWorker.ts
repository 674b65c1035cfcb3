import { Workbox } from 'workbox-window';

/** A driver may keep the app open for days: look for a new version every hour while online. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker built by vite-plugin-pwa (vite.config.ts), from the bundle (the
 * CSP allows no inline script). A new version installs in the background and waits; the driver
 * decides when it takes over ('Nova versão disponível' / 'Atualizar', shown by `showUpdate`, which
 * main.tsx gives: the notice is drawn by the app, above this folder), then the page reloads once.
 */
export function registerServiceWorker(showUpdate: (update: () => void) => void): void {
  if (!('serviceWorker' in navigator)) return;
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    showUpdate(() => {
      wb.addEventListener('controlling', () => window.location.reload());
      wb.messageSkipWaiting();
    });
  });
  wb.register()
    .then((registration) => {
      if (!registration) return;
      window.setInterval(() => {
        if (navigator.onLine) registration.update().catch(() => undefined);
      }, UPDATE_CHECK_MS);
    })
    // Without a worker the app still works online; it just does not open offline.
    .catch((error: unknown) => console.warn('service worker não registrado', error));
}
