import type { BrowserContext, CDPSession, Page, Worker } from '@playwright/test';
import { formatBrl, pushOptInTexts, pushSubscriptionMessages } from '@portal/domain';
import { viewports, type ViewportName } from '../chromium.js';
import {
  bearer,
  buyBalanceViaPix,
  driverWithTermsAccepted,
  expect,
  expectAccessible,
  reloadLive,
  screenshot,
  settled,
  signIn,
  test,
} from '../support/fixtures.js';
import { ownServerUrl, startOwnServer, type OwnServer } from '../support/ownServer.js';
import { controlledByServiceWorker, portalWorker, workerRegistration } from '../support/serviceWorker.js';
import { launchPushBrowser, type PushBrowser } from '../support/pushBrowser.js';
import type { LocalPushService } from '../support/pushService.js';
import { brl } from '../support/values.js';

/**
 * Issue 25, the web side of push notifications: the opt-in in Configurações (what will be sent,
 * then 'Ativar notificações' on this device), the subscription Chromium really makes and the
 * server keeps, and the service worker's handlers: a push message shown as a notification and a
 * tap on it opening its screen, driven through the DevTools protocol.
 *
 * A push subscription needs a push service, which for Chromium is Google's, and this machine has
 * no internet: the journey's browser is pointed at a local one (support/pushService.ts). Chromium
 * never offers push in an incognito profile, and every context of the fixtures is one, so the
 * journey with a subscription runs in a browser of its own with a profile on disk. That browser's
 * subscriptions name Chromium's staging push host (jmt17.google.com: its push service is not
 * Google's), which the server refuses by default (PUSH_SERVICE_HOSTS): that journey has a server of
 * its own that accepts it, as stolen-phone.spec.ts starts one for its clock.
 */

/** Above E2E_PORT: this journey's own server. */
const OWN_PORT_OFFSET = 50;

const section = (page: Page) => page.getByRole('region', { name: pushOptInTexts.title });

/**
 * Screenshot and axe at both widths, as the `look` fixture does for the fixtures' page, from the top
 * (the sticky header is drawn where the page was scrolled to), and nothing wider than the screen.
 */
async function lookAtBoth(page: Page, name: string, own: ViewportName) {
  for (const width of own === 'desktop' ? (['desktop', 'phone'] as const) : (['phone', 'desktop'] as const)) {
    await page.setViewportSize(viewports[width]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    await settled(page);
    const wider = await section(page).evaluate((region) =>
      Array.from(region.querySelectorAll('*'))
        .filter((e) => e.getBoundingClientRect().right > region.getBoundingClientRect().right + 0.5)
        .map((e) => e.outerHTML.slice(0, 80)),
    );
    expect(wider, `${name} at ${width}: wider than its section`).toEqual([]);
    await screenshot(page, name, width);
    await expectAccessible(page);
  }
  await page.setViewportSize(viewports[own]);
}

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: unknown;
}

/** The notifications the portal's service worker has on screen. */
function shownNotifications(page: Page): Promise<ShownNotification[]> {
  return page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as unknown,
    })),
  );
}

interface CountingScope {
  registration: { showNotification: (...args: unknown[]) => Promise<void> };
  shownByPortal?: number;
}

/**
 * Hands `data` to the portal's worker as its push service would (ServiceWorker.deliverPushMessage)
 * and waits until the worker's notification for it is shown (its showNotification resolved): a
 * getNotifications() made while Chromium is still displaying one drops it for good (seen once in a whole run of the browser suite).
 */
async function deliverPush(context: BrowserContext, cdp: CDPSession, origin: string, registrationId: string, data: string) {
  const worker = await portalWorker(context, origin);
  const shown = () => worker.evaluate(() => (self as unknown as CountingScope).shownByPortal ?? 0);
  await worker.evaluate(() => {
    const scope = self as unknown as CountingScope;
    if (scope.shownByPortal !== undefined) return;
    scope.shownByPortal = 0;
    const show = scope.registration.showNotification.bind(scope.registration);
    scope.registration.showNotification = async (...args: unknown[]) => {
      await show(...args);
      scope.shownByPortal = (scope.shownByPortal ?? 0) + 1;
    };
  });
  const before = await shown();
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data });
  await expect.poll(shown).toBe(before + 1);
}

/** This browser's push subscription's endpoint, or null. */
function subscriptionEndpoint(page: Page): Promise<string | null> {
  return page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint ?? null);
}

/**
 * Waits until this browser displays a notification as soon as it is shown. Chromium's first
 * display in a profile waits for its platform's notification service, and a getNotifications()
 * made meanwhile syncs its store with what is displayed and drops the notification for good (2
 * runs in 6 on a busy machine, though showNotification had resolved). A notification is shown and
 * read until it is seen, then closed: the pushes below meet a browser that displays at once.
 */
async function notificationsDisplayedAtOnce(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        await registration.showNotification('Portal do Motorista', { body: 'aquecimento', tag: 'aquecimento' });
        const seen = await registration.getNotifications({ tag: 'aquecimento' });
        for (const notification of seen) notification.close();
        return seen.length;
      }),
    )
    .toBe(1);
  await expect.poll(() => shownNotifications(page)).toEqual([]);
}

/**
 * A tap on the notification tagged `tag`: the browser's own click cannot be produced here, so the
 * worker is handed a NotificationEvent for that notification and runs its registered handler. A
 * synthetic event's waitUntil refuses (it is not the browser's): the handler's work is collected and
 * awaited instead. Its window.focus() is refused too (no real tap): the handler goes on without it.
 */
function tapNotification(worker: Worker, tag: string): Promise<string[]> {
  return worker.evaluate(async (wanted) => {
    interface Shown {
      tag: string;
    }
    interface Scope {
      registration: { getNotifications(): Promise<Shown[]> };
      NotificationEvent: new (type: string, init: { notification: Shown }) => Event;
      dispatchEvent(event: Event): boolean;
    }
    const scope = self as unknown as Scope;
    const notification = (await scope.registration.getNotifications()).find((n) => n.tag === wanted);
    if (!notification) return ['nenhuma notificação com essa tag'];
    const event = new scope.NotificationEvent('notificationclick', { notification });
    const work: Promise<unknown>[] = [];
    Object.defineProperty(event, 'waitUntil', { value: (promise: Promise<unknown>) => work.push(promise) });
    scope.dispatchEvent(event);
    const settledWork = await Promise.allSettled(work);
    return settledWork.map((r) => (r.status === 'fulfilled' ? 'ok' : String(r.reason)));
  }, tag);
}

test.describe('with a push service (a browser of its own)', () => {
  test.use({ baseURL: ownServerUrl(OWN_PORT_OFFSET) });
  let server: OwnServer | undefined;
  let pushService: LocalPushService;
  let context: BrowserContext;
  let browser: PushBrowser;

  test.beforeAll(async () => {
    server = await startOwnServer(OWN_PORT_OFFSET, { PUSH_SERVICE_HOSTS: 'fcm.googleapis.com,jmt17.google.com' });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test.beforeEach(async ({ baseURL }) => {
    browser = await launchPushBrowser(baseURL!, 'desktop');
    ({ context, pushService } = browser);
  });
  test.afterEach(async () => {
    await browser.close();
  });

  test('a driver turns notifications on in Configurações: a real subscription, kept by the server, shown and opened by the worker', async ({
    request,
    baseURL,
  }) => {
    // A browser of its own, a Pix paid through the CLI and two screens looked at, at both widths.
    test.slow();
    const origin = baseURL!;
    const { driver, token: Token } = await driverWithTermsAccepted(request);
    const page = context.pages()[0] ?? (await context.newPage());
    await signIn(page, driver.cpfCnpj, driver.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await controlledByServiceWorker(page);

    await page.getByRole('link', { name: 'Configurações' }).click();
    const notifications = section(page);
    await expect(notifications.getByRole('list', { name: pushOptInTexts.intro })).toContainText('passagens forem debitadas');
    await expect(notifications.getByRole('status')).toHaveText(pushOptInTexts.disabled);
    await lookAtBoth(page, 'notificacoes-desativadas', 'desktop');

    // 'Ativar notificações': the server's key, Chromium's subscription, the server keeps it.
    const keyAnswer = page.waitForResponse((r) => r.url().endsWith('/api/motorista/notificacoes/chave'));
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/motorista/notificacoes/inscricao') && r.request().method() === 'PUT');
    await notifications.getByRole('button', { name: pushOptInTexts.enable }).click();
    const { ChavePublica } = (await (await keyAnswer).json()) as { ChavePublica: string };
    const answer = await saved;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({ Sucesso: true, Mensagem: pushSubscriptionMessages.saved });
    const sent = answer.request().postDataJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
    expect(sent.endpoint).toMatch(/^https:\/\/[^/]+\/fcm\/send\/e2e-/);
    // The browser's own keys: a P-256 point (65 bytes) and a 16-byte secret.
    expect(Buffer.from(sent.keys.p256dh, 'base64url')).toHaveLength(65);
    expect(Buffer.from(sent.keys.auth, 'base64url')).toHaveLength(16);
    await expect(notifications.getByRole('status')).toHaveText(pushOptInTexts.enabled);
    expect(await subscriptionEndpoint(page)).toBe(sent.endpoint);
    // Chromium asked the push service for it with the server's key.
    const webPush = pushService.registrations.filter((r) => r.subtype.startsWith('wp:'));
    expect(webPush.map((r) => r.sender)).toEqual([ChavePublica]);
    expect(sent.endpoint.endsWith(webPush[0]!.token)).toBe(true);
    await lookAtBoth(page, 'notificacoes-ativadas', 'desktop');

    // A real event: a Pix paid. The server's push for it, as a second device of the driver receives
    // and decrypts it (support/pushService.ts), is handed to this browser's worker as its push
    // service would hand it (ServiceWorker.deliverPushMessage): Chromium's own push channel is Google's.
    const relay = await request.put('/api/motorista/notificacoes/inscricao', {
      headers: bearer(Token),
      data: pushService.relay.subscription,
    });
    expect(relay.status(), await relay.text()).toBe(200);
    const charge = await buyBalanceViaPix(request, Token, driver.cpfCnpj, 100, server);
    await expect.poll(() => pushService.relay.received.length, { timeout: 30_000 }).toBe(1);
    const pushed = pushService.relay.received[0]!;
    expect(JSON.parse(pushed)).toMatchObject({ titulo: 'Pix recebido', url: `/comprovantes/compra/${charge.id}` });
    const cdp = await context.newCDPSession(page);
    const registrationId = await workerRegistration(cdp, origin);
    await notificationsDisplayedAtOnce(page);
    await deliverPush(context, cdp, origin, registrationId, pushed);
    const pix = (JSON.parse(pushed) as { tag: string }).tag;
    await expect
      .poll(() => shownNotifications(page))
      .toEqual([
        {
          title: 'Pix recebido',
          body: `${formatBrl(10_000)} entraram no seu saldo de pedágio.`,
          tag: pix,
          data: { url: `${origin}/comprovantes/compra/${charge.id}` },
        },
      ]);

    // One it cannot read still says something, in Portuguese.
    await deliverPush(context, cdp, origin, registrationId, 'isto não é JSON');
    await expect
      .poll(async () => (await shownNotifications(page)).find((n) => n.tag === 'portal'))
      .toEqual({
        title: 'Portal do Motorista',
        body: 'Há uma novidade na sua conta. Toque para abrir o portal.',
        tag: 'portal',
        data: { url: `${origin}/dashboard` },
      });

    // The tap: the open portal goes to the payment's receipt, and the notification is gone.
    const worker = await portalWorker(context, origin);
    expect(await tapNotification(worker, pix)).toEqual(['ok']);
    await expect(page).toHaveURL(`${origin}/comprovantes/compra/${charge.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(brl(100)).first()).toBeVisible();
    await expect.poll(async () => (await shownNotifications(page)).map((n) => n.tag)).toEqual(['portal']);

    // 'Desativar notificações': removed on the server, then in the browser.
    await page.getByRole('link', { name: 'Configurações' }).click();
    await expect(notifications.getByRole('status')).toHaveText(pushOptInTexts.enabled);
    const removed = page.waitForResponse(
      (r) => r.url().endsWith('/api/motorista/notificacoes/inscricao') && r.request().method() === 'DELETE',
    );
    await notifications.getByRole('button', { name: pushOptInTexts.disable }).click();
    const removal = await removed;
    expect(removal.status()).toBe(200);
    expect(removal.request().postDataJSON()).toEqual({ endpoint: sent.endpoint });
    await expect(notifications.getByRole('status')).toHaveText(pushOptInTexts.disabled);
    expect(await subscriptionEndpoint(page)).toBeNull();

    // On again, then 'Sair': this browser stops receiving.
    await notifications.getByRole('button', { name: pushOptInTexts.enable }).click();
    await expect(notifications.getByRole('status')).toHaveText(pushOptInTexts.enabled);
    expect(await subscriptionEndpoint(page)).not.toBeNull();
    await page.getByRole('button', { name: 'Sair' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await subscriptionEndpoint(page)).toBeNull();
  });
});

test('this browser cannot subscribe (incognito): the reason and Tentar novamente; blocked at the prompt: how to allow it', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const { driver } = await driverWithTermsAccepted(request);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await controlledByServiceWorker(page);

  // Allowed, but Chromium's incognito profile has no push service: subscribe fails as a broken one would.
  await context.grantPermissions(['notifications'], { origin: baseURL });
  await page.getByRole('link', { name: 'Configurações' }).click();
  const notifications = section(page);
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().endsWith('/api/motorista/notificacoes/inscricao')) puts.push(r.url());
  });
  await notifications.getByRole('button', { name: pushOptInTexts.enable }).click();
  const failure = notifications.getByRole('alert');
  await expect(failure).toContainText(pushOptInTexts.enableFailedTitle);
  await expect(failure).toContainText(pushOptInTexts.pushServiceFailed);
  await expect(notifications.getByRole('status')).toHaveText(pushOptInTexts.disabled);
  await expect(notifications.getByRole('button', { name: pushOptInTexts.retry })).toBeEnabled();
  expect(puts).toEqual([]);
  await lookAtBoth(page, 'notificacoes-erro', 'desktop');

  // Not allowed: the browser's prompt answers 'Bloquear' (an incognito profile always does).
  await context.clearPermissions();
  await reloadLive(page);
  await notifications.getByRole('button', { name: pushOptInTexts.enable }).click();
  await expect(notifications.getByText(pushOptInTexts.deniedTitle)).toBeVisible();
  await expect(notifications.getByText(pushOptInTexts.deniedBody)).toBeVisible();
  await expect(notifications.getByRole('button', { name: pushOptInTexts.enable })).toHaveCount(0);
  expect(puts).toEqual([]);
  await lookAtBoth(page, 'notificacoes-bloqueadas', 'desktop');
});

test('a browser without the Push API is told so plainly', async ({ page, request }) => {
  await page.addInitScript(() => {
    Reflect.deleteProperty(window, 'PushManager');
  });
  const { driver } = await driverWithTermsAccepted(request);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('link', { name: 'Configurações' }).click();
  const notifications = section(page);
  await expect(notifications.getByText(pushOptInTexts.unsupportedTitle)).toBeVisible();
  await expect(notifications.getByRole('button')).toHaveCount(0);
  await lookAtBoth(page, 'notificacoes-sem-suporte', 'desktop');
});
