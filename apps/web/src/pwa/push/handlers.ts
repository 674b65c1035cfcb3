import { pushFallbackMessage } from '@portal/domain';
import { changedMessage, type ChangedMessage } from './changes';
import { portalUrl, readPushPayload } from './payload';
import { PUSH_RENEWED_MESSAGE } from './renewal';

/** The app's icon beside the text, and the monochrome truck in Android's status bar. */
const ICON = '/icons/icon-192.png';
const BADGE = '/icons/badge-96.png';

/** What showNotification is given (the DOM library's NotificationOptions lacks `renotify`). */
export interface ShownNotification {
  body: string;
  tag: string;
  /** A later notification with the same tag replaces the earlier one and still alerts the driver. */
  renotify: boolean;
  icon: string;
  badge: string;
  lang: string;
  timestamp?: number;
  data: { url: string };
}

/** An open window of the portal, as the service worker sees it. */
export interface PortalWindow {
  readonly url: string;
  focus(): Promise<PortalWindow>;
  navigate(url: string): Promise<PortalWindow | null>;
  postMessage(message: string | ChangedMessage): void;
}

/** The parts of the service worker's global scope the handlers use. */
export interface PushWorkerScope {
  readonly location: { readonly origin: string };
  readonly registration: {
    showNotification(title: string, options: ShownNotification): Promise<void>;
    readonly pushManager: { subscribe(options: { userVisibleOnly: true; applicationServerKey: ArrayBuffer }): Promise<unknown> };
  };
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly PortalWindow[]>;
    openWindow(url: string): Promise<unknown>;
  };
}

/** A push message's body (PushMessageData). */
export interface PushData {
  text(): string;
}

function parsed(data: PushData | null): unknown {
  if (!data) return null;
  try {
    return JSON.parse(data.text()) as unknown;
  } catch {
    return null;
  }
}

/** Every window of the portal open in this browser, controlled by this worker or not yet. */
function portalWindows(scope: PushWorkerScope): Promise<readonly PortalWindow[]> {
  return scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
}

/**
 * push: the server's pushPayload as a notification, and the open windows of the portal told what
 * the event changed (issue 33: the screen on view reads it again at once). A message it cannot read
 * still shows one, in Portuguese (a push that shows nothing gets the browser's own notice, and the
 * browser may stop delivering to a site that does that), and tells the windows that anything may
 * have changed.
 */
export async function showPush(scope: PushWorkerScope, data: PushData | null): Promise<void> {
  const payload = readPushPayload(parsed(data));
  await Promise.all([showNotification(scope, payload), tellOpenWindows(scope, changedMessage(payload?.topicos))]);
}

async function tellOpenWindows(scope: PushWorkerScope, message: ChangedMessage): Promise<void> {
  for (const open of await portalWindows(scope)) open.postMessage(message);
}

function showNotification(scope: PushWorkerScope, payload: ReturnType<typeof readPushPayload>): Promise<void> {
  const message = payload ?? pushFallbackMessage;
  const sentAt = payload ? Date.parse(payload.enviadaEm) : Number.NaN;
  return scope.registration.showNotification(message.titulo, {
    body: message.corpo,
    tag: message.tag,
    renotify: true,
    icon: ICON,
    badge: BADGE,
    lang: 'pt-BR',
    ...(Number.isNaN(sentAt) ? {} : { timestamp: sentAt }),
    data: { url: portalUrl(message.url, scope.location.origin, pushFallbackMessage.url) },
  });
}

/** The notification's own data as showPush wrote it: its address, only ever a path of the portal. */
function notificationUrl(scope: PushWorkerScope, data: unknown): string {
  const url = typeof data === 'object' && data !== null ? (data as { url?: unknown }).url : undefined;
  const path = typeof url === 'string' && url.startsWith(scope.location.origin) ? url.slice(scope.location.origin.length) : url;
  return portalUrl(path, scope.location.origin, pushFallbackMessage.url);
}

/**
 * notificationclick: the portal's screen the notification is about, in the window the driver
 * already has open (brought to the front) or in a new one.
 */
export async function openNotification(scope: PushWorkerScope, notification: { readonly data: unknown; close(): void }): Promise<void> {
  notification.close();
  const url = notificationUrl(scope, notification.data);
  const windows = await portalWindows(scope);
  const open = windows.find((w) => w.url.startsWith(`${scope.location.origin}/`));
  if (!open) {
    await scope.clients.openWindow(url);
    return;
  }
  // Bringing it to the front may be refused (the browser decides); the screen changes all the same.
  const focused = await open.focus().catch(() => open);
  if (focused.url === url) return;
  try {
    await focused.navigate(url);
  } catch {
    // A window this worker does not control cannot be navigated by it: a new one instead.
    await scope.clients.openWindow(url);
  }
}

/** The part of the subscription the browser ended that a renewal reads: the server's key it was made with. */
export interface EndedSubscription {
  readonly options: { readonly applicationServerKey: ArrayBuffer | null };
}

/**
 * pushsubscriptionchange: the browser's push service ended or replaced the subscription. Without a
 * new one given, the worker subscribes again with the server's key of the old; then the open windows
 * of the portal are told, and the app saves the new address with the driver's session (the worker
 * holds no token). With no window open, the app saves it the next time it is opened.
 */
export async function renewSubscription(scope: PushWorkerScope, ended: EndedSubscription | null, renewed: unknown): Promise<void> {
  const key = ended?.options.applicationServerKey ?? null;
  if (!renewed && key) await scope.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  for (const open of await portalWindows(scope)) open.postMessage(PUSH_RENEWED_MESSAGE);
}
