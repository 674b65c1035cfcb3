import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { serverMessages } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerDriver, TEST_PRIVACY_OFFICER_ENV, TEST_VAPID_ENV, useTestApp } from '../helpers/app.js';
import { talkUntilClosed } from '../helpers/raw-socket.js';
import { describeEachDatabase } from '../helpers/databases.js';

interface RawAnswer {
  statusLine: string;
  headers: string;
  body: string;
  /** The server closed the connection after answering. */
  closed: boolean;
}

/** Writes bytes on a fresh TCP connection and reads everything until the server closes it. */
async function raw(port: number, ...chunks: string[]): Promise<RawAnswer> {
  const { said: data } = await talkUntilClosed(port, (socket) => {
    for (const chunk of chunks) socket.write(chunk);
  });
  const at = data.indexOf('\r\n\r\n');
  const head = data.slice(0, at);
  return { statusLine: head.split('\r\n')[0] ?? '', headers: head.toLowerCase(), body: data.slice(at + 4), closed: true };
}

/** Every error answer: JSON, exactly the envelope, a Portuguese Mensagem. */
function expectEnvelope(res: LightMyRequestResponse, status: number, message: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toContain('application/json');
  expect(JSON.parse(res.body)).toEqual({ Sucesso: false, Mensagem: message });
}

describeEachDatabase('erros do framework em português', (dialect) => {
  const ctx = useTestApp(dialect);
  let port = 0;

  beforeAll(async () => {
    await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx().app.server.address() as AddressInfo).port;
  });

  it('a URL that does not decode, or a path parameter past its maximum, is our envelope', async () => {
    const { app, logs } = ctx();
    expectEnvelope(
      await app.inject({ method: 'GET', url: '/api/veiculo/detail/%E0%A4%A?token=segredo-na-url' }),
      400,
      serverMessages.http.badUrl,
    );
    expectEnvelope(await app.inject({ method: 'GET', url: `/api/veiculo/detail/${'A'.repeat(101)}` }), 414, serverMessages.http.urlTooLong);
    expect(logs.join('\n')).not.toContain('segredo-na-url');
  });

  it('what Fastify refuses by itself (content type, body size, malformed JSON, unknown path) is our envelope', async () => {
    const { app } = ctx();
    const login = '/api/tokens/login-motorista';
    expectEnvelope(
      await app.inject({ method: 'POST', url: login, headers: { 'content-type': 'application/xml' }, payload: '<cpf>1</cpf>' }),
      415,
      serverMessages.http.unsupportedMediaType,
    );
    expectEnvelope(
      await app.inject({
        method: 'POST',
        url: login,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ password: 'x'.repeat(70_000) }),
      }),
      413,
      serverMessages.http.bodyTooLarge,
    );
    expectEnvelope(
      await app.inject({ method: 'POST', url: login, headers: { 'content-type': 'application/json' }, payload: '{"cpfCnpj": "529' }),
      400,
      serverMessages.session.invalidRequest,
    );
    expectEnvelope(await app.inject({ method: 'PUT', url: '/api/motorista/saldo' }), 404, serverMessages.session.notFound);
    expectEnvelope(await app.inject({ method: 'GET', url: '/api/nao-existe' }), 404, serverMessages.session.notFound);
  });

  it('a bad Content-Length, a broken request line or huge headers get a raw HTTP/1.1 answer with the envelope, then the connection closes', async () => {
    const cases: [string, string, number, string][] = [
      [
        'Content-Length: abc',
        'POST /api/tokens/login-motorista HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer segredo-do-cliente\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
        400,
        serverMessages.http.badRequest,
      ],
      ['request line', 'ISSO NAO E HTTP\r\n\r\n', 400, serverMessages.http.badRequest],
      [
        'Content-Length and chunked',
        'POST /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
        400,
        serverMessages.http.badRequest,
      ],
      [
        'headers of 20 KB',
        `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Grande: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        serverMessages.http.headersTooLarge,
      ],
    ];
    for (const [what, request, status, message] of cases) {
      const answer = await raw(port, request);
      expect(answer.statusLine, what).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(answer.headers, what).toContain('content-type: application/json');
      expect(answer.headers, what).toContain('connection: close');
      expect(JSON.parse(answer.body), what).toEqual({ Sucesso: false, Mensagem: message });
      expect(answer.closed).toBe(true);
    }
    expect(ctx().logs.join('\n')).not.toContain('segredo-do-cliente');
  });
});

describeEachDatabase('logs sem segredos na URL', (dialect) => {
  const ctx = useTestApp(dialect);

  it('a token put in a query string is logged as [redacted]; paging stays readable', async () => {
    const { app, logs } = ctx();
    const d = await registerDriver(app);
    const res = await app.inject({
      method: 'GET',
      url: `/api/extrato/listar?page=2&token=${d.token}&access_token=${d.token}`,
      headers: bearer(d.token),
    });
    expect(res.statusCode).toBe(200);
    const all = logs.join('\n');
    expect(all).not.toContain(d.token);
    const line = logs.map((l) => JSON.parse(l) as { url?: string }).find((l) => l.url?.startsWith('/api/extrato/listar'));
    expect(line?.url).toBe('/api/extrato/listar?page=2&token=[redacted]&access_token=[redacted]');
  });
});

describe('documentação OpenAPI', () => {
  // Production with the local Pix provider is a demonstration (founding decision 28), and its token is none the repository ships.
  const production = {
    NODE_ENV: 'production',
    DEMONSTRATION: 'true',
    PIX_WEBHOOK_TOKEN: `token-${randomBytes(16).toString('hex')}`,
    ...TEST_VAPID_ENV,
    ...TEST_PRIVACY_OFFICER_ENV,
  };
  const development = useTestApp('sqlite');
  const productionOff = useTestApp('sqlite', production);
  const productionOn = useTestApp('sqlite', { ...production, API_DOCS: 'true' });

  it('is served outside production', async () => {
    const res = await development().app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ openapi: string; paths: Record<string, unknown> }>().paths).toHaveProperty('/api/parceiro/passagens');
    expect((await development().app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('in production only when the operator turns it on (API_DOCS=true)', async () => {
    for (const url of ['/api/docs', '/api/docs/json', '/api/docs/static/index.html']) {
      expectEnvelope(await productionOff().app.inject({ method: 'GET', url }), 404, serverMessages.session.notFound);
    }
    expect((await productionOn().app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
  });
});

describe('ao encerrar', () => {
  const ctx = useTestApp('sqlite');

  it('a request that arrives while the server closes gets our 503, not Fastify’s English one', async () => {
    const { app } = ctx();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const body = JSON.stringify({ cpfCnpj: '', password: '' });
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    // The first request is in flight (its body half sent) when the server starts closing.
    socket.write(
      `POST /api/tokens/login-motorista HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((r) => setTimeout(r, 100));
    const closing = app.close();
    await new Promise((r) => setTimeout(r, 50));
    socket.write(`${body.slice(5)}GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n`);
    await closed;
    await closing;
    // Normally the first request is answered (422) and the second gets the 503; on a slow machine
    // the first may already meet the closing server. Either way the last answer is ours.
    const answers = data.split(/(?=HTTP\/1\.1 )/);
    const last = answers.at(-1) ?? '';
    expect(last).toMatch(/^HTTP\/1\.1 503 /);
    expect(last.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(last.slice(last.indexOf('\r\n\r\n') + 4))).toEqual({ Sucesso: false, Mensagem: serverMessages.http.closing });
    for (const answer of answers) expect(answer).toContain('"Sucesso":false');
  });
});
