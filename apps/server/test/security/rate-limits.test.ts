import { createHash } from 'node:crypto';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Db, Dialect } from '../../src/db/connection.js';
import { createLogger } from '../../src/logger.js';
import { PasswordHasher } from '../../src/modules/auth/passwords.js';
import { PartnerService } from '../../src/modules/partners/service.js';
import { json, newCpf, openTestDatabase, TEST_ENV, useTestApp } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { talkUntilClosed } from '../helpers/raw-socket.js';

const REGISTER = '/api/user/create-user';
const WEBHOOK = '/api/webhooks/asaas';
const PARTNER_VPO = '/api/parceiro/vpos';
const tooMany = { Sucesso: false, Mensagem: serverMessages.limits.tooManyRequests };

const registration = (cpfCnpj = newCpf()) => ({
  name: 'Carlos Alberto Pereira',
  cpfCnpj,
  phoneNumber: '(21) 99876-5432',
  password: 'senhaforte1',
  password_confirmation: 'senhaforte1',
  type: 'driver',
});

/** Two app instances over one database, as behind a load balancer. */
function useTwoInstances(dialect: Dialect, env: Record<string, string>): () => { a: FastifyInstance; b: FastifyInstance; db: Db } {
  let ctx: { a: FastifyInstance; b: FastifyInstance; db: Db; other: Db } | null = null;
  let drop: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    const { database, config, db } = await openTestDatabase(dialect, env);
    drop = database.drop;
    const other = database.open();
    const logger = () => createLogger('silent');
    ctx = { a: await buildApp({ config, db, logger: logger() }), b: await buildApp({ config, db: other, logger: logger() }), db, other };
  });
  afterAll(async () => {
    if (ctx) {
      await Promise.all([ctx.a.close(), ctx.b.close()]);
      await Promise.all([ctx.db.kysely.destroy(), ctx.other.kysely.destroy()]);
    }
    await drop?.();
  });
  return () => {
    if (!ctx) throw new Error('instâncias não iniciadas');
    return ctx;
  };
}

describeEachDatabase('limites de requisições', (dialect) => {
  const hostNet = dialect === 'sqlite' ? 1 : 2;

  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('cadastro', () => {
    const ctx = useTestApp(dialect, { REGISTRATION_MAX_PER_ADDRESS: '5' });
    const register = (remoteAddress: string, payload = registration()) =>
      ctx().app.inject({ method: 'POST', url: REGISTER, remoteAddress, payload });

    it('40 at once from one address: the limit are created, the rest 429 in Portuguese without hashing a password', async () => {
      const hash = vi.spyOn(PasswordHasher.prototype, 'hash');
      const answers = await Promise.all(Array.from({ length: 40 }, () => register(`198.51.${hostNet}.1`)));
      const created = answers.filter((a) => a.statusCode === 201);
      const refused = answers.filter((a) => a.statusCode === 429);
      expect(created).toHaveLength(5);
      expect(refused).toHaveLength(35);
      for (const a of refused) {
        expect(json(a)).toEqual(tooMany);
        expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(hash).toHaveBeenCalledTimes(5);
      // Another address has its own bucket.
      expect((await register(`198.51.${hostNet}.2`)).statusCode).toBe(201);
    });

    it('asking again and again whether a CPF is registered gets 429 after the limit', async () => {
      const ip = `198.51.${hostNet}.3`;
      const body = registration();
      expect((await register(ip, body)).statusCode).toBe(201);
      for (let i = 0; i < 4; i++) {
        const res = await register(ip, registration(body.cpfCnpj));
        expect(res.statusCode).toBe(422);
        expect(json(res)).toMatchObject({ Mensagem: serverMessages.registration.cpfCnpjTaken });
      }
      const res = await register(ip, registration(body.cpfCnpj));
      expect(res.statusCode).toBe(429);
      expect(json(res)).toEqual(tooMany);
    });
  });

  describe('webhook e API de parceiros: contadores no banco, compartilhados entre instâncias', () => {
    const two = useTwoInstances(dialect, { WEBHOOK_MAX_PER_ADDRESS: '3', PARTNER_MAX_PER_KEY: '3', PARTNER_MAX_PER_ADDRESS: '5' });
    const webhook = (app: FastifyInstance, remoteAddress: string, token: string) =>
      app.inject({
        method: 'POST',
        url: WEBHOOK,
        remoteAddress,
        headers: { 'asaas-access-token': token },
        payload: { event: 'PAYMENT_RECEIVED', payment: { id: 'pay_x' } },
      });
    const partner = (app: FastifyInstance, remoteAddress: string, key: string) =>
      app.inject({ method: 'POST', url: PARTNER_VPO, remoteAddress, headers: { 'x-api-key': key }, payload: {} });

    it('the webhook: 3 per address across both instances, then 429 even with the right token', async () => {
      const { a, b } = two();
      const ip = `203.0.${hostNet}.1`;
      expect((await webhook(a, ip, 'token-errado-com-16-chars')).statusCode).toBe(401);
      expect((await webhook(b, ip, 'token-errado-com-16-chars')).statusCode).toBe(401);
      expect((await webhook(a, ip, 'token-errado-com-16-chars')).statusCode).toBe(401);
      for (const app of [b, a]) {
        const res = await webhook(app, ip, loadConfig(TEST_ENV).pix.webhookToken);
        expect(res.statusCode).toBe(429);
        expect(json(res)).toEqual(tooMany);
      }
      const row = await two()
        .db.kysely.selectFrom('rate_limits')
        .select('hits')
        .where('scope', '=', 'webhook:address')
        .where('key', '=', ip)
        .executeTakeFirstOrThrow();
      expect(row.hits).toBe(3);
    });

    it('the partner API: 3 per key whatever the address or instance, 5 per address whatever the key; keys stored as digests', async () => {
      const { a, b, db } = two();
      const { key } = await new PartnerService(db).create('shipper', 'Embarcadora Limite');
      const answers = [
        await partner(a, `203.0.${hostNet}.10`, key),
        await partner(b, `203.0.${hostNet}.11`, key),
        await partner(a, `203.0.${hostNet}.12`, key),
      ];
      for (const res of answers) expect(res.statusCode).toBe(422);
      const refused = await partner(b, `203.0.${hostNet}.13`, key);
      expect(refused.statusCode).toBe(429);
      expect(json(refused)).toEqual(tooMany);

      const ip = `203.0.${hostNet}.20`;
      for (let i = 0; i < 5; i++) expect((await partner(i % 2 ? a : b, ip, `pm_chave-inventada-${i}`)).statusCode).toBe(401);
      expect(json(await partner(a, ip, 'pm_chave-inventada-5'))).toEqual(tooMany);

      const keys = await db.kysely.selectFrom('rate_limits').select(['key', 'hits']).where('scope', '=', 'partner:key').execute();
      expect(keys.map((r) => r.key)).not.toContain(key);
      expect(keys).toContainEqual({ key: createHash('sha256').update(key).digest('base64url'), hits: 3 });
    });
  });

  describe('TRUST_PROXY=1: the address is the one the proxy saw', () => {
    const ctx = useTestApp(dialect, { TRUST_PROXY: '1', WEBHOOK_MAX_PER_ADDRESS: '3' });

    it('a forged X-Forwarded-For prefix changes neither the limit nor the logged address', async () => {
      const { app, logs } = ctx();
      const statuses: number[] = [];
      for (let n = 1; n <= 6; n++) {
        const res = await app.inject({
          method: 'POST',
          url: WEBHOOK,
          remoteAddress: '10.0.0.2', // the proxy
          headers: { 'x-forwarded-for': `198.51.100.${n}, 203.0.113.50`, 'asaas-access-token': 'token-errado-com-16-chars' },
          payload: {},
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      const completed = logs
        .filter((l) => l.includes('request completed') && l.includes(WEBHOOK))
        .map((l) => JSON.parse(l) as { remoteAddress: string });
      expect(completed).toHaveLength(6);
      for (const line of completed) expect(line.remoteAddress).toBe('203.0.113.50');
      expect(logs.join('\n')).not.toContain('198.51.100.');
    });
  });

  describe('TRUST_PROXY as the proxy addresses', () => {
    const ctx = useTestApp(dialect, { TRUST_PROXY: '10.0.0.0/24', WEBHOOK_MAX_PER_ADDRESS: '1' });
    const send = (remoteAddress: string, forwardedFor: string) =>
      ctx().app.inject({
        method: 'POST',
        url: WEBHOOK,
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
        payload: {},
      } satisfies InjectOptions);

    it('believes the listed proxies only: a direct client is limited by its own address', async () => {
      expect((await send('10.0.0.7', '198.51.100.1, 203.0.113.60')).statusCode).toBe(401);
      expect((await send('10.0.0.8', '203.0.113.60')).statusCode).toBe(429);
      // Not a listed proxy: its X-Forwarded-For is ignored, whatever it says.
      expect((await send('192.0.2.44', '203.0.113.61')).statusCode).toBe(401);
      expect((await send('192.0.2.44', '203.0.113.62')).statusCode).toBe(429);
    });
  });
});

describe('timeouts da API', () => {
  const ctx = useTestApp('sqlite', {
    HTTP_CONNECTION_TIMEOUT_MS: '300',
    HTTP_HEADERS_TIMEOUT_MS: '400',
    HTTP_REQUEST_TIMEOUT_MS: '800',
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '700',
  });
  let port = 0;
  beforeAll(async () => {
    await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx().app.server.address() as AddressInfo).port;
  });

  const connection = (talk: (socket: net.Socket) => void) => talkUntilClosed(port, talk);

  it('are set on the server from the configuration', () => {
    const server = ctx().app.server;
    expect(server.timeout).toBe(300);
    expect(server.headersTimeout).toBe(400);
    expect(server.requestTimeout).toBe(800);
    expect(server.keepAliveTimeout).toBe(700);
    const defaults = loadConfig({}).http;
    expect(defaults).toEqual({ requestMs: 30_000, headersMs: 10_000, keepAliveMs: 72_000, connectionMs: 60_000 });
  });

  it('an idle connection is closed', async () => {
    const { ms } = await connection(() => undefined);
    expect(ms).toBeLessThan(2000);
  });

  it('a request whose headers trickle in is cut at the headers timeout', async () => {
    const { ms, said } = await connection((socket) => {
      socket.write('POST /api/user/create-user HTTP/1.1\r\nHost: localhost\r\n');
      // One byte every 100 ms keeps the socket active, so only the headers timeout can stop it.
      const drip = setInterval(() => (socket.writable ? socket.write('X') : clearInterval(drip)), 100);
      socket.on('close', () => clearInterval(drip));
    });
    expect(said).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(2500);
  });
});
