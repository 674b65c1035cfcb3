import { setTimeout as sleep } from 'node:timers/promises';
import type { PushPayload } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import type { Db } from '../../../src/db/connection.js';
import { createLogger } from '../../../src/logger.js';
import { ensureTerms } from '../../../src/modules/terms/bootstrap.js';
import { TermsService } from '../../../src/modules/terms/service.js';
import { bearer, json, openTestDatabase, registerDriver } from '../../helpers/app.js';
import { describeOneDatabase } from '../../helpers/databases.js';
import type { TestDatabase } from '../../helpers/databases.js';
import { createCharge, paymentEvent, sendWebhook } from '../../helpers/pix.js';
import { TestPushService } from '../../helpers/push-service.js';

const EVENTS = 12;

/** The sent count of one app's push_notifications_total. */
async function sentBy(app: FastifyInstance): Promise<number> {
  const { body } = await app.metrics.exposition();
  const m = /^push_notifications_total\{outcome="sent"\} (\d+)$/m.exec(body);
  return m ? Number(m[1]) : 0;
}

/**
 * Decision 57: two instances of the server on one PostgreSQL, each draining the outbox on its own
 * loop, as main.ts starts them: each notification reaches the device once, and both sign with the
 * one VAPID key pair the first of them stored.
 */
describeOneDatabase('Notificações push em duas instâncias', 'postgres', () => {
  const push = new TestPushService();
  let database: TestDatabase;
  const dbs: Db[] = [];
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    await push.start();
    const opened = await openTestDatabase('postgres');
    database = opened.database;
    dbs.push(opened.db, database.open());
    await ensureTerms(new TermsService(opened.db.kysely));
    for (const db of dbs) {
      apps.push(await buildApp({ config: opened.config, db, logger: createLogger('silent'), pushDrain: { intervalMs: 15 } }));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const db of dbs) await db.kysely.destroy();
    await database.drop();
    await push.stop();
  });

  it('each notification is sent once, whichever instance drains it, with the one key both instances serve', async () => {
    const [first, second] = apps;
    if (!first || !second) throw new Error('apps');
    const d = await registerDriver(first);
    const keys = await Promise.all(
      apps.map(
        async (app) =>
          json<{ ChavePublica: string }>(
            await app.inject({ method: 'GET', url: '/api/motorista/notificacoes/chave', headers: bearer(d.token) }),
          ).ChavePublica,
      ),
    );
    expect(new Set(keys).size).toBe(1);

    const dev = push.device();
    expect(
      (
        await second.inject({
          method: 'PUT',
          url: '/api/motorista/notificacoes/inscricao',
          headers: bearer(d.token),
          payload: dev.subscription,
        })
      ).statusCode,
    ).toBe(200);
    // A slow push service: each pass holds the outbox while the other instance's loop keeps trying.
    push.delayMs = 40;
    const charges: string[] = [];
    for (let i = 0; i < EVENTS; i += 1) {
      const app = i % 2 === 0 ? first : second;
      const charge = await createCharge(app, d, 100 + i);
      charges.push(charge.id);
      expect((await sendWebhook(app, paymentEvent('PAYMENT_RECEIVED', charge))).statusCode).toBe(200);
    }
    for (let waited = 0; dev.received.length < EVENTS && waited < 15_000; waited += 50) await sleep(50);
    // Long enough for a doubled send to show.
    await sleep(400);

    expect(push.errors).toEqual([]);
    expect(dev.received.map((r) => (r.payload as PushPayload).url).sort()).toEqual(
      charges.map((id) => `/comprovantes/compra/${id}`).sort(),
    );
    expect(new Set(dev.received.map((r) => r.vapidKey))).toEqual(new Set(keys));
    const waiting = await dbs[0]?.kysely.selectFrom('notification_outbox').select('id').where('sent_at', 'is', null).execute();
    expect(waiting).toEqual([]);
    expect((await sentBy(first)) + (await sentBy(second))).toBe(EVENTS);
  });
});
