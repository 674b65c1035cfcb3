import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { calendarMonthsCutoff, closureKeepUntil } from '@portal/domain';
import { cpf } from 'cpf-cnpj-validator';
import { afterAll, expect, it } from 'vitest';
import type { Db } from '../../../src/db/connection.js';
import { restoreMonth } from '../../../src/cli/months.js';
import { createLogger } from '../../../src/logger.js';
import { Metrics } from '../../../src/metrics.js';
import { RetentionService } from '../../../src/modules/retention/service.js';
import type { RetentionReport } from '../../../src/modules/retention/service.js';
import type { RetentionConfig } from '../../../src/modules/retention/settings.js';
import { bearer, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { expectLedgerInvariant, fund } from '../../helpers/pix.js';
import { registerTag } from '../../helpers/tags.js';
import { buildWorld } from '../../helpers/world.js';
import type { World } from '../../helpers/world.js';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** The clock every run reads: the job takes `now`, so moving it is passing another instant. */
const NOW = Date.now();

/** The tables whose rows the law keeps (the books, the records of each transaction, the terms' decisions). */
const KEPT = [
  ['drivers', 'id'],
  ['accounts', 'id'],
  ['ledger_entries', 'id'],
  ['pix_charges', 'id'],
  ['withdrawals', 'id'],
  ['passages', 'id'],
  ['passage_payments', 'id'],
  ['contests', 'id'],
  ['vpos', 'id'],
  ['vehicles', 'id'],
  ['tags', 'id'],
  ['term_decisions', 'id'],
  ['pix_automatic_authorizations', 'id'],
  ['profile_changes', 'id'],
] as const;

async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, key] of KEPT) out[table] = await db.kysely.selectFrom(table).selectAll().orderBy(key).execute();
  return out;
}

describeEachDatabase('retenção de dados: o que passou do prazo sai, o que a lei guarda fica (decisão 71)', (dialect) => {
  const ctx = useTestApp(dialect);
  const db = () => ctx().db;
  const k = () => ctx().db.kysely;
  let world: World | null = null;
  const logs: string[] = [];
  const metrics = new Metrics();
  // Decision 80: the months the job archives on PostgreSQL, restored by the tests that compare the books.
  const archiveDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-retention-'));
  afterAll(() => fs.rmSync(archiveDir, { recursive: true, force: true }));
  const restoreArchived = async () => {
    for (const file of fs.readdirSync(archiveDir).filter((f) => f.endsWith('.csv.gz')))
      await restoreMonth(db(), path.join(archiveDir, file));
  };

  const job = (overrides: Partial<RetentionConfig> = {}, batch?: number) => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    return new RetentionService(db(), { ...ctx().config.retention, archiveDir, ...overrides }, metrics, createLogger('info', sink), batch);
  };
  const run = (at: number, overrides: Partial<RetentionConfig> = {}): Promise<RetentionReport> => job(overrides).run(new Date(at));

  /** Two drivers with every kind of record (balance, tags, passages, a contest, a VPO, a Pix key, a withdrawal...). */
  const theWorld = async (): Promise<World> => {
    if (world) return world;
    world = await buildWorld(ctx().app, db());
    for (const d of [world.a, world.b]) {
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: bearer(d.token),
        payload: {
          amount: 20,
          pix: { type: 'EVP', key: randomUUID() },
          description: 'Saque da semana',
          receiver_document: d.cpfCnpj,
          senha: d.password,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    return world;
  };

  const session = async (d: Registered, at: { expires: number; revoked?: number }) => {
    const row = await k()
      .insertInto('sessions')
      .values({
        driver_id: d.id,
        token_hash: randomBytes(16).toString('hex'),
        created_at: iso(at.expires - 7 * DAY),
        expires_at: iso(at.expires),
        revoked_at: at.revoked === undefined ? null : iso(at.revoked),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const exists = async (table: 'sessions' | 'access_records' | 'notification_outbox' | 'webhook_events', id: number) =>
    (await k().selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('at the same instant: each kind past its period goes and the one just inside stays', async () => {
    const d = await registerDriver(ctx().app);
    const r = ctx().config.retention;
    expect(r).toMatchObject({ accessRecordsMonths: 6, sessionsDays: 30, pushSentDays: 7, pushGivenUpDays: 30, webhookEventsMonths: 60 });

    // Access records: 6 calendar months (Marco Civil art. 15), to the São Paulo day.
    const accessCutoff = calendarMonthsCutoff(new Date(NOW), 6).getTime();
    const access = async (at: number) =>
      (
        await k()
          .insertInto('access_records')
          .values({ driver_id: d.id, action: 'entrada', ip_address: '203.0.113.7', occurred_at: iso(at) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const accessOld = await access(accessCutoff - 1);
    const accessKept = await access(accessCutoff);
    // Sessions: 30 days after they expired or ended.
    const expiredLongAgo = await session(d, { expires: NOW - 31 * DAY });
    const expiredLately = await session(d, { expires: NOW - 29 * DAY });
    const endedLongAgo = await session(d, { expires: NOW + DAY, revoked: NOW - 31 * DAY });
    const live = await session(d, { expires: NOW + DAY });
    // A device subscribed from the session that goes keeps receiving (decision 57).
    await k()
      .insertInto('push_subscriptions')
      .values({
        driver_id: d.id,
        session_id: expiredLongAgo,
        endpoint: `https://fcm.googleapis.com/fcm/send/retencao-${d.id}`,
        p256dh: 'p256dh',
        auth: 'auth',
        created_at: iso(NOW - 40 * DAY),
        last_success_at: null,
      })
      .execute();
    // Idempotency keys and request limits: their own expiry.
    const idempotency = (key: string, expires: number) => ({
      driver_id: d.id,
      key,
      request_hash: 'h',
      status_code: 200,
      content_type: 'application/json',
      response: '{}',
      created_at: iso(expires - DAY),
      answered_at: iso(expires - DAY),
      expires_at: iso(expires),
    });
    await k()
      .insertInto('idempotency_keys')
      .values([idempotency('velha', NOW), idempotency('nova', NOW + 1)])
      .execute();
    const limit = (key: string, expires: number) => ({
      scope: 'retencao',
      key,
      window_start: expires - 60_000,
      hits: 1,
      expires_at: expires,
    });
    await k()
      .insertInto('rate_limits')
      .values([limit('velho', NOW), limit('novo', NOW + 1)])
      .execute();
    // The push outbox: sent 7 days ago, given up 30 days ago; waiting ones whatever their age.
    const outbox = async (name: string, at: { sent?: number; gaveUp?: number; created: number }) =>
      (
        await k()
          .insertInto('notification_outbox')
          .values({
            driver_id: d.id,
            kind: 'profileChanged',
            payload: '{}',
            dedupe_key: `retencao-${name}-${d.id}`,
            created_at: iso(at.created),
            due_at: iso(at.created),
            sent_at: at.sent === undefined ? null : iso(at.sent),
            gave_up_at: at.gaveUp === undefined ? null : iso(at.gaveUp),
            last_error: null,
            delivered: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const sentOld = await outbox('enviada-velha', { created: NOW - 9 * DAY, sent: NOW - 7 * DAY - 1 });
    const sentKept = await outbox('enviada-nova', { created: NOW - 9 * DAY, sent: NOW - 7 * DAY + 60_000 });
    const gaveUpOld = await outbox('abandonada-velha', { created: NOW - 40 * DAY, gaveUp: NOW - 30 * DAY - 1 });
    const gaveUpKept = await outbox('abandonada-nova', { created: NOW - 40 * DAY, gaveUp: NOW - 29 * DAY });
    const waiting = await outbox('aguardando', { created: NOW - 400 * DAY });
    // Provider events: resolved ones after RETENTION_WEBHOOK_EVENTS_MONTHS; open ones never.
    const eventsCutoff = calendarMonthsCutoff(new Date(NOW), 60).getTime();
    const event = async (name: string, created: number, resolved: number | null) =>
      (
        await k()
          .insertInto('webhook_events')
          .values({
            dedupe_key: `retencao-${name}-${d.id}`,
            event: 'PAYMENT_RECEIVED',
            provider_ref: `pay_${name}`,
            reason_code: 'unknown-charge',
            reason: 'Cobrança desconhecida',
            excerpt: '{}',
            status: resolved === null ? 'open' : 'resolved',
            note: resolved === null ? null : 'visto',
            created_at: iso(created),
            resolved_at: resolved === null ? null : iso(resolved),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const resolvedOld = await event('resolvido-velho', eventsCutoff - 10 * DAY, eventsCutoff - 1);
    const resolvedKept = await event('resolvido-novo', eventsCutoff - 10 * DAY, eventsCutoff);
    const openOld = await event('aberto-velho', NOW - 3_000 * DAY, null);

    const report = await run(NOW);
    expect(report.runningElsewhere).toBeUndefined();

    expect(await exists('access_records', accessOld)).toBe(false);
    expect(await exists('access_records', accessKept)).toBe(true);
    expect(report.accessRecords).toBeGreaterThanOrEqual(1);
    const sessions = (await k().selectFrom('sessions').select('id').where('driver_id', '=', d.id).execute()).map((s) => s.id);
    expect(sessions).not.toContain(expiredLongAgo);
    expect(sessions).not.toContain(endedLongAgo);
    expect(sessions).toEqual(expect.arrayContaining([expiredLately, live]));
    const device = await k().selectFrom('push_subscriptions').select('session_id').where('driver_id', '=', d.id).executeTakeFirstOrThrow();
    expect(device.session_id).toBeNull();
    const keys = await k().selectFrom('idempotency_keys').select('key').where('driver_id', '=', d.id).execute();
    expect(keys.map((x) => x.key)).toEqual(['nova']);
    const limits = await k().selectFrom('rate_limits').select('key').where('scope', '=', 'retencao').execute();
    expect(limits.map((x) => x.key)).toEqual(['novo']);
    for (const [id, kept] of [
      [sentOld, false],
      [sentKept, true],
      [gaveUpOld, false],
      [gaveUpKept, true],
      [waiting, true],
    ] as const) {
      expect(await exists('notification_outbox', id), `outbox ${id}`).toBe(kept);
    }
    expect(await exists('webhook_events', resolvedOld)).toBe(false);
    expect(await exists('webhook_events', resolvedKept)).toBe(true);
    expect(await exists('webhook_events', openOld)).toBe(true);
    expect(report).toMatchObject({ sessions: 2, idempotencyKeys: 1, rateLimits: 1, pushOutbox: 2, webhookEvents: 1 });

    // Run again at the same instant: nothing more to do.
    expect(await run(NOW)).toMatchObject({
      accessRecords: 0,
      sessions: 0,
      idempotencyKeys: 0,
      rateLimits: 0,
      pushOutbox: 0,
      webhookEvents: 0,
    });
  });

  it('the clock moved ten years: every kind goes, and the books, the transactions and the open provider events stay as they were', async () => {
    const w = await theWorld();
    await k()
      .insertInto('webhook_events')
      .values({
        dedupe_key: `retencao-aberto-${w.a.id}`,
        event: 'TRANSFER_DONE',
        provider_ref: 'tra_aberto',
        reason_code: 'contradiction',
        reason: 'Contradição',
        excerpt: '{}',
        status: 'open',
        note: null,
        created_at: iso(NOW),
        resolved_at: null,
      })
      .execute();
    const before = await snapshot(db());
    expect(before.withdrawals?.length).toBeGreaterThanOrEqual(2);
    expect(before.contests?.length).toBeGreaterThanOrEqual(2);
    expect(before.vpos?.length).toBeGreaterThanOrEqual(2);
    expect(before.passages?.length).toBeGreaterThanOrEqual(4);
    expect((await k().selectFrom('access_records').select('id').where('driver_id', '=', w.a.id).execute()).length).toBeGreaterThan(0);

    const later = NOW + 3_653 * DAY;
    const balances = await k().selectFrom('accounts').select(['id', 'balance_cents']).orderBy('id').execute();
    const report = await run(later);
    // PostgreSQL: the ledger's and the passages' months past five whole years went to their files,
    // the balances untouched; brought back, the books are as they were.
    expect(report.monthsArchived > 0).toBe(dialect === 'postgres');
    expect(await k().selectFrom('accounts').select(['id', 'balance_cents']).orderBy('id').execute()).toEqual(balances);
    await restoreArchived();
    expect(report.accessRecords).toBeGreaterThan(0);
    expect(report.sessions).toBeGreaterThan(0);

    for (const table of ['access_records', 'sessions', 'idempotency_keys'] as const) {
      expect(await k().selectFrom(table).select('driver_id').execute(), table).toEqual([]);
    }
    // The outbox keeps only what was never sent nor given up.
    expect(
      await k()
        .selectFrom('notification_outbox')
        .select('id')
        .where((eb) => eb.or([eb('sent_at', 'is not', null), eb('gave_up_at', 'is not', null)]))
        .execute(),
    ).toEqual([]);
    expect(await k().selectFrom('rate_limits').select('key').execute()).toEqual([]);
    expect(await k().selectFrom('webhook_events').select('status').where('status', '=', 'resolved').execute()).toEqual([]);
    expect((await k().selectFrom('webhook_events').select('id').where('status', '=', 'open').execute()).length).toBeGreaterThanOrEqual(2);
    expect(await snapshot(db())).toEqual(before);
    await expectLedgerInvariant(db());
  });

  it('a closed account keeps its books for 5 years after the closing, then loses what still names a person', async () => {
    const w = await theWorld();
    const b = w.b;
    const closedAt = new Date(NOW);
    const keepUntil = closureKeepUntil(closedAt);
    const shipperCpf = cpf.generate();
    const vpo = await k().selectFrom('vpos').selectAll().where('driver_id', '=', b.id).executeTakeFirstOrThrow();
    await k()
      .insertInto('vpos')
      .values({
        driver_id: b.id,
        partner_id: vpo.partner_id,
        external_id: `retencao-${b.id}`,
        serial_number: vpo.serial_number,
        plate: vpo.plate,
        shipper_document: shipperCpf,
        value_cents: 1000,
        status: 'ENCERRADO',
        origin: 'Campinas',
        destination: 'Santos',
        created_at: iso(NOW),
        updated_at: iso(NOW),
        rntrc: '12345678',
        antt_id: 'ANTT-1',
      })
      .execute();
    await k()
      .updateTable('contests')
      .set({ description: 'Meu caminhão tem 2 eixos, placa na foto' })
      .where('driver_id', '=', b.id)
      .execute();
    await k()
      .insertInto('closed_accounts')
      .values({
        driver_id: b.id,
        cpf_cnpj: b.cpfCnpj,
        closed_at: closedAt.toISOString(),
        keep_until: keepUntil.toISOString(),
        receipt_token_hash: 'hash-do-link',
        receipt_expires_at: iso(NOW + 15 * 60_000),
      })
      .execute();
    const other = async () => ({
      vpos: await k().selectFrom('vpos').selectAll().where('driver_id', '=', w.a.id).orderBy('id').execute(),
      keys: await k().selectFrom('pix_keys').selectAll().where('driver_id', '=', w.a.id).orderBy('id').execute(),
      withdrawals: await k().selectFrom('withdrawals').selectAll().where('driver_id', '=', w.a.id).orderBy('id').execute(),
      vehicles: await k().selectFrom('vehicles').selectAll().where('driver_id', '=', w.a.id).orderBy('id').execute(),
    });
    const otherBefore = await other();
    const money = async () => ({
      ledger: await k().selectFrom('ledger_entries').selectAll().where('driver_id', '=', b.id).orderBy('id').execute(),
      withdrawals: await k()
        .selectFrom('withdrawals')
        .select(['id', 'amount_cents', 'status', 'pix_key_type', 'created_at'])
        .where('driver_id', '=', b.id)
        .execute(),
      vpos: await k()
        .selectFrom('vpos')
        .select(['id', 'value_cents', 'used_cents', 'status', 'serial_number'])
        .where('driver_id', '=', b.id)
        .orderBy('id')
        .execute(),
      contests: await k().selectFrom('contests').select(['id', 'state', 'reason', 'refund_cents']).where('driver_id', '=', b.id).execute(),
    });
    const booksBefore = await money();
    const closed = () => k().selectFrom('closed_accounts').selectAll().where('driver_id', '=', b.id).executeTakeFirstOrThrow();

    // The receipt's one-time link goes once it expired; the document stays.
    expect((await run(NOW + 16 * 60_000)).closureReceiptLinks).toBe(1);
    expect(await closed()).toMatchObject({ cpf_cnpj: b.cpfCnpj, receipt_token_hash: null, receipt_expires_at: null });

    // The last instant of the 5 years: nothing changes.
    expect((await run(keepUntil.getTime() - 1)).closedAccounts).toBe(0);
    expect((await closed()).cpf_cnpj).toBe(b.cpfCnpj);
    const withdrawalsKept = await k().selectFrom('withdrawals').selectAll().where('driver_id', '=', b.id).execute();
    expect(withdrawalsKept.every((x) => x.pix_key !== '' && x.description !== '')).toBe(true);

    // A longer period the operator set (an authority may extend it): not yet at 5 years.
    expect((await run(keepUntil.getTime(), { closedAccountsYears: 6 })).closedAccounts).toBe(0);

    expect((await run(keepUntil.getTime())).closedAccounts).toBe(1);
    expect((await closed()).cpf_cnpj).toBe('');
    const withdrawals = await k().selectFrom('withdrawals').selectAll().where('driver_id', '=', b.id).execute();
    expect(withdrawals.length).toBeGreaterThan(0);
    for (const x of withdrawals) expect(x).toMatchObject({ pix_key: '', receiver_name: null, receiver_document: null, description: '' });
    expect(await k().selectFrom('pix_keys').select('id').where('driver_id', '=', b.id).execute()).toEqual([]);
    for (const v of await k().selectFrom('vehicles').selectAll().where('driver_id', '=', b.id).execute()) {
      expect(v.license_plate).toMatch(/^anonimizado-\d+$/);
      expect(v).toMatchObject({ cpf_cnpj_antt: '', rntrc_antt: '' });
    }
    const vpos = await k().selectFrom('vpos').selectAll().where('driver_id', '=', b.id).orderBy('id').execute();
    for (const v of vpos) expect(v).toMatchObject({ plate: '', rntrc: null, antt_id: null });
    // A shipper's CPF is a person's; a CNPJ is a company's and stays.
    expect(vpos.find((v) => v.external_id === `retencao-${b.id}`)?.shipper_document).toBe('');
    expect(vpos.find((v) => v.id === vpo.id)?.shipper_document).toBe(vpo.shipper_document);
    for (const c of await k().selectFrom('contests').select('description').where('driver_id', '=', b.id).execute())
      expect(c.description).toBeNull();
    // The books: every amount, status and date as it was.
    expect(await money()).toEqual(booksBefore);
    // The other driver: untouched.
    expect(await other()).toEqual(otherBefore);
    expect(otherBefore.keys.length).toBeGreaterThan(0);
    // Done once: the next run finds nothing.
    expect((await run(keepUntil.getTime() + DAY)).closedAccounts).toBe(0);
    await expectLedgerInvariant(db());
  });

  it("an account closed through 'Encerrar conta' (decision 70) loses its kept document and what names a person at its keep_until", async () => {
    const app = ctx().app;
    const d = await registerDriver(app);
    await fund(app, d, 100);
    await registerTag(app, d);
    const withdrawn = await app.inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: {
        amount: 100,
        pix: { type: 'EVP', key: randomUUID() },
        description: 'Tudo',
        receiver_document: d.cpfCnpj,
        senha: d.password,
      },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const closing = await app.inject({
      method: 'POST',
      url: '/api/motorista/encerramento',
      headers: bearer(d.token),
      payload: { senha: d.password, confirmacao: true },
    });
    expect(closing.statusCode, closing.body).toBe(200);
    const closed = () => k().selectFrom('closed_accounts').selectAll().where('driver_id', '=', d.id).executeTakeFirstOrThrow();
    const keepUntil = new Date((await closed()).keep_until).getTime();
    const ledger = await k().selectFrom('ledger_entries').selectAll().where('driver_id', '=', d.id).orderBy('id').execute();
    expect(ledger.length).toBeGreaterThanOrEqual(2);
    const driver = await k().selectFrom('drivers').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();

    expect((await run(keepUntil - 1)).closedAccounts).toBe(0);
    expect((await closed()).cpf_cnpj).toBe(d.cpfCnpj);
    expect((await run(keepUntil)).closedAccounts).toBe(1);
    expect((await closed()).cpf_cnpj).toBe('');
    const [withdrawal] = await k().selectFrom('withdrawals').selectAll().where('driver_id', '=', d.id).execute();
    expect(withdrawal).toMatchObject({ amount_cents: 10000, pix_key: '', receiver_name: null, receiver_document: null, description: '' });
    for (const v of await k().selectFrom('vehicles').select('license_plate').where('driver_id', '=', d.id).execute()) {
      expect(v.license_plate).toMatch(/^anonimizado-/);
    }
    expect(await k().selectFrom('ledger_entries').selectAll().where('driver_id', '=', d.id).orderBy('id').execute()).toEqual(ledger);
    expect(await k().selectFrom('drivers').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow()).toEqual(driver);
    await expectLedgerInvariant(db());
  });

  it('deletes in bounded batches until nothing is left; logs one line of counts and counts them in the metrics', async () => {
    const d = await registerDriver(ctx().app);
    const old = calendarMonthsCutoff(new Date(NOW), 6).getTime() - DAY;
    await k()
      .insertInto('access_records')
      .values(
        Array.from({ length: 11 }, () => ({
          driver_id: d.id,
          action: 'entrada' as const,
          ip_address: '198.51.100.23',
          occurred_at: iso(old),
        })),
      )
      .execute();
    await k()
      .insertInto('rate_limits')
      .values(Array.from({ length: 7 }, (_, i) => ({ scope: 'lote', key: `k${i}`, window_start: i, hits: 1, expires_at: NOW - 1 })))
      .execute();
    logs.length = 0;
    const report = await job({}, 3).run(new Date(NOW));
    expect(report.accessRecords).toBe(11);
    expect(report.rateLimits).toBe(7);
    expect(
      await k()
        .selectFrom('access_records')
        .select('id')
        .where('driver_id', '=', d.id)
        .where('occurred_at', '<', iso(NOW - DAY))
        .execute(),
    ).toEqual([]);
    const lines = logs.filter((l) => l.includes('retenção de dados concluída'));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({ accessRecords: 11, rateLimits: 7 });
    // Counts only: no address, no document.
    expect(lines[0]).not.toContain('198.51.100.23');
    expect(lines[0]).not.toContain(d.cpfCnpj);
    const { body } = await metrics.exposition();
    expect(body).toMatch(/^retention_rows_total\{kind="accessRecords"\} \d+$/m);
    expect(body).toMatch(/^retention_runs_total\{outcome="done"\} \d+$/m);
  });
});
