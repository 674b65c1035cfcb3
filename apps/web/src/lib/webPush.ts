import type { PushSubscriptionRequest } from '@portal/contract';
import { getPushOwner, removePushOwner } from './storage';

/**
 * This browser's side of Web Push (issue 25): whether it can receive notifications, the
 * permission, and its push subscription (one per service worker registration: one per device and
 * browser). The server's side is the contract's savePushSubscription / deletePushSubscription.
 */

/** How long to wait for the service worker before telling the driver to try again. */
const WORKER_WAIT_MS = 10_000;

/** What this device shows in Configurações. */
export type DevicePush = 'unsupported' | 'denied' | 'enabled' | 'disabled';

/** The service worker did not become ready in time (it installs in the first seconds of the first visit). */
export class WorkerNotReadyError extends Error {
  constructor() {
    super('service worker not ready');
    this.name = 'WorkerNotReadyError';
  }
}

/** The permission prompt answered something else than 'granted'. */
export class PermissionRefusedError extends Error {
  constructor(readonly permission: Exclude<NotificationPermission, 'granted'>) {
    super(`notification permission ${permission}`);
    this.name = 'PermissionRefusedError';
  }
}

/**
 * A service worker, the Push API and notifications (iPhone: only the portal added to the home
 * screen, iOS 16.4 or later; never outside https or localhost).
 */
function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The registration this page already has, if any (no waiting: none is none). */
async function existingRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  return navigator.serviceWorker.getRegistration();
}

/** This browser's push subscription for the portal, or null. */
export async function currentPushSubscription(): Promise<PushSubscription | null> {
  const registration = await existingRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Where this device stands: no support, blocked, or subscribed or not. */
export async function readDevicePush(): Promise<DevicePush> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  if (Notification.permission !== 'granted') return 'disabled';
  return (await currentPushSubscription()) ? 'enabled' : 'disabled';
}

/** Asks for the permission (the browser's own prompt, once; afterwards it answers at once). */
export async function askNotificationPermission(): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PermissionRefusedError(permission);
}

async function readyRegistration(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WorkerNotReadyError()), WORKER_WAIT_MS);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The server's VAPID key (base64url) as the bytes the Push API compares. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/**
 * Subscribes this browser with the server's key. A subscription made with another key (the server's
 * key was replaced) is dropped first: the browser refuses a second key, and the old one is useless.
 */
export async function subscribePush(publicKey: string): Promise<PushSubscription> {
  const registration = await readyRegistration();
  const applicationServerKey = keyBytes(publicKey);
  const existing = await registration.pushManager.getSubscription();
  if (existing && !sameBytes(existing.options.applicationServerKey, applicationServerKey)) await existing.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
}

/** The contract's body of PUT /api/motorista/notificacoes/inscricao: what PushSubscription.toJSON() gives. */
export function subscriptionBody(subscription: PushSubscription): PushSubscriptionRequest {
  const { endpoint, keys } = subscription.toJSON();
  return { endpoint: endpoint ?? subscription.endpoint, keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' } };
}

/** `work` in at most half the worker's wait, never throwing: 'Sair' and signing in must not hang on it. */
async function briefly<T>(work: () => Promise<T>, what: string): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), WORKER_WAIT_MS / 2);
  });
  try {
    return await Promise.race([work(), giveUp]);
  } catch (error) {
    console.warn(what, error);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** Ends this browser's push subscription, if any ('Sair'); answers its endpoint. */
export async function forgetPushSubscription(): Promise<string | null> {
  removePushOwner();
  if (!pushSupported()) return null;
  return briefly(async () => {
    const subscription = await currentPushSubscription();
    if (!subscription) return null;
    await subscription.unsubscribe();
    return subscription.endpoint;
  }, 'inscrição de notificações não removida');
}

/**
 * Signing in: the subscription this driver made in this browser (to be saved again for the new
 * session), or null; one made by anyone else is ended, so their notifications never reach this
 * driver's screen.
 */
export async function ownPushSubscription(driverId: number): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  return briefly(async () => {
    const subscription = await currentPushSubscription();
    if (subscription && getPushOwner() === driverId) return subscription;
    removePushOwner();
    await subscription?.unsubscribe();
    return null;
  }, 'inscrição de notificações não conferida');
}
