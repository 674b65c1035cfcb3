import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../../src/db/migrate.js';
import { enqueueNotification } from '../../../src/modules/notifications/outbox.js';
import { VapidKeyStore } from '../../../src/modules/notifications/vapid.js';
import { describeEachDatabase, useFreshDatabase } from '../../helpers/databases.js';

/**
 * Migration 017 (decision 57) over a database written before it: the drivers and their sessions
 * stay; the devices, the outbox and the VAPID pair keep their rules on both databases.
 */
describeEachDatabase('migração 017: notificações push', (dialect) => {
  const freshDb = useFreshDatabase(dialect);

  it('adds the devices, the outbox and the key pair, with their rules, over existing drivers', async () => {
    const db = freshDb();
    await migrateTo(db, '016-contests');
    const now = new Date().toISOString();
    const driver = await sql<{ id: number }>`insert into drivers (name, cpf_cnpj, phone_number, password_hash, created_at)
      values ('M', 'MIG17A', '+5511900000000', 'x', ${now}) returning id`.execute(db.kysely);
    const driverId = driver.rows[0]!.id;
    const session = await sql<{ id: number }>`insert into sessions (driver_id, token_hash, created_at, expires_at, revoked_at)
      values (${driverId}, 'hash-mig17', ${now}, ${now}, null) returning id`.execute(db.kysely);
    const sessionId = session.rows[0]!.id;

    await migrateToLatest(db);
    expect(await db.kysely.selectFrom('sessions').select(['id', 'driver_id']).execute()).toEqual([{ id: sessionId, driver_id: driverId }]);

    // One row per endpoint (a device is one driver's), tied to the session that made it.
    const device = { driver_id: driverId, session_id: sessionId, p256dh: 'B', auth: 'a', created_at: now };
    await db.kysely
      .insertInto('push_subscriptions')
      .values({ ...device, endpoint: 'https://fcm.googleapis.com/fcm/send/1' })
      .execute();
    await expect(
      db.kysely
        .insertInto('push_subscriptions')
        .values({ ...device, endpoint: 'https://fcm.googleapis.com/fcm/send/1' })
        .execute(),
    ).rejects.toThrow(/unique/i);
    await expect(
      db.kysely
        .insertInto('push_subscriptions')
        .values({ ...device, driver_id: 999_999, endpoint: 'https://fcm.googleapis.com/fcm/send/2' })
        .execute(),
    ).rejects.toThrow(/foreign key/i);

    // The outbox: the same event twice is one row, waiting, never attempted.
    await db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < 2; i += 1)
        await enqueueNotification(trx, driverId, { kind: 'pixKeySaved', keyId: 7, maskedKey: 'E-mail m***@x.com' });
    });
    const rows = await db.kysely.selectFrom('notification_outbox').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      driver_id: driverId,
      kind: 'pixKeySaved',
      dedupe_key: 'pixKeySaved:7',
      attempts: 0,
      sent_at: null,
      gave_up_at: null,
    });
    expect(JSON.parse(rows[0]!.payload)).toEqual({ kind: 'pixKeySaved', keyId: 7, maskedKey: 'E-mail m***@x.com' });
    await expect(
      db.kysely
        .insertInto('notification_outbox')
        .values({ driver_id: driverId, kind: 'x', payload: '{}', dedupe_key: 'pixKeySaved:7', created_at: now, due_at: now })
        .execute(),
    ).rejects.toThrow(/unique/i);

    // One VAPID pair for every instance: two starting at once read the same one.
    const [one, two] = await Promise.all([new VapidKeyStore(db, null).get(), new VapidKeyStore(db, null).get()]);
    expect(one).toEqual(two);
    expect(await db.kysely.selectFrom('vapid_keys').select('public_key').execute()).toEqual([{ public_key: one?.publicKey }]);
    await expect(
      db.kysely.insertInto('vapid_keys').values({ id: 2, public_key: 'p', private_key: 'k', created_at: now }).execute(),
    ).rejects.toThrow(/check/i);
  });
});
