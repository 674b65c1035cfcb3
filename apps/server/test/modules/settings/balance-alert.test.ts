import { DEFAULT_BALANCE_ALERT_CENTS, messages, serverMessages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';

const URL = '/api/motorista/preferencias';

describeEachDatabase('preferências do motorista (nível de alerta do saldo)', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;

  const read = (d: Registered) => app().inject({ method: 'GET', url: URL, headers: bearer(d.token) });
  const save = (d: Registered, payload: unknown, headers: Record<string, string> = {}) =>
    app().inject({ method: 'POST', url: URL, headers: { ...bearer(d.token), ...headers }, payload: payload as Record<string, unknown> });
  const stored = async (d: Registered) =>
    (await ctx().db.kysely.selectFrom('drivers').select('balance_alert_cents').where('id', '=', d.id).executeTakeFirstOrThrow())
      .balance_alert_cents;

  describe('GET', () => {
    it('answers R$ 50,00 until the driver chooses, with nothing stored', async () => {
      const d = await registerDriver(app());
      const res = await read(d);
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({
        Sucesso: true,
        Mensagem: serverMessages.settings.ok,
        Preferencias: { nivelAlertaSaldo: DEFAULT_BALANCE_ALERT_CENTS / 100 },
      });
      expect(DEFAULT_BALANCE_ALERT_CENTS).toBe(5000);
      expect(await stored(d)).toBeNull();
    });

    it('needs a session', async () => {
      expect((await app().inject({ method: 'GET', url: URL })).statusCode).toBe(401);
      expect((await app().inject({ method: 'POST', url: URL, payload: { nivelAlertaSaldo: 10 } })).statusCode).toBe(401);
    });
  });

  describe('POST', () => {
    it('saves the level in centavos and answers it; the next read shows it; another driver keeps the default', async () => {
      const d = await registerDriver(app());
      const other = await registerDriver(app());
      const res = await save(d, { nivelAlertaSaldo: 123.45 });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({ Sucesso: true, Mensagem: messages.settings.saved, Preferencias: { nivelAlertaSaldo: 123.45 } });
      expect(await stored(d)).toBe(12345);
      expect(json(await read(d))).toMatchObject({ Preferencias: { nivelAlertaSaldo: 123.45 } });
      expect(json(await read(other))).toMatchObject({ Preferencias: { nivelAlertaSaldo: 50 } });
      expect(await stored(other)).toBeNull();
    });

    it.each([
      ['zero (no alert)', 0, 0],
      ['the highest level, R$ 50.000,00', 50_000, 5_000_000],
      ['a float that is 2 decimals on paper', 0.1 + 0.2, 30],
    ])('accepts %s', async (_label, value, cents) => {
      const d = await registerDriver(app());
      const res = await save(d, { nivelAlertaSaldo: value });
      expect(res.statusCode, res.body).toBe(200);
      expect(await stored(d)).toBe(cents);
      expect(json(await read(d))).toMatchObject({ Preferencias: { nivelAlertaSaldo: cents / 100 } });
    });

    it.each([
      ['-1', -1],
      ["'abc'", 'abc'],
      ['50000.01', 50_000.01],
      ['1.234', 1.234],
      ['a string of a number', '50'],
      ['null', null],
    ])('refuses %s with 422 naming the field, and stores nothing', async (_label, value) => {
      const d = await registerDriver(app());
      const res = await save(d, { nivelAlertaSaldo: value });
      expect(res.statusCode, res.body).toBe(422);
      expect(json(res)).toMatchObject({ Sucesso: false, errors: { nivelAlertaSaldo: [messages.settings.alertLevelInvalid] } });
      expect(await stored(d)).toBeNull();
    });

    it('refuses a body without the field', async () => {
      const d = await registerDriver(app());
      const res = await save(d, {});
      expect(res.statusCode).toBe(422);
      expect(json(res)).toMatchObject({ Sucesso: false, errors: { nivelAlertaSaldo: [messages.settings.alertLevelInvalid] } });
    });

    it('accepts Idempotency-Key: a retry gets the first answer; the same key with another value is 409', async () => {
      const d = await registerDriver(app());
      const key = { 'idempotency-key': 'preferencias-1' };
      const first = await save(d, { nivelAlertaSaldo: 80 }, key);
      expect(first.statusCode).toBe(200);
      const again = await save(d, { nivelAlertaSaldo: 80 }, key);
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toBe(first.body);
      const other = await save(d, { nivelAlertaSaldo: 90 }, key);
      expect(other.statusCode).toBe(409);
      expect(await stored(d)).toBe(8000);
    });
  });
});
