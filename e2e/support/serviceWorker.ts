import { expect, type BrowserContext, type CDPSession, type Page, type Worker } from '@playwright/test';

/** Waits until the service worker is active and controls this page. */
export async function controlledByServiceWorker(page: Page) {
  const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? '');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toBe(script);
}

/** The portal's service worker registration, as the DevTools protocol names it. */
export async function workerRegistration(cdp: CDPSession, origin: string): Promise<string> {
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.some((r) => r.scopeURL === `${origin}/` && !r.isDeleted)).toBe(true);
  return registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted)!.registrationId;
}

/** The portal's service worker in this context (sw.js), waiting for it when it has not started yet. */
export async function portalWorker(context: BrowserContext, origin: string): Promise<Worker> {
  return context.serviceWorkers().find((w) => w.url() === `${origin}/sw.js`) ?? (await context.waitForEvent('serviceworker'));
}
