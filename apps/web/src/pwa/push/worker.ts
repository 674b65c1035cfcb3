/**
 * The service worker's push and notification-click handlers (issue 25). Built on its own into
 * dist/push-worker.js (build/pushWorker.ts), which the worker Workbox generates loads with
 * importScripts (vite.config.ts): Workbox's generated worker keeps precaching, the navigation
 * fallback and the update prompt as they are.
 */
import { openNotification, renewSubscription, showPush, type EndedSubscription, type PushData, type PushWorkerScope } from './handlers';

interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEventLike extends ExtendableEventLike {
  readonly data: PushData | null;
}
interface NotificationEventLike extends ExtendableEventLike {
  readonly notification: { readonly data: unknown; close(): void };
}
interface SubscriptionChangeEventLike extends ExtendableEventLike {
  readonly oldSubscription: EndedSubscription | null;
  readonly newSubscription: unknown;
}
interface PushWorkerGlobal extends PushWorkerScope {
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEventLike) => void): void;
  addEventListener(type: 'pushsubscriptionchange', listener: (event: SubscriptionChangeEventLike) => void): void;
}

// The app's TypeScript knows the page (the DOM library), not a service worker's global scope.
const worker = self as unknown as PushWorkerGlobal;

worker.addEventListener('push', (event) => event.waitUntil(showPush(worker, event.data)));
worker.addEventListener('notificationclick', (event) => event.waitUntil(openNotification(worker, event.notification)));
worker.addEventListener('pushsubscriptionchange', (event) =>
  event.waitUntil(renewSubscription(worker, event.oldSubscription, event.newSubscription)),
);
