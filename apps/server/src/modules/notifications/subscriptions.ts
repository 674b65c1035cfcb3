import type { pushSubscriptionRequest } from '@portal/contract';
import { pushSubscriptionMessages, refuse } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { PushConfig } from '../../config.js';
import { nowIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import type { VapidKeyStore } from './vapid.js';

/** Devices one driver may have subscribed at once; a new one beyond it replaces the oldest. */
const MAX_DEVICES_PER_DRIVER = 20;

/** '+' and '/' of base64 as base64url, without '=' (what web-push and the browsers write). */
function base64url(value: string): string {
  return value.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The endpoint's host is a push service the portal sends to (config.push.serviceHosts). */
function isAcceptedPushService(endpoint: string, config: Pick<PushConfig, 'serviceHosts' | 'allowLoopback'>): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'http:') return config.allowLoopback && ['127.0.0.1', 'localhost', '[::1]'].includes(host);
  if (url.protocol !== 'https:') return false;
  if (config.allowLoopback && ['127.0.0.1', 'localhost', '[::1]'].includes(host)) return true;
  if (config.serviceHosts === null) return true;
  return config.serviceHosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

/** Decision 57: a driver's devices subscribed to Web Push, and the key they subscribe with. */
export class PushSubscriptionService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly keys: VapidKeyStore,
    private readonly config: PushConfig,
  ) {}

  async publicKey(): Promise<string> {
    return (await this.keys.get()).publicKey;
  }

  /**
   * The device's subscription, for this driver and sign-in ('Sair' removes it). An endpoint is one
   * device's: saved again (another sign-in, another driver on the same browser), the latest wins.
   */
  async save(driverId: number, sessionId: number, body: z.output<typeof pushSubscriptionRequest>): Promise<void> {
    if (!isAcceptedPushService(body.endpoint, this.config)) throw refuse.invalid(pushSubscriptionMessages.serviceNotAccepted, 'endpoint');
    const row = {
      driver_id: driverId,
      session_id: sessionId,
      endpoint: body.endpoint,
      p256dh: base64url(body.keys.p256dh),
      auth: base64url(body.keys.auth),
      created_at: nowIso(),
      last_success_at: null,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('push_subscriptions')
        .values(row)
        .onConflict((oc) =>
          oc.column('endpoint').doUpdateSet({
            driver_id: row.driver_id,
            session_id: row.session_id,
            p256dh: row.p256dh,
            auth: row.auth,
            created_at: row.created_at,
            last_success_at: null,
          }),
        )
        .execute();
      const beyond = await trx
        .selectFrom('push_subscriptions')
        .select('id')
        .where('driver_id', '=', driverId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(MAX_DEVICES_PER_DRIVER)
        .limit(1000)
        .execute();
      if (beyond.length > 0) {
        await trx
          .deleteFrom('push_subscriptions')
          .where(
            'id',
            'in',
            beyond.map((r) => r.id),
          )
          .execute();
      }
    });
  }

  /** Removes the driver's own subscription of this endpoint; none (or another driver's) changes nothing. */
  async remove(driverId: number, endpoint: string): Promise<void> {
    await this.db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).where('driver_id', '=', driverId).execute();
  }
}
