import { serverMessages } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, expect, it, vi } from 'vitest';
import { RateLimitStore } from '../../src/db/rate-limit-store.js';
import { PasswordHasher } from '../../src/modules/auth/passwords.js';
import { json, registerDriver, useTestApp } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';

const LOGIN = '/api/tokens/login-motorista';
const throttled = { Sucesso: false, Mensagem: serverMessages.login.throttled };
const wrong = { Sucesso: false, Mensagem: 'Usuário ou senha incorretos' };

/** The sign-in limits with their production defaults (docs/decisions.md, "Sign-in and request limits"). */
describeEachDatabase('limites de login', (dialect) => {
  const ctx = useTestApp(dialect);
  const net = dialect === 'sqlite' ? 1 : 2;
  const login = (d: Registered, password: string, remoteAddress: string) =>
    ctx().app.inject({ method: 'POST', url: LOGIN, remoteAddress, payload: { cpfCnpj: d.cpfCnpj, password } });
  const documentRow = (d: Registered) =>
    ctx()
      .db.kysely.selectFrom('rate_limits')
      .select(['hits', 'next_at'])
      .where('scope', '=', 'login:document')
      .where('key', '=', d.cpfCnpj)
      .executeTakeFirstOrThrow();
  /** The delay on that CPF/CNPJ is over (as if its time had passed). */
  const waitOver = (d: Registered) =>
    ctx()
      .db.kysely.updateTable('rate_limits')
      .set({ next_at: 0 })
      .where('scope', '=', 'login:document')
      .where('key', '=', d.cpfCnpj)
      .execute();

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a stranger who used up their attempts from their address does not stop the driver on theirs', async () => {
    const d = await registerDriver(ctx().app);
    const stranger = `203.0.${net}.10`;
    for (let i = 0; i < 5; i++) expect(json(await login(d, `chute-${i}`, stranger))).toEqual(wrong);
    const refused = await login(d, d.password, stranger);
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toEqual(throttled);

    // The driver's phone: an address this CPF never used before, so nothing but the limits decides.
    const phone = `198.51.${net}.10`;
    const res = await login(d, d.password, phone);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ Sucesso: true, Token: expect.any(String) });
  });

  it('strangers on many addresses get a delay that doubles up to the ceiling; the driver at home is never delayed', async () => {
    const d = await registerDriver(ctx().app); // registered from 127.0.0.1: the driver's known address
    // Ten free attempts a day on one CPF/CNPJ from addresses it never signed in from (nine here)...
    for (let i = 0; i < 9; i++) {
      const res = await login(d, 'errada123', `203.0.${net}.${1 + (i % 2)}`);
      expect(res.statusCode).toBe(401);
      expect((await documentRow(d)).next_at).toBeLessThanOrEqual(Date.now());
    }
    // ...and from the tenth on, the next attempt waits 1 s, 2 s, 4 s... after it, whoever sends it.
    let host = 3;
    for (const expected of [1000, 2000, 4000, 8000, 16_000]) {
      await waitOver(d);
      const before = Date.now();
      expect((await login(d, 'errada123', `203.0.${net}.${host++}`)).statusCode).toBe(401);
      const after = Date.now();
      const row = await documentRow(d);
      expect(row.next_at - before).toBeGreaterThanOrEqual(expected);
      expect(row.next_at - after).toBeLessThanOrEqual(expected);
    }
    const stranger = `203.0.${net}.${host}`;
    const slowed = await login(d, 'errada123', stranger);
    expect(slowed.statusCode).toBe(429);
    expect(json(slowed)).toEqual(throttled);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(14);
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(16);
    // A refused attempt is not counted anywhere: the password was not checked.
    expect((await documentRow(d)).hits).toBe(14);
    const strangerRows = await ctx()
      .db.kysely.selectFrom('rate_limits')
      .select('hits')
      .where('key', 'in', [stranger, `${d.cpfCnpj}|${stranger}`])
      .execute();
    expect(strangerRows.map((r) => r.hits)).toEqual([0, 0]);

    // The driver at the address they registered from skips the delay.
    const home = await login(d, d.password, '127.0.0.1');
    expect(home.statusCode).toBe(200);

    // On a new address the driver waits like anyone else, is let in when the delay is over, and
    // that address then skips the delay too.
    const road = `198.51.${net}.20`;
    expect((await login(d, d.password, road)).statusCode).toBe(429);
    await waitOver(d);
    expect((await login(d, d.password, road)).statusCode).toBe(200);
    expect((await login(d, 'errada123', stranger)).statusCode).toBe(429);
    expect((await login(d, d.password, road)).statusCode).toBe(200);

    // The delay stops growing at LOGIN_DOCUMENT_MAX_DELAY_SECONDS (15 minutes).
    await ctx()
      .db.kysely.updateTable('rate_limits')
      .set({ hits: 60, next_at: 0 })
      .where('scope', '=', 'login:document')
      .where('key', '=', d.cpfCnpj)
      .execute();
    const before = Date.now();
    expect((await login(d, 'errada123', stranger)).statusCode).toBe(401);
    const row = await documentRow(d);
    expect(row.next_at - before).toBeGreaterThanOrEqual(900_000);
    expect(row.next_at - Date.now()).toBeLessThanOrEqual(900_000);
    expect(Number((await login(d, 'errada123', `203.0.${net}.99`)).headers['retry-after'])).toBe(900);
  });

  it('expired counters are deleted by the next count, without a job', async () => {
    const db = ctx().db.kysely;
    const old = Date.now() - 2 * 86_400_000;
    await db
      .insertInto('rate_limits')
      .values({ scope: 'login:address', key: '192.0.2.200', window_start: old, hits: 3, expires_at: old + 900_000 })
      .execute();
    await new RateLimitStore(db).take('login:address', '192.0.2.201', 5, 900_000);
    const keys = (await db.selectFrom('rate_limits').select('key').where('key', 'like', '192.0.2.20_').execute()).map((r) => r.key);
    expect(keys).toEqual(['192.0.2.201']);
  });

  // Last: the burst of issue 8, point 1.
  it('100 concurrent guesses on one CPF/CNPJ from one address: at most the limit are checked, the right password among them gets no token', async () => {
    const d = await registerDriver(ctx().app);
    const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
    const burst = Array.from({ length: 100 }, (_, i) => (i === 99 ? d.password : `chute-${i}`));
    const answers: LightMyRequestResponse[] = await Promise.all(burst.map((password) => login(d, password, `203.0.${net}.200`)));

    const checked = verify.mock.calls.length;
    const by = (status: number) => answers.filter((a) => a.statusCode === status);
    // Measured: 5 checks, 5 × 401 and 95 × 429 on both databases.
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(5);
    expect(by(200)).toHaveLength(0);
    expect(by(401)).toHaveLength(checked);
    expect(by(429)).toHaveLength(100 - checked);
    for (const a of by(429)) expect(json(a)).toEqual(throttled);
    for (const a of answers) expect(a.body).not.toContain('Token');
    const attempts = await ctx()
      .db.kysely.selectFrom('rate_limits')
      .select('hits')
      .where('key', '=', `${d.cpfCnpj}|203.0.${net}.200`)
      .executeTakeFirstOrThrow();
    expect(attempts.hits).toBe(checked);
  });
});
