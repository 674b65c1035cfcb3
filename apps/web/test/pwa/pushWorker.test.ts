import { pushPayload } from '@portal/contract';
import { LIVE_TOPICS, notificationMessage, pushFallbackMessage } from '@portal/domain';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  openNotification,
  renewSubscription,
  showPush,
  type PortalWindow,
  type PushWorkerScope,
  type ShownNotification,
} from '../../src/pwa/push/handlers';
import { CHANGED_MESSAGE } from '../../src/pwa/push/changes';
import { PUSH_RENEWED_MESSAGE } from '../../src/pwa/push/renewal';
import { readPushPayload } from '../../src/pwa/push/payload';

const ORIGIN = 'https://portal.example.com.br';

/** A window of the portal open at `path`; `focusRefused` as when the browser does not allow it. */
function portalWindow(path: string, { focusRefused = false, navigateFails = false } = {}) {
  const win: PortalWindow & { navigated: string[]; told: unknown[] } = {
    url: `${ORIGIN}${path}`,
    navigated: [],
    told: [],
    postMessage: (message) => {
      win.told.push(message);
    },
    focus: vi.fn(async () => {
      if (focusRefused) throw new DOMException('Not allowed to focus a window.', 'InvalidAccessError');
      return win;
    }),
    navigate: vi.fn(async (url: string) => {
      if (navigateFails) throw new TypeError('This service worker is not the client’s active service worker.');
      win.navigated.push(url);
      return win;
    }),
  };
  return win;
}

/** The worker's scope as the handlers see it, recording what they do. */
function workerScope(windows: PortalWindow[] = []) {
  const shown: { title: string; options: ShownNotification }[] = [];
  const opened: string[] = [];
  const subscribedWith: ArrayBuffer[] = [];
  const scope: PushWorkerScope = {
    location: { origin: ORIGIN },
    registration: {
      showNotification: async (title, options) => {
        shown.push({ title, options });
      },
      pushManager: {
        subscribe: async ({ applicationServerKey }) => {
          subscribedWith.push(applicationServerKey);
          return {};
        },
      },
    },
    clients: {
      matchAll: async () => windows,
      openWindow: async (url) => {
        opened.push(url);
        return null;
      },
    },
  };
  return { scope, shown, opened, subscribedWith };
}

const text = (value: unknown) => ({ text: () => (typeof value === 'string' ? value : JSON.stringify(value)) });

const payment = {
  ...notificationMessage({ kind: 'pixReceived', chargeId: 'chg_1', amountCents: 15_000 }),
  enviadaEm: '2026-03-05T15:04:05.000Z',
};

describe('push: the server’s message as a notification', () => {
  it('shows the title and body in Portuguese, replaces by tag and opens the screen it names', async () => {
    expect(payment.corpo).toMatch(/^R\$\s150,00 entraram no seu saldo de pedágio\.$/);
    const { scope, shown } = workerScope();
    await showPush(scope, text(payment));
    expect(shown).toEqual([
      {
        title: 'Pix recebido',
        options: {
          body: payment.corpo,
          tag: 'pix-chg_1',
          renotify: true,
          icon: '/icons/icon-192.png',
          badge: '/icons/badge-96.png',
          lang: 'pt-BR',
          timestamp: Date.parse('2026-03-05T15:04:05.000Z'),
          data: { url: `${ORIGIN}/comprovantes/compra/chg_1` },
        },
      },
    ]);
  });

  it.each([
    ['no body at all', null],
    ['a body that is not JSON', text('<html>erro</html>')],
    ['JSON of another shape', text({ title: 'Hello', body: 'x' })],
    ['a title that is not text', text({ ...payment, titulo: 42 })],
    ['an address that is not a path', text({ ...payment, url: 'https://outro.example.com/golpe' })],
  ])('%s still shows a notification in Portuguese that opens the dashboard', async (_case, data) => {
    const { scope, shown } = workerScope();
    await showPush(scope, data);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.title).toBe(pushFallbackMessage.titulo);
    expect(shown[0]!.options).toMatchObject({
      body: pushFallbackMessage.corpo,
      tag: pushFallbackMessage.tag,
      data: { url: `${ORIGIN}/dashboard` },
    });
    expect(shown[0]!.options.timestamp).toBeUndefined();
  });

  it('a path that leaves the portal (//host, /\\host) opens the dashboard instead', async () => {
    for (const url of ['//golpe.example.com/pix', '/\\golpe.example.com']) {
      const { scope, shown } = workerScope();
      await showPush(scope, text({ ...payment, url }));
      expect(shown[0]!.title).toBe('Pix recebido');
      expect(shown[0]!.options.data.url).toBe(`${ORIGIN}/dashboard`);
    }
  });

  it('reads exactly what the contract’s pushPayload accepts', () => {
    const field = fc.oneof(
      fc.string(),
      fc.constantFrom('/extrato/listar', '/', 'extrato'),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
    );
    const topics = fc.oneof(
      fc.subarray([...LIVE_TOPICS]),
      fc.array(fc.oneof(fc.constantFrom(...LIVE_TOPICS), fc.string())),
      fc.string(),
      fc.constant(null),
      fc.constant(undefined),
    );
    const candidate = fc.record(
      { titulo: field, corpo: field, url: field, tag: field, enviadaEm: field, topicos: topics },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(candidate, fc.anything()), (value) => {
        const contract = pushPayload.safeParse(value);
        const read = readPushPayload(value);
        expect(read).toEqual(contract.success ? contract.data : null);
      }),
      { numRuns: 500 },
    );
  });
});

describe('push: the open windows told what the event changed (issue 33)', () => {
  it('every window of the portal gets the payload’s topics, beside the notification', async () => {
    const dashboard = portalWindow('/dashboard');
    const automatic = portalWindow('/saldo/recarga-automatica');
    const { scope, shown } = workerScope([dashboard, automatic]);
    await showPush(scope, text({ ...payment, topicos: ['automatic', 'notices'] }));
    expect(shown).toHaveLength(1);
    for (const win of [dashboard, automatic]) expect(win.told).toEqual([{ type: CHANGED_MESSAGE, topics: ['automatic', 'notices'] }]);
  });

  it.each([
    ['a payload without topics', text(payment)],
    ['a body that is not JSON', text('<html>erro</html>')],
    ['no body at all', null],
  ])('%s: anything may have changed, every topic', async (_case, data) => {
    const win = portalWindow('/extrato/listar');
    const { scope, shown } = workerScope([win]);
    await showPush(scope, data);
    expect(shown).toHaveLength(1);
    expect(win.told).toEqual([{ type: CHANGED_MESSAGE, topics: [...LIVE_TOPICS] }]);
  });

  it('no window open: the notification only', async () => {
    const { scope, shown } = workerScope([]);
    await showPush(scope, text({ ...payment, topicos: ['balance'] }));
    expect(shown).toHaveLength(1);
  });
});

describe('notificationclick: the screen the notification is about', () => {
  const notification = (url: unknown) => ({ data: { url }, close: vi.fn() });

  it('closes it, brings the open portal to the front and navigates it there', async () => {
    const win = portalWindow('/dashboard');
    const { scope, opened } = workerScope([win]);
    const tapped = notification(`${ORIGIN}/extrato/listar`);
    await openNotification(scope, tapped);
    expect(tapped.close).toHaveBeenCalledTimes(1);
    expect(win.focus).toHaveBeenCalledTimes(1);
    expect(win.navigated).toEqual([`${ORIGIN}/extrato/listar`]);
    expect(opened).toEqual([]);
  });

  it('navigates even when the browser refuses to bring the window to the front', async () => {
    const win = portalWindow('/dashboard', { focusRefused: true });
    const { scope } = workerScope([win]);
    await openNotification(scope, notification(`${ORIGIN}/vpos/listar`));
    expect(win.navigated).toEqual([`${ORIGIN}/vpos/listar`]);
  });

  it('a window already on that screen is only brought to the front (nothing typed is lost)', async () => {
    const win = portalWindow('/contestacoes');
    const { scope } = workerScope([win]);
    await openNotification(scope, notification(`${ORIGIN}/contestacoes`));
    expect(win.focus).toHaveBeenCalledTimes(1);
    expect(win.navigated).toEqual([]);
  });

  it('with no portal window open, opens one on the screen', async () => {
    const { scope, opened } = workerScope([]);
    await openNotification(scope, notification(`${ORIGIN}/saldo/comprar`));
    expect(opened).toEqual([`${ORIGIN}/saldo/comprar`]);
  });

  it('a window the worker cannot navigate: a new one instead', async () => {
    const win = portalWindow('/dashboard', { navigateFails: true });
    const { scope, opened } = workerScope([win]);
    await openNotification(scope, notification(`${ORIGIN}/tags/detalhes/RIO2A18`));
    expect(opened).toEqual([`${ORIGIN}/tags/detalhes/RIO2A18`]);
  });

  it.each([['https://golpe.example.com/pix'], ['javascript:alert(1)'], [42], [undefined]])(
    'never opens anything outside the portal (%s): the dashboard',
    async (url) => {
      const { scope, opened } = workerScope([]);
      await openNotification(scope, notification(url));
      expect(opened).toEqual([`${ORIGIN}/dashboard`]);
    },
  );
});

describe('pushsubscriptionchange: the browser renewed the subscription', () => {
  const serverKey = new Uint8Array([4, 1, 2, 3]).buffer;

  it('subscribes again with the server key of the ended one and tells every open window of the portal', async () => {
    const dashboard = portalWindow('/dashboard');
    const settings = portalWindow('/configuracoes');
    const { scope, subscribedWith } = workerScope([dashboard, settings]);
    await renewSubscription(scope, { options: { applicationServerKey: serverKey } }, null);
    expect(subscribedWith).toEqual([serverKey]);
    expect(dashboard.told).toEqual([PUSH_RENEWED_MESSAGE]);
    expect(settings.told).toEqual([PUSH_RENEWED_MESSAGE]);
  });

  it('a new subscription given by the browser is kept as it is; the windows are told', async () => {
    const open = portalWindow('/dashboard');
    const { scope, subscribedWith } = workerScope([open]);
    await renewSubscription(scope, { options: { applicationServerKey: serverKey } }, { endpoint: 'https://push.example.com/novo' });
    expect(subscribedWith).toEqual([]);
    expect(open.told).toEqual([PUSH_RENEWED_MESSAGE]);
  });

  it('with no key to subscribe with and no window open, nothing is done', async () => {
    const { scope, subscribedWith } = workerScope([]);
    await renewSubscription(scope, null, null);
    expect(subscribedWith).toEqual([]);
  });
});
