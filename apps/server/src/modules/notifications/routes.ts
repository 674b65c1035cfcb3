import { api } from '@portal/contract';
import { pushSubscriptionMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../http/route.js';
import type { PushSubscriptionService } from './subscriptions.js';

/** Decision 57: the key a device subscribes with, and the device's subscription on and off. */
export function notificationRoutes(app: FastifyInstance, subscriptions: PushSubscriptionService): void {
  driverRoute(app, api.pushPublicKey, async () => ({
    Sucesso: true,
    Mensagem: pushSubscriptionMessages.publicKey,
    ChavePublica: await subscriptions.publicKey(),
  }));

  driverRoute(app, api.savePushSubscription, async ({ driver, body }) => {
    await subscriptions.save(driver.id, driver.sessionId, body);
    return { Sucesso: true, Mensagem: pushSubscriptionMessages.saved };
  });

  driverRoute(app, api.deletePushSubscription, async ({ driver, body }) => {
    await subscriptions.remove(driver.id, body.endpoint);
    return { Sucesso: true, Mensagem: pushSubscriptionMessages.removed };
  });
}
