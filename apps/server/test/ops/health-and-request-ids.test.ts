import { Writable } from 'node:stream';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/connection.js';
import { migrateTo, migrateToLatest, pendingMigrations } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/schema.js';
import { createLogger, wantsPrettyLogs } from '../../src/logger.js';
import { json, TEST_ENV, useTestApp } from '../helpers/app.js';
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function unreachableDatabase(): Db {
  const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/nenhum', connectionTimeoutMillis: 500 });
  pool.on('error', () => undefined);
  return { kysely: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
}

describeEachDatabase('health, readiness and request ids', (dialect) => {
  const ctx = useTestApp(dialect);

  it('GET /api/health and GET /api/ready answer 200 on a migrated database', async () => {
    const health = await ctx().app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(json(health)).toEqual({ Sucesso: true, Mensagem: 'Serviço no ar', status: 'ok' });
    const ready = await ctx().app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(json(ready)).toEqual({ Sucesso: true, Mensagem: 'Pronto para atender', database: 'ok', migrations: 'ok' });
    // Probes poll them every few seconds: no request line.
    expect(ctx().logs.filter((l) => l.includes('"url":"/api/health"') || l.includes('"url":"/api/ready"'))).toEqual([]);
  });

  it('logs every request once with its id, which the answer carries in X-Request-Id', async () => {
    const { app, logs } = ctx();
    const fresh = await app.inject({ method: 'GET', url: '/api/motorista/saldo' });
    const id = String(fresh.headers['x-request-id']);
    expect(id).toMatch(UUID);
    const lines = logs.map((l) => JSON.parse(l) as { reqId?: string; msg?: string; statusCode?: number });
    const mine = lines.filter((l) => l.reqId === id && l.msg === 'request completed');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ statusCode: 401 });

    const second = await app.inject({ method: 'GET', url: '/api/motorista/saldo' });
    expect(second.headers['x-request-id']).not.toBe(id);
    // Refusals before any handler (malformed JSON, validation) carry it too.
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/tokens/login-motorista',
      headers: { 'content-type': 'application/json' },
      payload: '{"cpf',
    });
    expect(malformed.statusCode).toBe(400);
    expect(String(malformed.headers['x-request-id'])).toMatch(UUID);
    const invalid = await app.inject({ method: 'POST', url: '/api/tokens/login-motorista', payload: { cpfCnpj: 1 } });
    expect(invalid.statusCode).toBe(422);
    expect(String(invalid.headers['x-request-id'])).toMatch(UUID);
  });

  it("puts the request's id on the lines it writes itself, besides its request line (req.log is made on first use)", async () => {
    const { app, logs } = ctx();
    const res = await app.inject({
      method: 'POST',
      url: '/api/webhooks/asaas',
      headers: { 'asaas-access-token': 'não é o token' },
      payload: {},
    });
    expect(res.statusCode).toBe(401);
    const id = String(res.headers['x-request-id']);
    const mine = logs.map((l) => JSON.parse(l) as { reqId?: string; msg?: string; level?: number }).filter((l) => l.reqId === id);
    expect(mine.map((l) => l.msg)).toEqual(['webhook Asaas com token inválido', 'request completed']);
    expect(mine[0]!.level).toBe(40);
  });

  it("keeps the proxy's X-Request-Id when it is a plain token, and replaces anything else", async () => {
    const { app, logs } = ctx();
    const fromProxy = 'nginx-7f3a.b_9';
    const kept = await app.inject({ method: 'GET', url: '/api/nao-existe', headers: { 'x-request-id': fromProxy } });
    expect(kept.statusCode).toBe(404);
    expect(kept.headers['x-request-id']).toBe(fromProxy);
    expect(logs.filter((l) => l.includes(`"reqId":"${fromProxy}"`) && l.includes('request completed'))).toHaveLength(1);

    for (const hostile of ['a'.repeat(65), 'um id com espaços', 'x"}{"admin":true', '../../etc', 'id-ção-123']) {
      const res = await app.inject({ method: 'GET', url: '/api/nao-existe', headers: { 'x-request-id': hostile } });
      expect(res.headers['x-request-id'], hostile).toMatch(UUID);
      expect(logs.join('\n')).not.toContain(hostile);
    }
  });
});

describe('GET /api/ready when it cannot serve', () => {
  it('is 503 with the envelope while the database is unreachable; /api/health still 200', async () => {
    const db = unreachableDatabase();
    const app = await buildApp({ config: loadConfig({ ...TEST_ENV, LOG_LEVEL: 'silent' }), db });
    try {
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(json(ready)).toEqual({ Sucesso: false, Mensagem: 'Banco de dados inacessível', database: 'down', migrations: 'unknown' });
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.kysely.destroy();
    }
  });

  it('is 503 naming the pending migrations until every migration is applied, then 200', async () => {
    const database = await createTestDatabase('sqlite');
    const db = database.open();
    const names = await pendingMigrations(db);
    await migrateTo(db, names[names.length - 2]!);
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) });
    const app = await buildApp({ config: loadConfig({ ...TEST_ENV, DATABASE_URL: database.url }), db, logger: createLogger('info', sink) });
    try {
      const pending = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(pending.statusCode).toBe(503);
      expect(json(pending)).toEqual({
        Sucesso: false,
        Mensagem: `Migrações pendentes: ${names[names.length - 1]}. Execute npm run cli -- migrate ou reinicie o servidor.`,
        database: 'ok',
        migrations: 'pending',
      });
      expect(lines.join('')).toContain('não está pronto para atender');
      await migrateToLatest(db);
      expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.kysely.destroy();
      await database.drop();
    }
  });
});

describe('log format', () => {
  it('is readable by a person only at a development terminal; JSON in production, tests and pipes', () => {
    expect(wantsPrettyLogs({ NODE_ENV: 'development' }, true)).toBe(true);
    expect(wantsPrettyLogs({}, true)).toBe(true);
    expect(wantsPrettyLogs({ NODE_ENV: 'development' }, false)).toBe(false);
    expect(wantsPrettyLogs({ NODE_ENV: 'production' }, true)).toBe(false);
    expect(wantsPrettyLogs({ NODE_ENV: 'test' }, true)).toBe(false);
    expect(wantsPrettyLogs({ NODE_ENV: 'development', VITEST: 'true' }, true)).toBe(false);
  });
});
