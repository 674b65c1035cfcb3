import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { STATEMENT_ORIGINS } from '@portal/domain';
import { beforeAll, expect, it } from 'vitest';
import { accountId, post } from '../../src/modules/ledger/ledger.js';
import { bearer, registerDriver, useTestApp } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';

/** Issue 9: JSON answers of 1 KB or more travel compressed for a client that accepts it. */
describeEachDatabase('compressão das respostas', (dialect) => {
  const ctx = useTestApp(dialect);
  let driver: Registered;

  beforeAll(async () => {
    driver = await registerDriver(ctx().app);
    await ctx()
      .db.kysely.transaction()
      .execute(async (trx) => {
        const own = await accountId(trx, driver.id, 'own');
        for (let i = 1; i <= 10; i++) {
          await post(trx, {
            accountId: own,
            amountCents: i * 100,
            origin: STATEMENT_ORIGINS.thirdPartyCredit,
            event: null,
            placeName: `Praça de pedágio ${i}`,
            isThird: false,
            idempotencyKey: `compress-${driver.id}-${i}`,
          });
        }
      });
  });

  const get = (url: string, acceptEncoding?: string) =>
    ctx().app.inject({
      method: 'GET',
      url,
      headers: { ...bearer(driver.token), ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    });

  it('a list over 1 KB comes back br or gzip as the client prefers, the same JSON once decompressed', async () => {
    const plain = await get('/api/extrato/listar');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.json<{ Transacoes: unknown[] }>().Transacoes).toHaveLength(10);

    const br = await get('/api/extrato/listar', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);

    const gzip = await get('/api/extrato/listar', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('small answers and clients that accept no encoding get plain JSON', async () => {
    const balance = await get('/api/motorista/saldo', 'br, gzip');
    expect(balance.statusCode).toBe(200);
    expect(balance.headers['content-encoding']).toBeUndefined();
    expect(balance.json()).toMatchObject({ Sucesso: true, Saldo: 55 });

    const identity = await get('/api/extrato/listar', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json<{ Transacoes: unknown[] }>().Transacoes).toHaveLength(10);
  });

  it('a compressed request body is not inflated: refused like any body that is not JSON', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/tokens/login-motorista',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ Sucesso: false });
  });
});
