/**
 * What the service worker posts to the portal's open windows when the browser replaced the push
 * subscription (pwa/push/handlers.ts renewSubscription); the app saves the new one
 * (features/auth/api/pushRenewal.ts). Its own module: the app's shell imports it without the handlers.
 */
export const PUSH_RENEWED_MESSAGE = 'portal:notificacoes-renovadas';
