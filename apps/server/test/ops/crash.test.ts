import { serverMessages } from '@portal/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db, Dialect } from '../../src/db/connection.js';
import { PartnerService } from '../../src/modules/partners/service.js';
import { bearer, newCpf, registerDriver } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { acceptTerms, createCharge, expectLedgerInvariant, paymentEvent } from '../helpers/pix.js';
import { buildServer, overHttp, PROCESS_WEBHOOK_TOKEN, request, startServer, stopServer } from '../helpers/server-process.js';
import type { HttpAnswer, ServerProcess } from '../helpers/server-process.js';
import { actions, registerTag, registrationBody, SEMPARAR } from '../helpers/tags.js';
import { saoPaulo } from '../helpers/world.js';

type Done =
  | { kind: 'purchase'; chargeId: string }
  | { kind: 'withdrawal'; withdrawalId: string }
  | { kind: 'activation'; serial: string }
  | { kind: 'passage'; externalId: string };

describeEachDatabase('a server killed at any moment', (dialect: Dialect) => {
  let build: Awaited<ReturnType<typeof buildServer>> | undefined;
  let database: TestDatabase | undefined;
  let db: Db | undefined;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    build = await buildServer();
    database = await createTestDatabase(dialect);
  });

  afterAll(async () => {
    await stopServer(server);
    await db?.kysely.destroy();
    await database?.drop();
    build?.remove();
  });

  const webhook = (url: string, event: unknown) =>
    request(url, { method: 'POST', url: '/api/webhooks/asaas', headers: { 'asaas-access-token': PROCESS_WEBHOOK_TOKEN }, payload: event });

  it('SIGKILL amid purchases, settlements, withdrawals, activations and passages: after a restart every answered operation is there once and every balance is its entries', async () => {
    if (!build || !database) throw new Error('setup');
    const env = { DATABASE_URL: database.url };
    server = await startServer(build.main, env);
    const url = server.url;
    const via = overHttp(url);
    db = database.open();
    const key = (await new PartnerService(db).create('operator', 'SemParar Queda', SEMPARAR)).key;

    const drivers: { d: Registered; serial: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const d = await registerDriver(via);
      await acceptTerms(via, d);
      const charge = await createCharge(via, d, 1000);
      expect((await webhook(url, paymentEvent('PAYMENT_RECEIVED', charge))).statusCode).toBe(200);
      const tag = await registerTag(via, d, { Operadora: SEMPARAR });
      expect((await actions.activate(via, d, tag.serial, tag.plate)).statusCode).toBe(200);
      drivers.push({ d, serial: tag.serial });
    }

    const done: Done[] = [];
    let seq = 0;
    const ok = (r: HttpAnswer) => r.statusCode === 200 || r.statusCode === 201;
    const operations: ((who: { d: Registered; serial: string }) => Promise<void>)[] = [
      async ({ d }) => {
        const charge = await request(url, {
          method: 'POST',
          url: '/api/transacoes/gerar-qrcode',
          headers: bearer(d.token),
          payload: { valor: 100, cpfCnpj: d.cpfCnpj, project: 'VPO' },
        });
        if (!ok(charge)) throw new Error(charge.body);
        const qr = charge.json<{ qrCode: { id: string; valor: number } }>().qrCode;
        if (ok(await webhook(url, paymentEvent('PAYMENT_RECEIVED', qr)))) done.push({ kind: 'purchase', chargeId: qr.id });
      },
      async ({ d }) => {
        const res = await request(url, {
          method: 'POST',
          url: '/api/motorista/sacar',
          headers: bearer(d.token),
          payload: { description: 'Saque', receiver_document: d.cpfCnpj, amount: 1, pix: { type: 'CPF', key: d.cpfCnpj } },
        });
        if (ok(res)) done.push({ kind: 'withdrawal', withdrawalId: res.json<{ withdrawalId: string }>().withdrawalId });
      },
      async ({ d }) => {
        const body = registrationBody(d);
        const registered = await request(url, { method: 'POST', url: '/api/tag/cadastrar-tag', headers: bearer(d.token), payload: body });
        if (!ok(registered)) throw new Error(registered.body);
        const serial = String(body.serialNumber);
        const res = await request(url, {
          method: 'POST',
          url: '/api/tag/ativar-tag-motorista',
          headers: bearer(d.token),
          payload: { serialNumber: serial, licensePlate: body.licensePlate, cnpj: d.cpfCnpj },
        });
        if (ok(res)) done.push({ kind: 'activation', serial });
      },
      async ({ serial }) => {
        const externalId = `queda-${dialect}-${(seq += 1)}`;
        const res = await request(url, {
          method: 'POST',
          url: '/api/parceiro/passagens',
          headers: { 'x-api-key': key },
          payload: {
            externalId,
            serialNumber: serial,
            placeName: 'Praça Itupeva',
            value: 1.5,
            occurredAt: saoPaulo(30).local,
            is_third: false,
          },
        });
        if (ok(res)) done.push({ kind: 'passage', externalId });
      },
    ];

    let killed = false;
    const failures: string[] = [];
    const worker = async (w: number) => {
      for (let i = w; !killed; i++) {
        const who = drivers[i % drivers.length];
        const op = operations[i % operations.length];
        if (!who || !op) continue;
        try {
          await op(who);
        } catch (error) {
          // After the kill a request may go unanswered; before it, nothing may fail.
          if (!killed) failures.push(String(error));
        }
      }
    };
    const workers = Promise.all([0, 1, 2, 3, 5].map(worker));
    while (done.length < 40 && failures.length === 0) await new Promise((r) => setTimeout(r, 10));
    server.child.kill('SIGKILL');
    killed = true;
    expect(await server.exited).toBe(null);
    await workers;
    expect(failures).toEqual([]);
    const kinds = new Set(done.map((x) => x.kind));
    expect([...kinds].sort()).toEqual(['activation', 'passage', 'purchase', 'withdrawal']);

    server = await startServer(build.main, env);
    const count = async (k: string) =>
      Number(
        (
          await db!.kysely
            .selectFrom('ledger_entries')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('idempotency_key', 'like', k)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (const op of done) {
      if (op.kind === 'purchase') {
        expect(await count(`pix-charge:${op.chargeId}:credit`), op.chargeId).toBe(1);
        const charge = await db.kysely.selectFrom('pix_charges').select('status').where('id', '=', op.chargeId).executeTakeFirstOrThrow();
        expect(charge.status).toBe('RECEIVED');
      } else if (op.kind === 'withdrawal') {
        expect(await count(`withdrawal:${op.withdrawalId}:debit`)).toBe(1);
        const w = await db.kysely.selectFrom('withdrawals').select('status').where('id', '=', op.withdrawalId).executeTakeFirstOrThrow();
        expect(w.status).toBe('DONE');
      } else if (op.kind === 'activation') {
        const tag = await db.kysely
          .selectFrom('tags')
          .select(['id', 'status_code'])
          .where('serial_number', '=', op.serial)
          .executeTakeFirstOrThrow();
        expect(Number(tag.status_code), op.serial).toBe(100);
        expect(await count(`tag-fee:${tag.id}:%`)).toBe(1);
      } else {
        expect(await count(`partner:%:${op.externalId}`), op.externalId).toBe(1);
        const pushes = await db.kysely
          .selectFrom('partner_pushes')
          .select('external_id')
          .where('external_id', '=', op.externalId)
          .execute();
        expect(pushes).toHaveLength(1);
      }
    }
    await expectLedgerInvariant(db);
    // The restarted server tells each driver the balance the ledger holds.
    for (const { d } of drivers) {
      const account = await db.kysely
        .selectFrom('accounts')
        .select('balance_cents')
        .where('driver_id', '=', d.id)
        .where('kind', '=', 'own')
        .executeTakeFirstOrThrow();
      const shown = (await request(server.url, { url: '/api/motorista/saldo', headers: bearer(d.token) })).json<{ Saldo: number }>().Saldo;
      expect(Math.round(shown * 100)).toBe(Number(account.balance_cents));
    }
  }, 90_000);

  it('SIGTERM drains the requests in flight: every accepted request gets its whole answer and its effect, then exit 0', async () => {
    if (!build || !database) throw new Error('setup');
    await stopServer(server);
    // The real argon2 cost: each registration is slow enough to be in flight when the signal comes.
    const draining = await startServer(build.main, { DATABASE_URL: database.url, ARGON2_MEMORY_KIB: '19456', ARGON2_TIME_COST: '2' });
    server = draining;
    let signalled = false;
    const cpfs = Array.from({ length: 24 }, () => newCpf());
    const sent = cpfs.map(async (cpfCnpj) => {
      try {
        const res = await request(draining.url, {
          method: 'POST',
          url: '/api/user/create-user',
          payload: {
            name: 'Motorista Em Voo',
            cpfCnpj,
            phoneNumber: '(11) 98765-4321',
            password: 'segredo123',
            password_confirmation: 'segredo123',
            type: 'driver',
          },
        });
        return { cpfCnpj, res, afterSignal: signalled };
      } catch (error) {
        return { cpfCnpj, error: error as NodeJS.ErrnoException };
      }
    });
    // Once the first registration is in the database the others are being worked on: signal then.
    const registeredCount = async () =>
      (await db!.kysely.selectFrom('drivers').select('id').where('cpf_cnpj', 'in', cpfs).execute()).length;
    while ((await registeredCount()) === 0) await new Promise((r) => setTimeout(r, 5));
    draining.child.kill('SIGTERM');
    signalled = true;
    const results = await Promise.all(sent);
    expect(await draining.exited).toBe(0);

    const registered = new Set(
      (await db!.kysely.selectFrom('drivers').select('cpf_cnpj').where('cpf_cnpj', 'in', cpfs).execute()).map((r) => r.cpf_cnpj),
    );
    let answeredAfterSignal = 0;
    for (const r of results) {
      if ('res' in r && r.res?.statusCode === 503) {
        // Arrived once the server was closing: refused whole, in Portuguese, nothing done.
        expect(r.res.json()).toEqual({ Sucesso: false, Mensagem: serverMessages.http.closing });
        expect(registered.has(r.cpfCnpj)).toBe(false);
      } else if ('res' in r && r.res) {
        expect(r.res.statusCode, r.res.body).toBe(201);
        expect(r.res.json()).toMatchObject({ Sucesso: true });
        expect(registered.has(r.cpfCnpj)).toBe(true);
        if (r.afterSignal) answeredAfterSignal += 1;
      } else {
        // Never read by the server (its connection was reset when it stopped listening): nothing half done.
        expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']).toContain(r.error?.code);
        expect(registered.has(r.cpfCnpj)).toBe(false);
      }
    }
    expect(answeredAfterSignal).toBeGreaterThan(0);
  }, 90_000);
});
