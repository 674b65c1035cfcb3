import { serverMessages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDb } from '../../src/db/connection.js';
import { accountId, post } from '../../src/modules/ledger/ledger.js';
import { bearer, json, registerDriver, TEST_ENV, useTestApp } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';

describeEachDatabase('saldo, saúde, suporte e HTTP', (dialect) => {
  const ctx = useTestApp(dialect, { SUPPORT_WHATSAPP: '5531988887777' });

  describe('GET /api/motorista/saldo', () => {
    it('is 0 and 0 for a new driver', async () => {
      const d = await registerDriver(ctx().app);
      const res = await ctx().app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({ Sucesso: true, Mensagem: 'Saldo consultado com sucesso', Saldo: 0, SaldoTerceiro: 0 });
    });

    it('reads both balances from the ledger, in reais, including negative ones', async () => {
      const d = await registerDriver(ctx().app);
      const db = ctx().db.kysely;
      await db.transaction().execute(async (trx) => {
        const own = await accountId(trx, d.id, 'own');
        const third = await accountId(trx, d.id, 'third');
        await post(trx, {
          accountId: own,
          amountCents: 12_345,
          origin: 'pix',
          placeName: 'Compra de saldo',
          idempotencyKey: `t-${d.id}-1`,
        });
        await post(trx, {
          accountId: own,
          amountCents: -20_000,
          origin: 'passagem',
          placeName: 'Praça Jacareí',
          idempotencyKey: `t-${d.id}-2`,
        });
        await post(trx, {
          accountId: third,
          amountCents: 5_090,
          origin: 'credito-terceiro-movemais',
          placeName: 'MoveMais',
          isThird: true,
          idempotencyKey: `t-${d.id}-3`,
        });
      });
      const res = await ctx().app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) });
      expect(json(res)).toMatchObject({ Sucesso: true, Saldo: -76.55, SaldoTerceiro: 50.9 });
    });

    it('401 without a session', async () => {
      const res = await ctx().app.inject({ method: 'GET', url: '/api/motorista/saldo' });
      expect(res.statusCode).toBe(401);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.session.unauthorized });
    });
  });

  it('GET /api/suporte/whatsapp redirects to the configured WhatsApp number with the greeting', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/suporte/whatsapp' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(
      'https://wa.me/5531988887777?text=Ol%C3%A1!%20Preciso%20de%20ajuda%20com%20o%20Portal%20do%20Motorista.',
    );
  });

  it('unknown /api paths answer 404 JSON for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await ctx().app.inject({ method, url: '/api/nao-existe/123' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.session.notFound });
    }
  });

  it('malformed JSON is a 400 in Portuguese, never a 500', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/tokens/login-motorista',
      headers: { 'content-type': 'application/json' },
      payload: '{"cpfCnpj": "529',
    });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.session.invalidRequest });
  });

  it('odd bodies are client errors, never 500', async () => {
    const cases = [
      { headers: { 'content-type': 'text/plain' }, payload: 'cpf=1' },
      { headers: { 'content-type': 'application/json' }, payload: '[1,2]' },
      { headers: { 'content-type': 'application/json' }, payload: 'null' },
      { headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ cpfCnpj: 123, password: { a: 1 } }) },
      { headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ password: 'x'.repeat(70_000) }) },
      { headers: {}, payload: undefined },
    ];
    for (const c of cases) {
      const res = await ctx().app.inject({ method: 'POST', url: '/api/tokens/login-motorista', ...c });
      expect(res.statusCode, JSON.stringify(c).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(json(res)).toMatchObject({ Sucesso: false, Mensagem: expect.any(String) });
    }
  });

  it('sends the security headers on pages: CSP without inline scripts, frame-ancestors none, nosniff, referrer policy, no HSTS by default', async () => {
    for (const url of ['/login', '/dashboard']) {
      const res = await ctx().app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      const directives = cspDirectives(res.headers['content-security-policy']);
      expect(directives['default-src']).toBe("'self'");
      expect(directives['script-src']).toBe("'self'");
      expect(directives['script-src']).not.toContain('unsafe-inline');
      expect(directives['style-src']).toBe("'self' 'unsafe-inline'");
      expect(directives['img-src']).toBe("'self' data: blob:");
      expect(directives['connect-src']).toBe("'self'");
      expect(directives['font-src']).toBe("'self' data:");
      expect(directives['object-src']).toBe("'none'");
      expect(directives['base-uri']).toBe("'self'");
      expect(directives['form-action']).toBe("'self'");
      expect(directives['frame-ancestors']).toBe("'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it("sends the API's JSON answers the headers a JSON answer needs, and nothing of a page's policy", async () => {
    const { token } = await registerDriver(ctx().app);
    for (const [url, status] of [
      ['/api/health', 200],
      ['/api/motorista/saldo', 200],
      ['/api/nao-existe', 404],
    ] as const) {
      const res = await ctx().app.inject({ method: 'GET', url, headers: { ...bearer(token), accept: 'text/html' } });
      expect(res.statusCode, url).toBe(status);
      expect(cspDirectives(res.headers['content-security-policy']), url).toEqual({ 'default-src': "'none'", 'frame-ancestors': "'none'" });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      for (const pageOnly of [
        'x-frame-options',
        'x-xss-protection',
        'x-dns-prefetch-control',
        'origin-agent-cluster',
        'strict-transport-security',
      ]) {
        expect(res.headers[pageOnly], `${url} ${pageOnly}`).toBeUndefined();
      }
    }
  });

  it('serves the OpenAPI document generated from the contract and the docs page under its own CSP', async () => {
    const doc = await ctx().app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    const spec = json<{ paths: Record<string, Record<string, { requestBody?: unknown; security?: unknown }>> }>(doc);
    for (const path of [
      '/api/tokens/login-motorista',
      '/api/user/create-user',
      '/api/tokens/logout',
      '/api/termos/status-atual/{userId}',
      '/api/termos/getCurrentTerm',
      '/api/termos/download-base64/{termId}',
      '/api/termos/aceitar',
      '/api/termos/rejeitar',
      '/api/motorista/saldo',
      '/api/health',
      '/api/suporte/whatsapp',
      '/api/motorista/notificacoes/chave',
      '/api/motorista/notificacoes/inscricao',
    ]) {
      expect(spec.paths[path], path).toBeDefined();
    }
    expect(JSON.stringify(spec.paths['/api/user/create-user']!.post!.requestBody)).toContain('password_confirmation');
    expect(spec.paths['/api/motorista/saldo']!.get!.security).toEqual([{ bearerAuth: [] }]);
    // Decision 57: the subscription is a PUT (the latest wins) and a DELETE, each with its body.
    const inscricao = spec.paths['/api/motorista/notificacoes/inscricao']!;
    expect(Object.keys(inscricao).sort()).toEqual(['delete', 'put']);
    expect(JSON.stringify(inscricao.put!.requestBody)).toContain('p256dh');
    expect(JSON.stringify(inscricao.delete!.requestBody)).toContain('endpoint');
    const page = await ctx().app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const docsCsp = String(page.headers['content-security-policy']);
    expect(docsCsp).toContain("script-src 'self'");
    expect(docsCsp).toContain("frame-ancestors 'none'");
    expect(docsCsp).not.toContain('upgrade-insecure-requests');
  });
});

describe('HSTS', () => {
  it('is sent only when configured (behind TLS)', async () => {
    const config = loadConfig({ ...TEST_ENV, LOG_LEVEL: 'silent', HSTS: 'true', DATABASE_URL: ':memory:' });
    const db = openDb(':memory:');
    const app = await buildApp({ config, db });
    try {
      for (const url of ['/api/nao-existe', '/login']) {
        const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(res.headers['strict-transport-security'], url).toContain('max-age=31536000');
      }
      const page = await app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } });
      expect(String(page.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await app.close();
      await db.kysely.destroy();
    }
  });
});

function cspDirectives(header: unknown): Record<string, string> {
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
  );
}
