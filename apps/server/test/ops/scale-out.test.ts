import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/connection.js';
import { DEMO_DRIVER } from '../../src/startup/demo-seed.js';
import { DEMO_MEMBERS } from '../../src/startup/demo-fleet.js';
import { PartnerService } from '../../src/modules/partners/service.js';
import { bearer, registerDriver } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { createTestDatabase, pgUp } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { NGINX, NGINX_TEMPLATE, startNginx } from '../helpers/nginx.js';
import type { RunningNginx } from '../helpers/nginx.js';
import { acceptTerms, createCharge, expectLedgerInvariant, ownBalance, paymentEvent } from '../helpers/pix.js';
import { buildServer, overHttp, PROCESS_ENV, PROCESS_WEBHOOK_TOKEN, request, startServer, stopServer } from '../helpers/server-process.js';
import type { HttpAnswer, ServerProcess } from '../helpers/server-process.js';
import { actions, registerTag, SEMPARAR } from '../helpers/tags.js';
import { saoPaulo } from '../helpers/world.js';

const nginxPresent = fs.existsSync(NGINX);
if (!nginxPresent && process.env.CI === 'true')
  throw new Error(`${NGINX} ausente: com CI=true o teste de várias instâncias é obrigatório.`);
if (!nginxPresent) console.warn(`${NGINX} ausente: teste de várias instâncias ignorado.`);

/** Through nginx; the instances trust only it (TRUST_PROXY=127.0.0.1), the test's clients come from 127.0.0.2+. */
const INSTANCE_ENV = { TRUST_PROXY: '127.0.0.1', LOGIN_MAX_PER_DOCUMENT_ADDRESS: '4', DEMO_SEED: 'true' };

describe('the nginx configuration of the operator guide', () => {
  it('is the template file the scale-out test runs, quoted whole', () => {
    const guide = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', '..', 'docs', 'operations.md'), 'utf8');
    expect(guide).toContain(`\`\`\`nginx\n${fs.readFileSync(NGINX_TEMPLATE, 'utf8')}\`\`\``);
  }, 90_000);
});

(pgUp && nginxPresent ? describe : describe.skip)('two instances on one PostgreSQL behind nginx', () => {
  let build: Awaited<ReturnType<typeof buildServer>> | undefined;
  let database: TestDatabase | undefined;
  let db: Db;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  let proxy: RunningNginx | undefined;
  /** Each request through nginx, instance A or instance B, in turn. */
  let targets: string[];

  beforeAll(async () => {
    build = await buildServer();
    database = await createTestDatabase('postgres');
    db = database.open();
  });

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all([stopServer(a), stopServer(b)]);
    await db?.kysely.destroy();
    await database?.drop();
    build?.remove();
  });

  const viaNginx = () => overHttp(proxy?.httpsUrl ?? '');
  const fund = async (d: Registered, valor: number) => {
    const charge = await createCharge(viaNginx(), d, valor);
    const paid = await request(targets[0] ?? '', {
      method: 'POST',
      url: '/api/webhooks/asaas',
      headers: { 'asaas-access-token': PROCESS_WEBHOOK_TOKEN },
      payload: paymentEvent('PAYMENT_RECEIVED', charge),
    });
    expect(paid.statusCode, paid.body).toBe(200);
  };
  const driver = async () => {
    const d = await registerDriver(viaNginx());
    await acceptTerms(viaNginx(), d);
    return d;
  };
  const atOnce = (count: number, send: (baseUrl: string, i: number) => Promise<HttpAnswer>) =>
    Promise.all(Array.from({ length: count }, (_, i) => send(targets[i % targets.length] ?? '', i)));
  const count = async (table: 'drivers' | 'terms' | 'pix_charges' | 'withdrawals' | 'vehicles' | 'vpos', where?: { driver: number }) => {
    let q = db.kysely.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n'));
    if (where && table !== 'terms' && table !== 'drivers') q = q.where('driver_id', '=', where.driver);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  it('two instances starting at once on an empty database both start; migrations, the first terms and the demo data happen once', async () => {
    if (!build || !database) throw new Error('setup');
    const env = { ...INSTANCE_ENV, DATABASE_URL: database.url };
    [a, b] = await Promise.all([startServer(build.main, env), startServer(build.main, env)]);
    proxy = await startNginx([a.port, b.port]);
    targets = [proxy.httpsUrl, a.url, b.url];

    const demo = await db.kysely.selectFrom('drivers').select('id').where('cpf_cnpj', '=', DEMO_DRIVER.cpfCnpj).execute();
    expect(demo).toHaveLength(1);
    const driverId = demo[0]?.id ?? 0;
    // The demo driver, the demo carrier (decision 77) and its three other people.
    expect(await count('drivers')).toBe(2 + DEMO_MEMBERS.length);
    expect(await count('terms')).toBe(1);
    expect(await count('pix_charges', { driver: driverId })).toBe(2);
    expect(await count('withdrawals', { driver: driverId })).toBe(1);
    expect(await count('vehicles', { driver: driverId })).toBe(5);
    expect(await count('vpos', { driver: driverId })).toBe(4);
    await expectLedgerInvariant(db);
    // Each started its own way: one found the work done.
    expect([a.output(), b.output()].filter((out) => out.includes('migrações aplicadas'))).toHaveLength(1);

    // nginx answers with both instances behind it, with the template's HSTS and compression.
    const health = await atOnce(6, (url) => request(url, { url: '/api/ready', headers: { 'accept-encoding': 'identity' } }));
    for (const h of health) expect(h.statusCode, h.body).toBe(200);
    const viaProxy = await request(proxy.httpsUrl, { url: '/api/ready' });
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const redirect = await request(proxy.httpUrl, { url: '/login' });
    expect(redirect.statusCode).toBe(301);
  }, 90_000);

  it('the whole balance withdrawn through both instances and nginx at once: exactly one withdrawal', async () => {
    const d = await driver();
    await fund(d, 100);
    const answers = await atOnce(6, (url) =>
      request(url, {
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: bearer(d.token),
        payload: { description: 'Saque total', receiver_document: d.cpfCnpj, amount: 100, pix: { type: 'CPF', key: d.cpfCnpj } },
      }),
    );
    const ok = answers.filter((r) => r.statusCode === 200);
    expect(ok, answers.map((r) => r.body).join('\n')).toHaveLength(1);
    for (const r of answers.filter((x) => x.statusCode !== 200)) expect(r.json()).toMatchObject({ Sucesso: false });
    expect(await count('withdrawals', { driver: d.id })).toBe(1);
    expect(await ownBalance(viaNginx(), d)).toBe(0);
    await expectLedgerInvariant(db);
  }, 90_000);

  it('the same Pix webhook delivered to both instances at once: one credit', async () => {
    const d = await driver();
    const charge = await createCharge(viaNginx(), d, 150);
    const event = paymentEvent('PAYMENT_RECEIVED', charge);
    const answers = await atOnce(6, (url) =>
      request(url, {
        method: 'POST',
        url: '/api/webhooks/asaas',
        headers: { 'asaas-access-token': PROCESS_WEBHOOK_TOKEN },
        payload: event,
      }),
    );
    for (const r of answers) expect(r.statusCode, r.body).toBe(200);
    expect(await ownBalance(viaNginx(), d)).toBe(150);
    const credits = await db.kysely
      .selectFrom('ledger_entries')
      .select('id')
      .where('idempotency_key', '=', `pix-charge:${charge.id}:credit`)
      .execute();
    expect(credits).toHaveLength(1);
  }, 90_000);

  it('billing:run on both hosts at once charges each tag once for the month', async () => {
    if (!build || !database) throw new Error('setup');
    const d = await driver();
    await fund(d, 100);
    const tag = await registerTag(viaNginx(), d);
    expect((await actions.activate(viaNginx(), d, tag.serial, tag.plate)).statusCode).toBe(200);
    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const month = next.toISOString().slice(0, 7);
    const cli = () =>
      promisify(execFile)(process.execPath, [build?.cli ?? '', 'billing:run', month], {
        cwd: path.resolve(import.meta.dirname, '..', '..', '..', '..'),
        env: { PATH: process.env.PATH ?? '', ...PROCESS_ENV, DATABASE_URL: database?.url ?? '' },
      });
    const outputs = await Promise.all([cli(), cli()]);
    expect(outputs.map((o) => o.stdout).join('')).toMatch(/Mensalidades de \d{4}-\d{2}/);
    const fees = await db.kysely
      .selectFrom('ledger_entries')
      .select('idempotency_key')
      .where('driver_id', '=', d.id)
      .where('idempotency_key', 'like', 'tag-fee:%')
      .execute();
    expect(fees.map((f) => f.idempotency_key).sort()).toHaveLength(2);
    expect(await ownBalance(viaNginx(), d)).toBe(Math.round((100 - 2 * 15.9) * 100) / 100);
    await expectLedgerInvariant(db);
  }, 90_000);

  it('a partner push with the same id sent to both instances at once is stored once and answered alike', async () => {
    const d = await driver();
    await fund(d, 100);
    const tag = await registerTag(viaNginx(), d, { Operadora: SEMPARAR });
    expect((await actions.activate(viaNginx(), d, tag.serial, tag.plate)).statusCode).toBe(200);
    const key = (await new PartnerService(db).create('operator', 'SemParar Escala', SEMPARAR)).key;
    const externalId = `escala-${tag.serial}`;
    const body = {
      externalId,
      serialNumber: tag.serial,
      placeName: 'Praça Itupeva',
      value: 18.9,
      occurredAt: saoPaulo(60).local,
      is_third: false,
    };
    const answers = await atOnce(6, (url) =>
      request(url, { method: 'POST', url: '/api/parceiro/passagens', headers: { 'x-api-key': key }, payload: body }),
    );
    expect([200, 201]).toContain(answers[0]?.statusCode);
    for (const r of answers)
      expect({ status: r.statusCode, body: r.json() }).toEqual({ status: answers[0]?.statusCode, body: answers[0]?.json() });
    const stored = await db.kysely.selectFrom('partner_pushes').select('external_id').where('external_id', '=', externalId).execute();
    expect(stored).toHaveLength(1);
    const debits = await db.kysely
      .selectFrom('ledger_entries')
      .select('id')
      .where('driver_id', '=', d.id)
      .where('idempotency_key', 'like', `partner:%:${externalId}`)
      .execute();
    expect(debits).toHaveLength(1);
    expect(await ownBalance(viaNginx(), d)).toBe(Math.round((100 - 15.9 - 18.9) * 100) / 100);
  }, 90_000);

  it('counts the sign-in limit across both instances by the client address nginx puts in X-Forwarded-For', async () => {
    const d = await registerDriver(viaNginx());
    const login = (url: string, localAddress: string, password: string, headers: Record<string, string> = {}) =>
      request(url, {
        method: 'POST',
        url: '/api/tokens/login-motorista',
        localAddress,
        headers,
        payload: { cpfCnpj: d.cpfCnpj, password },
      });
    const [proxyUrl, aUrl, bUrl] = targets as [string, string, string];
    // Four failures from 127.0.0.2: through nginx (to either instance) and straight to each one.
    for (const url of [proxyUrl, aUrl, proxyUrl, bUrl]) expect((await login(url, '127.0.0.2', 'errada123')).statusCode).toBe(401);
    for (const url of [proxyUrl, proxyUrl, aUrl, bUrl]) {
      const locked = await login(url, '127.0.0.2', d.password);
      expect(locked.statusCode, locked.body).toBe(429);
    }
    // Another client is not held back, even one that writes the locked address into X-Forwarded-For itself.
    const other = await login(proxyUrl, '127.0.0.3', d.password, { 'x-forwarded-for': '127.0.0.2' });
    expect(other.statusCode, other.body).toBe(200);
    const rows = await db.kysely
      .selectFrom('rate_limits')
      .select(['key', 'hits'])
      .where('scope', '=', 'login:document+address')
      .where('key', 'like', `${d.cpfCnpj}|%`)
      .execute();
    expect(rows.map((r) => r.key)).toEqual([`${d.cpfCnpj}|127.0.0.2`]);
  }, 90_000);
});
