import { api } from '@portal/contract';
import { pushOptInTexts } from '@portal/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { getUser, removePushOwner, setPushOwner } from '../../../lib/storage';
import {
  askNotificationPermission,
  currentPushSubscription,
  PermissionRefusedError,
  readDevicePush,
  subscribePush,
  subscriptionBody,
  WorkerNotReadyError,
} from '../../../lib/webPush';

const notificationKeys = {
  /** This browser's state (not the server's, not kept offline: it is read from the browser each time). */
  device: ['aparelho', 'notificacoes'] as const,
  publicKey: ['motorista', 'notificacoes', 'chave'] as const,
};

/**
 * Whether this device can receive, is blocked, or is subscribed. Read again when the driver comes
 * back to the page (a permission changed in the browser's settings shows at once); it needs no
 * network, so it is read offline too.
 */
const devicePushQuery = queryOptions({
  queryKey: notificationKeys.device,
  queryFn: readDevicePush,
  staleTime: 0,
  retry: false,
  networkMode: 'always',
});

/** GET /api/motorista/notificacoes/chave: the server's VAPID key, asked when the driver enables. */
const pushPublicKeyQuery = queryOptions({
  queryKey: notificationKeys.publicKey,
  queryFn: ({ signal }) => request(api.pushPublicKey, { signal }),
  staleTime: Infinity,
});

export const useDevicePush = () => useQuery(devicePushQuery);

/**
 * 'Ativar notificações': the browser's permission, the server's key, this browser's subscription,
 * then PUT /api/motorista/notificacoes/inscricao. A subscription the server did not take is
 * dropped, so the device never looks enabled while nothing would be sent to it.
 */
export function useEnablePush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await askNotificationPermission();
      const { ChavePublica } = await queryClient.fetchQuery(pushPublicKeyQuery);
      const subscription = await subscribePush(ChavePublica);
      try {
        const answer = await request(api.savePushSubscription, { body: subscriptionBody(subscription) });
        const driver = getUser();
        if (driver) setPushOwner(driver.id, subscription.endpoint);
        return answer;
      } catch (error) {
        await subscription.unsubscribe().catch(() => false);
        throw error;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.device }),
  });
}

/**
 * 'Desativar notificações': DELETE on the server first (if it fails, nothing changed and the driver
 * may try again), then the browser's subscription.
 */
export function useDisablePush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const subscription = await currentPushSubscription();
      if (!subscription) return null;
      const answer = await request(api.deletePushSubscription, { body: { endpoint: subscription.endpoint } });
      removePushOwner();
      await subscription.unsubscribe();
      return answer;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.device }),
  });
}

/** What the driver reads when enabling or disabling failed. */
export function pushFailureMessage(error: unknown): string {
  if (error instanceof PermissionRefusedError) return pushOptInTexts.dismissed;
  if (error instanceof WorkerNotReadyError) return pushOptInTexts.workerNotReady;
  // The Push API's own failures (AbortError 'push service error', NotAllowedError...).
  if (error instanceof DOMException) return pushOptInTexts.pushServiceFailed;
  return errorMessage(error);
}
