import { PUSH_RENEWED_MESSAGE } from '../../../pwa/push/renewal';
import { getPushOwner, getUser } from '../../../lib/storage';

/** After the screen's own reads: the check is not in their way. */
const CHECK_AFTER_MS = 5_000;

/**
 * Every signed-in screen: when the service worker says the browser renewed the push subscription,
 * and once a while after the portal opens (a renewal made with no window open), the new address is
 * saved (devicePush.ts, loaded only for a driver who turned notifications on in this browser).
 */
export function watchPushRenewal(): () => void {
  const check = () => {
    const driver = getUser();
    if (!driver || getPushOwner() !== driver.id) return;
    void import('./devicePush').then(({ savePushIfRenewed }) => savePushIfRenewed(driver.id));
  };
  const onMessage = (event: MessageEvent) => {
    if (event.data === PUSH_RENEWED_MESSAGE) check();
  };
  const worker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  worker?.addEventListener('message', onMessage);
  const timer = setTimeout(check, CHECK_AFTER_MS);
  return () => {
    clearTimeout(timer);
    worker?.removeEventListener('message', onMessage);
  };
}
