import { vi } from 'vitest';

/** A subscription's keys as the contract accepts them: a 65-byte P-256 point and a 16-byte secret (base64url). */
export const subscriptionKeys = {
  p256dh: Buffer.from([4, ...Array.from({ length: 64 }, (_, i) => i + 1)]).toString('base64url'),
  auth: Buffer.from('ABCDEFGHIJKLMNOP').toString('base64url'),
};
export const pushEndpoint = 'https://push.example.com/fcm/send/aparelho-1';
/** The server's VAPID key (GET /api/motorista/notificacoes/chave). */
export const serverKey = Buffer.from([4, ...Array.from({ length: 64 }, (_, i) => 200 - i)]).toString('base64url');

function bytesOf(base64url: string): ArrayBuffer {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
}

interface FakeOptions {
  /** What Notification.permission says when the page opens. */
  permission?: NotificationPermission;
  /** Already subscribed (with the server's key). */
  subscribed?: boolean;
  /** No Push API (iPhone outside the home screen, an old browser). */
  unsupported?: boolean;
}

/**
 * The browser's Notification, PushManager and service worker as jsdom lacks them: the test decides
 * what the permission prompt answers and whether the push service gives an address.
 */
export function fakePushBrowser({ permission = 'default', subscribed = false, unsupported = false }: FakeOptions = {}) {
  const state = {
    permission,
    /** What the prompt answers next. */
    prompt: 'granted' as NotificationPermission,
    /** The push service's next answer: a subscription, or this failure. */
    subscribeFailure: null as Error | null,
    /** Holds subscribe until released (the 'working' state). */
    subscribeGate: null as Promise<void> | null,
    subscription: null as ReturnType<typeof makeSubscription> | null,
  };

  const unsubscribe = vi.fn(async () => {
    state.subscription = null;
    return true;
  });
  function makeSubscription(key: ArrayBuffer) {
    return {
      endpoint: pushEndpoint,
      options: { applicationServerKey: key, userVisibleOnly: true },
      toJSON: () => ({ endpoint: pushEndpoint, expirationTime: null, keys: subscriptionKeys }),
      unsubscribe,
    };
  }
  if (subscribed) state.subscription = makeSubscription(bytesOf(serverKey));

  const requestPermission = vi.fn(async () => {
    if (state.permission === 'default') state.permission = state.prompt;
    return state.permission;
  });
  const subscribe = vi.fn(async (options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array }) => {
    if (state.subscribeGate) await state.subscribeGate;
    if (state.subscribeFailure) throw state.subscribeFailure;
    state.subscription ??= makeSubscription(options.applicationServerKey.slice().buffer);
    return state.subscription;
  });
  const registration = {
    pushManager: { getSubscription: vi.fn(async () => state.subscription), subscribe },
  };

  const Notification = {
    get permission() {
      return state.permission;
    },
    requestPermission,
  };
  const installed: string[] = [];
  const define = (target: object, name: string, value: unknown) => {
    Object.defineProperty(target, name, { configurable: true, writable: true, value });
    installed.push(name);
  };
  define(window, 'Notification', Notification);
  // An EventTarget, as ServiceWorkerContainer is: the worker's messages reach the page through it.
  // A message posted while the page has no listener is lost, as it is in a loaded page.
  let messageListeners = 0;
  const container = new EventTarget();
  const addListener = container.addEventListener.bind(container);
  const removeListener = container.removeEventListener.bind(container);
  const serviceWorker = Object.assign(container, {
    addEventListener(...args: Parameters<EventTarget['addEventListener']>) {
      if (args[0] === 'message') messageListeners += 1;
      addListener(...args);
    },
    removeEventListener(...args: Parameters<EventTarget['removeEventListener']>) {
      if (args[0] === 'message') messageListeners -= 1;
      removeListener(...args);
    },
    getRegistration: vi.fn(async () => registration),
    ready: Promise.resolve(registration),
  });
  define(navigator, 'serviceWorker', serviceWorker);
  if (!unsupported) define(window, 'PushManager', class PushManager {});

  return {
    state,
    /** The service worker posts this page a message (pwa/push/handlers.ts). */
    postFromWorker(data: unknown) {
      serviceWorker.dispatchEvent(new MessageEvent('message', { data }));
    },
    /** Whether the page listens to its service worker's messages (its effects have run). */
    pageListens: () => messageListeners > 0,
    requestPermission,
    subscribe,
    unsubscribe,
    /** Takes the fakes away again. */
    remove() {
      for (const target of [window, navigator]) {
        for (const name of installed) Reflect.deleteProperty(target, name);
      }
    },
  };
}
