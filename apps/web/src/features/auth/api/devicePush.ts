import { api } from '@portal/contract';
import { request } from '../../../lib/api';
import { getPushEndpoint, getPushOwner, setPushOwner } from '../../../lib/storage';
import { currentPushSubscription, ownPushSubscription, subscribePush, subscriptionBody } from '../../../lib/webPush';

/**
 * Issue 25, signing in: notifications this driver turned on in this browser go on with the new
 * session (saved again for it, with the server's key of today: a replaced key gets a new
 * subscription); anyone else's are ended here (the server drops them when their push service
 * answers that they are gone). The check is local and awaited; the save is not waited for.
 */
export async function carryPushSubscription(driverId: number): Promise<void> {
  const subscription = await ownPushSubscription(driverId);
  if (subscription) void saveAgain(driverId);
}

/** PUT .../inscricao with the session, then whose it is and the address the server now has. */
async function saveFor(driverId: number, subscription: PushSubscription): Promise<void> {
  await request(api.savePushSubscription, { body: subscriptionBody(subscription) });
  setPushOwner(driverId, subscription.endpoint);
}

/** subscribePush answers the same subscription for the same key, and a new one for a replaced key. */
async function saveAgain(driverId: number): Promise<void> {
  try {
    const { ChavePublica } = await request(api.pushPublicKey);
    await saveFor(driverId, await subscribePush(ChavePublica));
  } catch (error) {
    console.warn('notificações não renovadas para esta sessão', error);
  }
}

/**
 * The browser replaced this driver's subscription (pwa/push/handlers.ts renewSubscription): the new
 * address is saved with the session, or notifications would stop at the old one. Nothing is asked
 * when the address is the one the server has.
 */
export async function savePushIfRenewed(driverId: number): Promise<void> {
  if (getPushOwner() !== driverId) return;
  try {
    const current = await currentPushSubscription();
    if (!current || current.endpoint === getPushEndpoint()) return;
    await saveFor(driverId, current);
  } catch (error) {
    console.warn('nova inscrição de notificações não salva', error);
  }
}
