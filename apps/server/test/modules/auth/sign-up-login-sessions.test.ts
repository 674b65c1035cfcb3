import { messages, serverMessages } from '@portal/domain';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/modules/auth/sessions.js';
import { bearer, json, newCpf, registerDriver, useTestApp } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';

const LOGIN = '/api/tokens/login-motorista';
const REGISTER = '/api/user/create-user';
const LOGOUT = '/api/tokens/logout';
const BALANCE = '/api/motorista/saldo';

const validRegistration = () => ({
  name: 'Carlos Alberto Pereira',
  cpfCnpj: newCpf(),
  phoneNumber: '(21) 99876-5432',
  password: 'senhaforte1',
  password_confirmation: 'senhaforte1',
  type: 'driver',
});

describeEachDatabase('autenticação', (dialect) => {
  const ctx = useTestApp(dialect, { LOGIN_MAX_PER_DOCUMENT_ADDRESS: '3', LOGIN_MAX_PER_ADDRESS: '8' });
  const inject = (options: InjectOptions) => ctx().app.inject(options);
  // Each test signs in from its own address so the per-IP counter only counts what the test does.
  let ipSeq = 0;
  const nextIp = () => `10.0.${dialect === 'sqlite' ? 1 : 2}.${++ipSeq}`;

  describe('cadastro', () => {
    it('creates the driver, its three zero-balance accounts (Saldo, SaldoTerceiro, VPOs) and a session; stores the phone as +55', async () => {
      const body = validRegistration();
      const res = await inject({
        method: 'POST',
        url: REGISTER,
        payload: { ...body, name: '  Carlos   Alberto Pereira ', cpfCnpj: body.cpfCnpj.replace(/^(\d{3})(\d{3})(\d{3})/, '$1.$2.$3-') },
      });
      expect(res.statusCode).toBe(201);
      const out = json<{ Sucesso: boolean; Mensagem: string; Token: string; User: Record<string, unknown> }>(res);
      expect(out.Sucesso).toBe(true);
      expect(out.Mensagem).toBe(serverMessages.registration.created);
      expect(out.Token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(out.User).toEqual({
        id: expect.any(Number),
        name: 'Carlos Alberto Pereira',
        cpfCnpj: body.cpfCnpj,
        phoneNumber: '+5521998765432',
      });

      const db = ctx().db.kysely;
      const driver = await db.selectFrom('drivers').selectAll().where('cpf_cnpj', '=', body.cpfCnpj).executeTakeFirstOrThrow();
      expect(driver.phone_number).toBe('+5521998765432');
      expect(driver.password_hash).toMatch(/^\$argon2id\$/);
      expect(driver.password_hash).not.toContain(body.password);
      const accounts = await db
        .selectFrom('accounts')
        .select(['kind', 'balance_cents'])
        .where('driver_id', '=', driver.id)
        .orderBy('kind')
        .execute();
      expect(accounts.map((a) => [a.kind, Number(a.balance_cents)])).toEqual([
        ['own', 0],
        ['third', 0],
        ['vpo', 0],
      ]);
      const session = await db.selectFrom('sessions').selectAll().where('driver_id', '=', driver.id).executeTakeFirstOrThrow();
      expect(session.token_hash).toBe(hashToken(out.Token));
      expect(session.token_hash).not.toBe(out.Token);

      const balance = await inject({ method: 'GET', url: BALANCE, headers: bearer(out.Token) });
      expect(balance.statusCode).toBe(200);
    });

    it('accepts an alphanumeric CNPJ (founding decision 10), upper-casing it', async () => {
      const res = await inject({ method: 'POST', url: REGISTER, payload: { ...validRegistration(), cpfCnpj: '12.abc.345/01de-35' } });
      expect(res.statusCode).toBe(201);
      expect(json<{ User: { cpfCnpj: string } }>(res).User.cpfCnpj).toBe('12ABC34501DE35');
    });

    const fieldCases: [string, Record<string, unknown>, string, string][] = [
      ['name too short', { name: 'Ana' }, 'name', messages.registration.nameTooShort],
      ['name only spaces', { name: '      ' }, 'name', messages.registration.nameTooShort],
      ['cpfCnpj empty', { cpfCnpj: '' }, 'cpfCnpj', messages.registration.cpfCnpjRequired],
      ['cpf check digits', { cpfCnpj: '529.982.247-24' }, 'cpfCnpj', messages.registration.cpfInvalid],
      ['cpf all same digits', { cpfCnpj: '111.111.111-11' }, 'cpfCnpj', messages.registration.cpfInvalid],
      ['cnpj check digits', { cpfCnpj: '11.222.333/0001-80' }, 'cpfCnpj', messages.registration.cnpjInvalid],
      ['cnpj all same digits', { cpfCnpj: '11111111111111' }, 'cpfCnpj', messages.registration.cnpjInvalid],
      ['phone empty', { phoneNumber: '' }, 'phoneNumber', messages.registration.phoneRequired],
      ['phone short', { phoneNumber: '(11) 9876-543' }, 'phoneNumber', messages.registration.phoneInvalid],
      ['password short', { password: '1234567', password_confirmation: '1234567' }, 'password', messages.registration.passwordTooShort],
      ['confirmation differs', { password_confirmation: 'outrasenha1' }, 'password_confirmation', messages.registration.passwordMismatch],
      ['wrong type', { type: 'admin' }, 'type', 'Tipo de usuário inválido'],
    ];
    it.each(fieldCases)('422 when %s', async (_name, patch, field, message) => {
      const res = await inject({ method: 'POST', url: REGISTER, payload: { ...validRegistration(), ...patch } });
      expect(res.statusCode).toBe(422);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: message, errors: { [field]: [message] } });
    });

    it('reports every failing field at once, and missing fields as their rule', async () => {
      const res = await inject({ method: 'POST', url: REGISTER, payload: { type: 'driver' } });
      expect(res.statusCode).toBe(422);
      expect(json(res)).toEqual({
        Sucesso: false,
        Mensagem: messages.registration.nameTooShort,
        errors: {
          name: [messages.registration.nameTooShort],
          cpfCnpj: [messages.registration.cpfCnpjRequired],
          phoneNumber: [messages.registration.phoneRequired],
          password: [messages.registration.passwordTooShort],
        },
      });
      const count = await ctx()
        .db.kysely.selectFrom('drivers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBeGreaterThan(0);
    });

    it('refuses an already registered CPF/CNPJ as a field error, formatted or not', async () => {
      const first = validRegistration();
      expect((await inject({ method: 'POST', url: REGISTER, payload: first })).statusCode).toBe(201);
      const formatted = first.cpfCnpj.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
      const res = await inject({ method: 'POST', url: REGISTER, payload: { ...validRegistration(), cpfCnpj: formatted } });
      expect(res.statusCode).toBe(422);
      expect(json(res)).toEqual({
        Sucesso: false,
        Mensagem: serverMessages.registration.cpfCnpjTaken,
        errors: { cpfCnpj: [serverMessages.registration.cpfCnpjTaken] },
      });
    });

    it('maps a concurrent duplicate registration to the field error, never a 500', async () => {
      const body = validRegistration();
      const results = await Promise.all(Array.from({ length: 4 }, () => inject({ method: 'POST', url: REGISTER, payload: body })));
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes).toEqual([201, 422, 422, 422]);
      for (const r of results.filter((x) => x.statusCode === 422)) {
        expect(json<{ errors: unknown }>(r).errors).toEqual({ cpfCnpj: [serverMessages.registration.cpfCnpjTaken] });
      }
      const rows = await ctx().db.kysely.selectFrom('drivers').select('id').where('cpf_cnpj', '=', body.cpfCnpj).execute();
      expect(rows).toHaveLength(1);
      const accounts = await ctx().db.kysely.selectFrom('accounts').select('id').where('driver_id', '=', rows[0]!.id).execute();
      expect(accounts).toHaveLength(3);
    });
  });

  describe('login', () => {
    it('signs in with a formatted CPF and returns Token and Data', async () => {
      const d = await registerDriver(ctx().app);
      const formatted = d.cpfCnpj.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
      const res = await inject({
        method: 'POST',
        url: LOGIN,
        remoteAddress: nextIp(),
        payload: { cpfCnpj: formatted, password: d.password },
      });
      expect(res.statusCode).toBe(200);
      const out = json<{ Sucesso: boolean; Mensagem: string; Token: string; Data: unknown }>(res);
      expect(out.Sucesso).toBe(true);
      expect(out.Mensagem).toBe('Login realizado com sucesso');
      expect(out.Data).toEqual({ id: d.id, name: 'Maria das Graças Souza', cpfCnpj: d.cpfCnpj });
      expect(out.Token).not.toBe(d.token);
      const balance = await inject({ method: 'GET', url: BALANCE, headers: bearer(out.Token) });
      expect(balance.statusCode).toBe(200);
    });

    it('answers the same 401 for a wrong password and an unknown CPF/CNPJ', async () => {
      const d = await registerDriver(ctx().app);
      const wrong = await inject({
        method: 'POST',
        url: LOGIN,
        remoteAddress: nextIp(),
        payload: { cpfCnpj: d.cpfCnpj, password: 'errada123' },
      });
      const unknown = await inject({
        method: 'POST',
        url: LOGIN,
        remoteAddress: nextIp(),
        payload: { cpfCnpj: newCpf(), password: d.password },
      });
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(json(res)).toEqual({ Sucesso: false, Mensagem: 'Usuário ou senha incorretos' });
      }
      expect(wrong.body).toBe(unknown.body);
    });

    it('422 with the login messages for empty fields', async () => {
      const both = await inject({ method: 'POST', url: LOGIN, payload: { cpfCnpj: '', password: '' } });
      expect(both.statusCode).toBe(422);
      expect(json(both)).toEqual({
        Sucesso: false,
        Mensagem: messages.login.cpfCnpjRequired,
        errors: { cpfCnpj: [messages.login.cpfCnpjRequired], password: [messages.login.passwordRequired] },
      });
      const onlyMask = await inject({ method: 'POST', url: LOGIN, payload: { cpfCnpj: '..-/', password: 'x' } });
      expect(json(onlyMask)).toMatchObject({ errors: { cpfCnpj: [messages.login.cpfCnpjRequired] } });
      const noPassword = await inject({ method: 'POST', url: LOGIN, payload: { cpfCnpj: '52998224725' } });
      expect(noPassword.statusCode).toBe(422);
      expect(json(noPassword)).toEqual({
        Sucesso: false,
        Mensagem: messages.login.passwordRequired,
        errors: { password: [messages.login.passwordRequired] },
      });
    });

    it('throttles a CPF/CNPJ from one address after the configured attempts, even with the right password, counted in the database', async () => {
      const d = await registerDriver(ctx().app);
      const ip = nextIp();
      for (let i = 0; i < 3; i++) {
        const res = await inject({ method: 'POST', url: LOGIN, remoteAddress: ip, payload: { cpfCnpj: d.cpfCnpj, password: 'errada123' } });
        expect(res.statusCode).toBe(401);
      }
      const locked = await inject({ method: 'POST', url: LOGIN, remoteAddress: ip, payload: { cpfCnpj: d.cpfCnpj, password: d.password } });
      expect(locked.statusCode).toBe(429);
      expect(json(locked)).toEqual({ Sucesso: false, Mensagem: serverMessages.login.throttled });
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      const rows = await ctx()
        .db.kysely.selectFrom('rate_limits')
        .select('hits')
        .where('scope', '=', 'login:document+address')
        .where('key', '=', `${d.cpfCnpj}|${ip}`)
        .execute();
      expect(rows.map((r) => r.hits)).toEqual([3]);

      // Another address is another bucket; and once the window is over, this one counts afresh.
      expect(
        (await inject({ method: 'POST', url: LOGIN, remoteAddress: nextIp(), payload: { cpfCnpj: d.cpfCnpj, password: 'errada123' } }))
          .statusCode,
      ).toBe(401);
      await ctx()
        .db.kysely.updateTable('rate_limits')
        .set((eb) => ({ window_start: eb('window_start', '-', 15 * 60_000) }))
        .where('key', '=', `${d.cpfCnpj}|${ip}`)
        .execute();
      const after = await inject({ method: 'POST', url: LOGIN, remoteAddress: ip, payload: { cpfCnpj: d.cpfCnpj, password: d.password } });
      expect(after.statusCode).toBe(200);
    });

    it('a successful sign-in clears that CPF/CNPJ and address attempts', async () => {
      const d = await registerDriver(ctx().app);
      const ip = nextIp();
      const attempt = (password: string) =>
        inject({ method: 'POST', url: LOGIN, remoteAddress: ip, payload: { cpfCnpj: d.cpfCnpj, password } });
      for (let i = 0; i < 2; i++) expect((await attempt('errada123')).statusCode).toBe(401);
      expect((await attempt(d.password)).statusCode).toBe(200);
      for (let i = 0; i < 2; i++) expect((await attempt('errada123')).statusCode).toBe(401);
      expect((await attempt(d.password)).statusCode).toBe(200);
    });

    it('throttles an IP address at its own, higher limit across different CPFs', async () => {
      const ip = '192.0.2.77';
      const d = await registerDriver(ctx().app);
      for (let i = 0; i < 8; i++) {
        const res = await inject({ method: 'POST', url: LOGIN, remoteAddress: ip, payload: { cpfCnpj: newCpf(), password: 'errada123' } });
        expect(res.statusCode).toBe(401);
      }
      const blocked = await inject({
        method: 'POST',
        url: LOGIN,
        remoteAddress: ip,
        payload: { cpfCnpj: d.cpfCnpj, password: d.password },
      });
      expect(blocked.statusCode).toBe(429);
      expect(json(blocked)).toEqual({ Sucesso: false, Mensagem: serverMessages.login.throttled });
      const elsewhere = await inject({
        method: 'POST',
        url: LOGIN,
        remoteAddress: nextIp(),
        payload: { cpfCnpj: d.cpfCnpj, password: d.password },
      });
      expect(elsewhere.statusCode).toBe(200);
    });
  });

  describe('sessões', () => {
    const unauthorized = { Sucesso: false, Mensagem: serverMessages.session.unauthorized };

    it('logout revokes the presented session only', async () => {
      const d = await registerDriver(ctx().app);
      const other = await inject({
        method: 'POST',
        url: LOGIN,
        remoteAddress: nextIp(),
        payload: { cpfCnpj: d.cpfCnpj, password: d.password },
      });
      const otherToken = json<{ Token: string }>(other).Token;

      const res = await inject({ method: 'POST', url: LOGOUT, headers: bearer(d.token) });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({ Sucesso: true, Mensagem: serverMessages.session.loggedOut });
      const row = await ctx()
        .db.kysely.selectFrom('sessions')
        .select('revoked_at')
        .where('token_hash', '=', hashToken(d.token))
        .executeTakeFirstOrThrow();
      expect(row.revoked_at).not.toBeNull();

      const after = await inject({ method: 'GET', url: BALANCE, headers: bearer(d.token) });
      expect(after.statusCode).toBe(401);
      expect(json(after)).toEqual(unauthorized);
      expect((await inject({ method: 'POST', url: LOGOUT, headers: bearer(d.token) })).statusCode).toBe(401);
      expect((await inject({ method: 'GET', url: BALANCE, headers: bearer(otherToken) })).statusCode).toBe(200);
    });

    it('401 for a missing, malformed, unknown or expired token', async () => {
      const d = await registerDriver(ctx().app);
      const cases = [
        {},
        { authorization: 'Bearer' },
        { authorization: 'Basic abc' },
        { authorization: `Bearer ${'A'.repeat(43)}` },
        { authorization: `Bearer ${d.token}x` },
      ];
      for (const headers of cases) {
        const res = await inject({ method: 'GET', url: BALANCE, headers });
        expect(res.statusCode).toBe(401);
        expect(json(res)).toEqual(unauthorized);
      }
      await ctx()
        .db.kysely.updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', hashToken(d.token))
        .execute();
      const expired = await inject({ method: 'GET', url: BALANCE, headers: bearer(d.token) });
      expect(expired.statusCode).toBe(401);
      expect(json(expired)).toEqual(unauthorized);
    });

    it('sessions expire after SESSION_TTL_HOURS', async () => {
      const d = await registerDriver(ctx().app);
      const row = await ctx()
        .db.kysely.selectFrom('sessions')
        .select(['created_at', 'expires_at'])
        .where('token_hash', '=', hashToken(d.token))
        .executeTakeFirstOrThrow();
      const ttl = new Date(row.expires_at).getTime() - new Date(row.created_at).getTime();
      expect(ttl).toBe(168 * 3_600_000);
    });

    it('an unauthenticated call is 401 before its body is validated', async () => {
      const res = await inject({ method: 'POST', url: LOGOUT, payload: 'not json', headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(401);
    });
  });
});
