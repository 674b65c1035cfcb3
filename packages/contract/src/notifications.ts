import { z } from 'zod';
import { LIVE_TOPICS, PUSH_ENDPOINT_MAX, pushSubscriptionMessages } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, isoDateTime } from './common.js';

/** Bytes of a base64url (or base64) text, or null when it is not one. */
function base64Bytes(value: string): number | null {
  const m = /^([A-Za-z0-9_+/-]*)(={0,2})$/.exec(value);
  if (!m?.[1]) return null;
  const chars = m[1].length;
  if (chars % 4 === 1) return null;
  return Math.floor((chars * 3) / 4);
}

const HTTPS_ENDPOINT = /^https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[\x21-\x7e]*)?$/;
const LOOPBACK_ENDPOINT = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?(\/[\x21-\x7e]*)?$/;

/** The browser's push service address: https (http only on this machine, for a local push server). */
function isPushEndpoint(value: string): boolean {
  return value.length <= PUSH_ENDPOINT_MAX && (HTTPS_ENDPOINT.test(value) || LOOPBACK_ENDPOINT.test(value));
}

const pushEndpoint = z.lazy(() => z.string().catch('').refine(isPushEndpoint, { message: pushSubscriptionMessages.endpointInvalid }));

/** Keys of the subscription (RFC 8291): the device's P-256 public key (65 bytes, uncompressed) and its 16-byte auth secret. */
const subscriptionKeys = z.lazy(() =>
  z
    .object({
      p256dh: z
        .string()
        .catch('')
        .refine((v) => v.length <= 100 && v.startsWith('B') && base64Bytes(v) === 65, { message: pushSubscriptionMessages.keyInvalid }),
      auth: z
        .string()
        .catch('')
        .refine((v) => v.length <= 30 && base64Bytes(v) === 16, { message: pushSubscriptionMessages.keyInvalid }),
    })
    .optional()
    .catch(undefined),
);

/** What PushSubscription.toJSON() gives (expirationTime and other fields are ignored). */
export const pushSubscriptionRequest = z.lazy(() =>
  z.object({ endpoint: pushEndpoint, keys: subscriptionKeys }).transform((value, ctx) => {
    // Absent or not an object: both keys are reported missing, on their fields.
    if (value.keys) return { endpoint: value.endpoint, keys: value.keys };
    for (const field of ['p256dh', 'auth'])
      ctx.addIssue({ code: 'custom', path: ['keys', field], message: pushSubscriptionMessages.keyInvalid });
    return z.NEVER;
  }),
);
export type PushSubscriptionRequest = z.input<typeof pushSubscriptionRequest>;

export const deletePushSubscriptionRequest = z.lazy(() => z.object({ endpoint: pushEndpoint }));
export type DeletePushSubscriptionRequest = z.input<typeof deletePushSubscriptionRequest>;

export const pushPublicKeyResponse = z.lazy(() =>
  envelope.unwrap().extend({
    ChavePublica: z.string().describe('Chave VAPID do servidor (applicationServerKey): ponto P-256 não comprimido em base64url'),
  }),
);
export type PushPublicKeyResponse = z.infer<typeof pushPublicKeyResponse>;

/** What the service worker receives in a push event (JSON). */
export const pushPayload = z.lazy(() =>
  z.object({
    titulo: z.string(),
    corpo: z.string(),
    /** A path inside the portal, opened when the notification is tapped. */
    url: z.string().startsWith('/'),
    /** The same tag replaces the earlier notification (e.g. 'passagens'). */
    tag: z.string(),
    enviadaEm: isoDateTime,
    /** What the event changed (issue 33): the open app reads those screens again. Absent: everything. */
    topicos: z.array(z.enum(LIVE_TOPICS)).optional(),
  }),
);
export type PushPayload = z.infer<typeof pushPayload>;

export const notificationsApi = {
  pushPublicKey: endpoint({
    method: 'GET',
    path: '/api/motorista/notificacoes/chave',
    auth: true,
    capability: 'self',
    summary: 'Chave pública VAPID do servidor, para inscrever este aparelho nas notificações (Web Push)',
    response: pushPublicKeyResponse,
  }),
  savePushSubscription: endpoint({
    method: 'PUT',
    path: '/api/motorista/notificacoes/inscricao',
    auth: true,
    capability: 'self',
    summary: 'Ativar as notificações neste aparelho: guarda a inscrição Web Push do navegador (a mais recente vale)',
    body: pushSubscriptionRequest,
    response: envelope,
  }),
  deletePushSubscription: endpoint({
    method: 'DELETE',
    path: '/api/motorista/notificacoes/inscricao',
    auth: true,
    capability: 'self',
    summary: 'Desativar as notificações neste aparelho (remover uma inscrição desconhecida também responde sucesso)',
    body: deletePushSubscriptionRequest,
    response: envelope,
  }),
};
