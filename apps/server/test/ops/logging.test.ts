import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { bearer, json, newCpf, useTestApp } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';

describeEachDatabase('logs', (dialect) => {
  const ctx = useTestApp(dialect);

  it('never contain passwords, tokens or a full CPF/CNPJ; CPF/CNPJ appear masked', async () => {
    const { app, logs } = ctx();
    const cpf = newCpf();
    const password = 'SenhaSecreta#2026';
    const reg = await app.inject({
      method: 'POST',
      url: '/api/user/create-user',
      payload: {
        name: 'Pedro Henrique Lima',
        cpfCnpj: cpf,
        phoneNumber: '11912345678',
        password,
        password_confirmation: password,
        type: 'driver',
      },
    });
    expect(reg.statusCode).toBe(201);
    const regToken = json<{ Token: string }>(reg).Token;
    await app.inject({ method: 'POST', url: '/api/tokens/login-motorista', payload: { cpfCnpj: cpf, password: 'errada-123' } });
    const login = await app.inject({ method: 'POST', url: '/api/tokens/login-motorista', payload: { cpfCnpj: cpf, password } });
    const token = json<{ Token: string }>(login).Token;
    await app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: { ...bearer(token), cookie: 'sid=segredo-do-cookie' } });
    await app.inject({ method: 'POST', url: '/api/tokens/logout', headers: bearer(token) });
    await app.inject({
      method: 'POST',
      url: '/api/tokens/login-motorista',
      headers: { 'content-type': 'application/json' },
      payload: `{"cpfCnpj":"${cpf}","password":"${password}"`,
    });

    const all = logs.join('\n');
    expect(logs.length).toBeGreaterThan(5);
    for (const secret of [password, 'errada-123', token, regToken, cpf, 'segredo-do-cookie']) {
      expect(all).not.toContain(secret);
    }
    const masked = `${cpf.slice(0, 3)}******${cpf.slice(-2)}`;
    expect(all).toContain(masked);
    for (const line of logs) expect(() => JSON.parse(line)).not.toThrow();
  });
});

it('redacts authorization, cookies and password/token fields wherever they are logged', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = createLogger('info', sink);
  log.info(
    {
      req: { headers: { authorization: 'Bearer abc.def', cookie: 'a=b' } },
      body: { password: 'p1', password_confirmation: 'p2', token: 't1' },
      Token: 't2',
    },
    'x',
  );
  const out = lines.join('');
  for (const secret of ['abc.def', 'a=b', 'p1', 'p2', 't1', 't2']) expect(out).not.toContain(`"${secret}"`);
  expect(out).toContain('[redacted]');
});
