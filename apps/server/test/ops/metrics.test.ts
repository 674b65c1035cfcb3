import { serverMessages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { Metrics } from '../../src/metrics.js';
import { createServices } from '../../src/services.js';
import { json, registerDriver, useTestApp } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { acceptTerms, fund, sendWebhook } from '../helpers/pix.js';
import { activeTag } from '../helpers/tags.js';

const TOKEN = 'token-de-metricas-de-teste-0123';
const auth = { authorization: `Bearer ${TOKEN}` };

/** The value of one series in the text format, 0 when it is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(' ')[0] ?? '';
    if (wanted.every((w) => labelText.includes(w))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

describeEachDatabase('GET /api/metrics', (dialect) => {
  const ctx = useTestApp(dialect, { METRICS_TOKEN: TOKEN });

  async function scrape(): Promise<string> {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/metrics', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  }

  it('refuses a scrape without the token or with another one (401, envelope)', async () => {
    for (const headers of [{}, { authorization: 'Bearer outro-token-qualquer-0000' }, { authorization: TOKEN }]) {
      const res = await ctx().app.inject({ method: 'GET', url: '/api/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: 'Token de métricas ausente ou inválido.' });
    }
  });

  it('counts requests by route pattern and status, with latencies, and exposes the process metrics', async () => {
    const { app } = ctx();
    for (const id of [101, 202, 303]) await app.inject({ method: 'GET', url: `/api/termos/status-atual/${id}` });
    await app.inject({ method: 'GET', url: '/api/nao-existe/123' });
    const text = await scrape();
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/api/termos/status-atual/:userId', status: '401' })).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/termos/status-atual/:userId' })).toBe(3);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(text).not.toContain('status-atual/101');
    expect(text).not.toContain('nao-existe');
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts sign-in refusals by reason, webhook outcomes and ledger movements by origin', async () => {
    const { app } = ctx();
    const before = await scrape();
    const d = await registerDriver(app);
    await acceptTerms(app, d);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/tokens/login-motorista',
        payload: { cpfCnpj: d.cpfCnpj, password: 'senha-errada-1' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    await fund(app, d, 150);
    expect((await sendWebhook(app, { id: 'evt_x', event: 'PAYMENT_RECEIVED' }, 'token-errado-de-webhook')).statusCode).toBe(401);
    // An orphaned payment: answered 200 (Asaas must not pause its queue), no money, recorded.
    const orphan = { id: 'evt_orfao', event: 'PAYMENT_RECEIVED', payment: { id: 'pay_desconhecido', value: 150, externalReference: null } };
    expect((await sendWebhook(app, orphan)).statusCode).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('login_refusals_total', { reason: 'invalid_credentials' })).toBe(5);
    expect(delta('login_refusals_total', { reason: 'throttled' })).toBe(1);
    expect(delta('pix_webhook_events_total', { outcome: 'processed' })).toBe(2);
    expect(delta('pix_webhook_results_total', { result: 'applied', reason: 'none' })).toBe(1);
    expect(delta('pix_webhook_results_total', { result: 'recorded', reason: 'unknown-charge' })).toBe(1);
    expect(delta('pix_webhook_events_total', { outcome: 'unauthorized' })).toBe(1);
    expect(delta('ledger_movements_total', { origin: 'compra-pix' })).toBe(1);
  });

  it('counts billing runs and their tags by outcome', async () => {
    const { app, config, db } = ctx();
    const d = await registerDriver(app);
    await acceptTerms(app, d);
    await activeTag(app, d);
    const before = await scrape();
    // Services over the app's metrics, like the billing the app schedules itself.
    await createServices(config, db, createLogger('silent'), { metrics: app.metrics }).billing.run(new Date('2031-03-15T12:00:00Z'));
    const after = await scrape();
    expect(sample(after, 'billing_runs_total') - sample(before, 'billing_runs_total')).toBe(1);
    expect(sample(after, 'billing_tags_total', { outcome: 'charged' }) - sample(before, 'billing_tags_total', { outcome: 'charged' })).toBe(
      1,
    );
    expect(
      sample(after, 'ledger_movements_total', { origin: 'mensalidade-tag' }) -
        sample(before, 'ledger_movements_total', { origin: 'mensalidade-tag' }),
    ).toBe(1);
  });
});

describeEachDatabase('GET /api/metrics without METRICS_TOKEN', (dialect) => {
  const ctx = useTestApp(dialect);

  it('does not exist (404, like any unknown path)', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/metrics', headers: auth });
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.session.notFound });
  });
});

describe('http_request_duration_seconds', () => {
  it('is a cumulative histogram per method and route, with the counts by status beside it', async () => {
    const metrics = new Metrics();
    for (const seconds of [0.001, 0.004, 0.02, 0.3, 12]) metrics.httpRequest('GET', '/api/tags/:id', 200, seconds);
    metrics.httpRequest('GET', '/api/tags/:id', 404, 0.002);
    metrics.httpRequest('POST', '/api/a"b\\c', 201, 0.05);
    const text = (await metrics.exposition()).body;
    const tag = { method: 'GET', route: '/api/tags/:id' };
    expect(sample(text, 'http_requests_total', { ...tag, status: '200' })).toBe(5);
    expect(sample(text, 'http_requests_total', { ...tag, status: '404' })).toBe(1);
    const bucket = (le: string) => sample(text, 'http_request_duration_seconds_bucket', { ...tag, le });
    expect([bucket('0.005'), bucket('0.01'), bucket('0.025'), bucket('0.25'), bucket('0.5'), bucket('10'), bucket('+Inf')]).toEqual([
      3, 3, 4, 4, 5, 5, 6,
    ]);
    expect(sample(text, 'http_request_duration_seconds_count', tag)).toBe(6);
    expect(sample(text, 'http_request_duration_seconds_sum', tag)).toBeCloseTo(12.327, 6);
    expect(text).toContain('route="/api/a\\"b\\\\c"');
    expect(text).toMatch(/^# HELP http_requests_total .+\n# TYPE http_requests_total counter\n/);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram\n');
  });
});
