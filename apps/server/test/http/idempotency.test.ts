import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { api, buildPath, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENT_REPLAYED_HEADER } from '@portal/contract';
import type { Endpoint } from '@portal/contract';
import { ACTING_ACCOUNT_HEADER, messages, serverMessages, STATEMENT_ORIGINS } from '@portal/domain';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Db } from '../../src/db/connection.js';
import { canonicalJson, requestHash } from '../../src/db/request-hash.js';
import { IDEMPOTENCY_RETENTION_MS, IdempotencyStore } from '../../src/http/idempotency.js';
import type { IdempotencyOptions } from '../../src/http/idempotency.js';
import { createLogger } from '../../src/logger.js';
import { ensureTerms } from '../../src/modules/terms/bootstrap.js';
import { TermsService } from '../../src/modules/terms/service.js';
import { bearer, openTestDatabase, registerDriver } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { snapshotDatabase } from '../helpers/db-watch.js';
import {
  acceptTerms,
  entriesOf,
  expectLedgerInvariant,
  fund,
  ownBalance,
  readyDriver as readyDriverWith,
  usePixTestApp,
} from '../helpers/pix.js';
import { actions, registerTag } from '../helpers/tags.js';
import type { World } from '../helpers/world.js';
import { buildWorld, validRequest } from '../helpers/world.js';

type Name = keyof typeof api;

/** The calls of issue 11 that move money or change state, by their contract names. */
const IDEMPOTENT: Name[] = [
  'createPixCharge',
  'withdraw',
  'registerTag',
  'activateTag',
  'blockTag',
  'releaseTag',
  'cancelTag',
  'replaceTag',
  'removeTag',
  'updateVehicle',
  'deleteVehicle',
  'accept',
  'reject',
  // Issue 12: the driver's preferences.
  'updateSettings',
  // Issue 21: the saved Pix keys and the withdrawal limits.
  'savePixKey',
  'removePixKey',
  'updatePayoutLimits',
  // Issue 24: a contest of a passage (decision 56).
  'openContest',
  // Issue 25: the recurring top-up by Pix Automático (decision 58).
  'createPixAutomatic',
  'changePixAutomaticValue',
  'cancelPixAutomatic',
  // Decision 76: paying a free-flow toll, contesting it, and a plate's choice.
  'payFreeFlowToll',
  'contestFreeFlowToll',
  'setFreeFlowPlates',
  // Decision 77: answering an invitation, and a Gestor's changes to members and vehicles' drivers.
  'acceptInvitation',
  'declineInvitation',
  'inviteMember',
  'changeMemberRole',
  'removeMember',
  'assignVehicle',
  'setApprovalThreshold',
  'approveWithdrawal',
  'declineWithdrawal',
  'createCostCentre',
  'updateCostCentre',
  'removeCostCentre',
  'setVehicleCostCentre',
  // Decision 78: a vehicle's monthly budget.
  'setVehicleBudget',
];

const REPLAYED = IDEMPOTENT_REPLAYED_HEADER.toLowerCase();

describe('canonical request hash', () => {
  it('is JSON.stringify with sorted keys for a flat record, as partner pushes stored it before it was shared', () => {
    const flat = { z: 1, a: 'x', m: null, b: true, n: Number.NaN, ção: 'ã"\n' };
    expect(canonicalJson(flat)).toBe(JSON.stringify(flat, Object.keys(flat).sort()));
  });

  it('does not depend on key order at any depth, and tells values apart', () => {
    const one = { body: { pix: { type: 'CPF', key: '1' }, amount: 10 }, method: 'POST' };
    const two = { method: 'POST', body: { amount: 10, pix: { key: '1', type: 'CPF' } } };
    expect(requestHash(one)).toBe(requestHash(two));
    expect(requestHash({ ...one, body: { ...one.body, amount: 10.01 } })).not.toBe(requestHash(one));
    expect(requestHash({ a: [1, 2] })).not.toBe(requestHash({ a: [2, 1] }));
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
  });
});

describe('the contract marks the calls that accept Idempotency-Key', () => {
  it('exactly the calls of issue 11, all of them driver calls', () => {
    const marked = (Object.keys(api) as Name[]).filter((n) => (api[n] as Endpoint).idempotent === true);
    expect(marked.sort()).toEqual([...IDEMPOTENT].sort());
    expect(marked.every((n) => api[n].auth)).toBe(true);
    expect(IDEMPOTENCY_KEY_HEADER).toBe('Idempotency-Key');
  });
});

describeEachDatabase('Idempotency-Key nas chamadas do motorista', (dialect) => {
  const { provider, app, db } = usePixTestApp(dialect);

  const readyDriver = (reais: number) => readyDriverWith(app(), reais);

  const withdrawBody = (d: Registered, amount: number) => ({
    description: 'Saque na estrada',
    receiver_document: d.cpfCnpj,
    amount,
    pix: { type: 'CPF', key: d.cpfCnpj },
  });

  function withdraw(d: Registered, amount: number, key?: string, target: FastifyInstance = app()): Promise<LightMyRequestResponse> {
    return target.inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: { ...bearer(d.token), ...(key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: key }) },
      payload: withdrawBody(d, amount),
    });
  }

  async function withdrawalsOf(d: Registered, database: Db = db()) {
    return database.kysely.selectFrom('withdrawals').select(['id', 'amount_cents', 'status']).where('driver_id', '=', d.id).execute();
  }

  async function debitsOf(d: Registered, database: Db = db()) {
    return (await entriesOf(database, d.id)).filter((e) => e.origin === STATEMENT_ORIGINS.pixWithdrawal);
  }

  async function keysOf(d: Registered) {
    return db().kysely.selectFrom('idempotency_keys').selectAll().where('driver_id', '=', d.id).execute();
  }

  it('the OpenAPI document describes the header on those calls, and only on them', async () => {
    const doc = await app().inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json<{ paths: Record<string, Record<string, { description?: string }>> }>();
    for (const name of Object.keys(api) as Name[]) {
      const e = api[name] as Endpoint;
      const path = e.path.replace(/:(\w+)/g, '{$1}');
      const description = spec.paths[path]?.[e.method.toLowerCase()]?.description ?? '';
      expect(description.includes(IDEMPOTENCY_KEY_HEADER), name).toBe(IDEMPOTENT.includes(name));
    }
  });

  describe('every call that moves money or changes state', () => {
    let world: World;
    beforeAll(async () => {
      world = await buildWorld(app(), db());
    });

    /** The request of validRequest (which draws new serials each time: pass the same one to send it again). */
    function request(name: Name, key: string, w: World = world, valid = validRequest(name, w)): InjectOptions {
      const e = api[name] as Endpoint;
      return {
        method: e.method,
        url: buildPath(e.path, valid.params ?? {}),
        headers: { ...bearer(w.a.token), [IDEMPOTENCY_KEY_HEADER]: key },
        ...(valid.body ? { payload: valid.body } : {}),
      };
    }

    /** A company's pending withdrawal, asked by its own login, that A (made its Gestor) may decide. */
    async function pendingWithdrawal(w: World): Promise<number> {
      const asCompany = bearer(w.company.token);
      expect(
        (await app().inject({ method: 'POST', url: `/api/convites/${w.a.invitationId}/aceitar`, headers: bearer(w.a.token) })).statusCode,
      ).toBe(200);
      const promoted = await app().inject({
        method: 'POST',
        url: `/api/empresa/membros/${w.a.invitationId}/papel`,
        headers: asCompany,
        payload: { papel: 'gestor' },
      });
      expect(promoted.statusCode, promoted.body).toBe(200);
      await fund(app(), w.company, 200);
      await app().inject({ method: 'POST', url: '/api/empresa/aprovacao-saques', headers: asCompany, payload: { valor: 100 } });
      const asked = await app().inject({
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: asCompany,
        payload: { description: 'Saque', receiver_document: w.company.cpfCnpj, amount: 150, pix: { key: w.company.cpfCnpj, type: 'CNPJ' } },
      });
      expect(asked.statusCode, asked.body).toBe(200);
      return asked.json<{ aprovacaoId: number }>().aprovacaoId;
    }

    /**
     * Decision 77: the calls that act on a company's account, made by its own login or, to decide a
     * withdrawal its login asked for, by A as its Gestor (X-Conta): who calls, on which account, and the request.
     */
    const ON_COMPANY: Partial<
      Record<Name, (w: World) => Promise<{ who: Registered; account: Registered; valid: ReturnType<typeof validRequest> }>>
    > = {
      inviteMember: async (w) => ({ who: w.company, account: w.company, valid: validRequest('inviteMember', w) }),
      changeMemberRole: async (w) => ({
        who: w.company,
        account: w.company,
        valid: { params: { id: w.a.invitationId }, body: { papel: 'gestor' } },
      }),
      removeMember: async (w) => ({ who: w.company, account: w.company, valid: { params: { id: w.b.invitationId } } }),
      setApprovalThreshold: async (w) => ({ who: w.company, account: w.company, valid: validRequest('setApprovalThreshold', w) }),
      approveWithdrawal: async (w) => ({ who: w.a, account: w.company, valid: { params: { id: await pendingWithdrawal(w) } } }),
      declineWithdrawal: async (w) => ({ who: w.a, account: w.company, valid: { params: { id: await pendingWithdrawal(w) } } }),
      // Decision 78: a budget on a vehicle of the company's.
      setVehicleBudget: async (w) => {
        const truck = await registerTag(app(), w.company);
        return {
          who: w.company,
          account: w.company,
          valid: { params: { id: truck.vehicleId }, body: { valor: 1500, bloquearNoLimite: true } },
        };
      },
    };

    it.each(IDEMPOTENT)('%s: the same key and request again is the first answer byte for byte, and changes nothing', async (name) => {
      // A fresh pair of drivers per call: each call's effect changes what the next may do.
      const w = await buildWorld(app(), db());
      // Only a blocked tag can be released.
      if (name === 'releaseTag') expect((await actions.block(app(), w.a, w.a.active.serial)).statusCode).toBe(200);
      const key = randomUUID();
      const onCompany = await ON_COMPANY[name]?.(w);
      const valid = onCompany?.valid ?? validRequest(name, w);
      const send = (): InjectOptions => {
        const options = request(name, key, w, valid);
        if (!onCompany) return options;
        const acting = onCompany.who.id === onCompany.account.id ? {} : { [ACTING_ACCOUNT_HEADER]: String(onCompany.account.id) };
        return { ...options, headers: { ...options.headers, ...bearer(onCompany.who.token), ...acting } };
      };
      const first = await app().inject(send());
      expect(first.statusCode, first.body).toBeLessThan(300);
      expect(first.json<{ Sucesso: boolean }>().Sucesso, first.body).toBe(true);
      expect(first.headers[REPLAYED]).toBeUndefined();
      const stored = await keysOf(onCompany?.account ?? w.a);
      expect(stored.map((k) => [k.key, k.status_code, k.response])).toEqual([[key, first.statusCode, first.body]]);

      const before = await snapshotDatabase(db());
      for (let attempt = 0; attempt < 2; attempt++) {
        const again = await app().inject(send());
        expect(again.statusCode).toBe(first.statusCode);
        expect(again.rawPayload.equals(first.rawPayload), again.body).toBe(true);
        expect(again.headers[REPLAYED]).toBe('true');
        expect(again.headers['content-type']).toBe(first.headers['content-type']);
      }
      expect(await snapshotDatabase(db()), 'a replay wrote to the database').toBe(before);
    });

    it.each(IDEMPOTENT)('%s: the same key with another request is 409 with a Portuguese Mensagem; nothing is done', async (name) => {
      const key = randomUUID();
      // The key first served a withdrawal of R$ 1,00 (withdraw: of R$ 2,00).
      const first = await withdraw(world.a, name === 'withdraw' ? 2 : 1, key);
      expect(first.statusCode, first.body).toBe(200);
      const before = await snapshotDatabase(db());
      const res = await app().inject(request(name, key));
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ Sucesso: false, Mensagem: serverMessages.idempotency.keyReused });
      expect(await snapshotDatabase(db())).toBe(before);
    });
  });

  describe('POST /api/motorista/sacar', () => {
    it('a retry after a lost answer: one withdrawal, one ledger entry, one payout, the balance right', async () => {
      const d = await readyDriver(300);
      const key = randomUUID();
      const first = await withdraw(d, 120.5, key);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ Sucesso: true, Mensagem: serverMessages.withdrawal.done, status: 'DONE' });
      const retries = await Promise.all([withdraw(d, 120.5, key), withdraw(d, 120.5, key)]);
      for (const again of retries) {
        expect(again.body).toBe(first.body);
        expect(again.headers[REPLAYED]).toBe('true');
      }
      const rows = await withdrawalsOf(d);
      expect(rows.map((r) => [Number(r.amount_cents), r.status])).toEqual([[12_050, 'DONE']]);
      expect((await debitsOf(d)).map((e) => e.amount_cents)).toEqual([-12_050]);
      expect(provider.payouts.filter((p) => p.withdrawalId === rows[0]?.id)).toHaveLength(1);
      expect(await ownBalance(app(), d)).toBe(179.5);
      await expectLedgerInvariant(db());
    });

    it('a body that parses to the same request is the same request (key order, spacing of the Pix key)', async () => {
      const d = await readyDriver(100);
      const key = randomUUID();
      const masked = d.cpfCnpj.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
      const first = await withdraw(d, 10, key);
      const again = await app().inject({
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: { ...bearer(d.token), [IDEMPOTENCY_KEY_HEADER]: key },
        payload: { pix: { key: d.cpfCnpj, type: 'CPF' }, amount: 10, receiver_document: d.cpfCnpj, description: 'Saque na estrada' },
      });
      expect(again.body).toBe(first.body);
      expect(again.headers[REPLAYED]).toBe('true');
      // Another amount, or another receiver text, is another request.
      for (const changed of [{ ...withdrawBody(d, 10.01) }, { ...withdrawBody(d, 10), receiver_document: masked }]) {
        const res = await app().inject({
          method: 'POST',
          url: '/api/motorista/sacar',
          headers: { ...bearer(d.token), [IDEMPOTENCY_KEY_HEADER]: key },
          payload: changed,
        });
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ Sucesso: false, Mensagem: serverMessages.idempotency.keyReused });
      }
      expect(await withdrawalsOf(d)).toHaveLength(1);
      expect(await ownBalance(app(), d)).toBe(90);
    });

    it('a refusal is an answer too: replayed as it was, even after the balance would allow it', async () => {
      const d = await readyDriver(100);
      const key = randomUUID();
      const refused = await withdraw(d, 150, key);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({
        Sucesso: false,
        Mensagem: messages.withdrawal.amountAboveBalance,
        errors: { amount: [messages.withdrawal.amountAboveBalance] },
      });
      await fund(app(), d, 100);
      const again = await withdraw(d, 150, key);
      expect(again.statusCode).toBe(422);
      expect(again.body).toBe(refused.body);
      expect(again.headers[REPLAYED]).toBe('true');
      expect(await withdrawalsOf(d)).toEqual([]);
      // A new intent, a new key: done.
      expect((await withdraw(d, 150, randomUUID())).statusCode).toBe(200);
      expect(await ownBalance(app(), d)).toBe(50);
    });

    it('without the header every attempt is a new withdrawal, as the SPEC says, and no key is stored', async () => {
      const d = await readyDriver(100);
      expect((await withdraw(d, 10)).statusCode).toBe(200);
      expect((await withdraw(d, 10)).statusCode).toBe(200);
      expect(await withdrawalsOf(d)).toHaveLength(2);
      expect(await ownBalance(app(), d)).toBe(80);
      expect(await keysOf(d)).toEqual([]);
    });

    it('keys are per driver: another driver with the same key value gets their own withdrawal', async () => {
      const a = await readyDriver(100);
      const b = await readyDriver(100);
      const key = randomUUID();
      const fromA = await withdraw(a, 30, key);
      const fromB = await withdraw(b, 30, key);
      expect(fromA.statusCode).toBe(200);
      expect(fromB.statusCode).toBe(200);
      expect(fromB.headers[REPLAYED]).toBeUndefined();
      expect(fromB.json<{ withdrawalId: string }>().withdrawalId).not.toBe(fromA.json<{ withdrawalId: string }>().withdrawalId);
      // B's key with another amount is B's conflict only.
      expect((await withdraw(b, 31, key)).statusCode).toBe(409);
      expect(await ownBalance(app(), a)).toBe(70);
      expect(await ownBalance(app(), b)).toBe(70);
    });

    it.each([
      ['empty', ''],
      [`longer than ${IDEMPOTENCY_KEY_MAX} characters`, 'k'.repeat(IDEMPOTENCY_KEY_MAX + 1)],
      ['with a space', 'minha chave'],
      ['with a tab', 'chave\tcom-tab'],
      ['with a control character', 'chave\u0001'],
      ['with a letter outside ASCII', 'chave-ção'],
      ['repeated (two headers joined by a comma)', ['k1', 'k2']],
    ] as const)('a key %s: 400 with a Portuguese Mensagem, nothing done', async (_label, key) => {
      const d = await readyDriver(100);
      const before = await snapshotDatabase(db());
      const res = await app().inject({
        method: 'POST',
        url: '/api/motorista/sacar',
        headers: { ...bearer(d.token), [IDEMPOTENCY_KEY_HEADER]: key as string | string[] },
        payload: withdrawBody(d, 10),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ Sucesso: false, Mensagem: messages.idempotency.keyInvalid });
      expect(await snapshotDatabase(db())).toBe(before);
    });

    it(`a key of exactly ${IDEMPOTENCY_KEY_MAX} visible characters is accepted`, async () => {
      const d = await readyDriver(100);
      const key = `${'~!'.repeat(100)}${'a'.repeat(IDEMPOTENCY_KEY_MAX - 200)}`;
      expect((await withdraw(d, 10, key)).statusCode).toBe(200);
      expect((await withdraw(d, 10, key)).headers[REPLAYED]).toBe('true');
      expect(await ownBalance(app(), d)).toBe(90);
    });

    it('a retry while the first is still running waits for its answer: one withdrawal', async () => {
      const d = await readyDriver(100);
      const key = randomUUID();
      provider.payoutDelayMs = 400;
      const [first, second] = await Promise.all([
        withdraw(d, 25, key),
        new Promise((r) => setTimeout(r, 50)).then(() => withdraw(d, 25, key)),
      ]);
      expect(first.statusCode).toBe(200);
      expect(second.body).toBe(first.body);
      expect(second.headers[REPLAYED]).toBe('true');
      expect(await withdrawalsOf(d)).toHaveLength(1);
      expect(await ownBalance(app(), d)).toBe(75);
    });
  });

  describe('expiry', () => {
    async function age(d: Registered, key: string, hours: number) {
      const at = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
      await db()
        .kysely.updateTable('idempotency_keys')
        .set({ created_at: at(hours), expires_at: at(hours - IDEMPOTENCY_RETENTION_MS / 3_600_000) })
        .where('driver_id', '=', d.id)
        .where('key', '=', key)
        .execute();
    }

    it('keys are kept 24 hours: a replay at 23 h 59 min is still the first answer', async () => {
      const d = await readyDriver(100);
      const key = randomUUID();
      const first = await withdraw(d, 10, key);
      const [row] = await keysOf(d);
      expect(new Date(row?.expires_at ?? 0).getTime() - new Date(row?.created_at ?? 0).getTime()).toBe(24 * 3_600_000);
      await age(d, key, 23 + 59 / 60);
      const again = await withdraw(d, 10, key);
      expect(again.body).toBe(first.body);
      expect(again.headers[REPLAYED]).toBe('true');
      expect(await ownBalance(app(), d)).toBe(90);
    });

    it('after 24 hours the same key is new: the request runs, and another request with it is no conflict', async () => {
      const d = await readyDriver(100);
      const key = randomUUID();
      expect((await withdraw(d, 10, key)).statusCode).toBe(200);
      await age(d, key, 25);
      const later = await withdraw(d, 20, key);
      expect(later.statusCode, later.body).toBe(200);
      expect(later.headers[REPLAYED]).toBeUndefined();
      expect(await ownBalance(app(), d)).toBe(70);
      // And it is kept again from now.
      expect((await withdraw(d, 20, key)).headers[REPLAYED]).toBe('true');
      expect(await withdrawalsOf(d)).toHaveLength(2);
    });

    it('expired keys are deleted by the next claim (injected clock), the others kept', async () => {
      const d = await readyDriver(100);
      const old = randomUUID();
      const recent = randomUUID();
      expect((await withdraw(d, 1, old)).statusCode).toBe(200);
      expect((await withdraw(d, 1, recent)).statusCode).toBe(200);
      await age(d, old, 30);
      const tomorrow = new IdempotencyStore(db().kysely, { now: () => new Date(Date.now() + 3_600_000) });
      expect(await tomorrow.claim(d.id, randomUUID(), requestHash({ anything: 1 }))).toEqual({ kind: 'claimed' });
      const left = (await keysOf(d)).map((k) => k.key);
      expect(left).toContain(recent);
      expect(left).not.toContain(old);
      // A day and a bit later, everything of today is gone too.
      const later = new IdempotencyStore(db().kysely, { now: () => new Date(Date.now() + IDEMPOTENCY_RETENTION_MS + 2 * 3_600_000) });
      expect(await later.purge()).toBeGreaterThanOrEqual(3);
      expect(await keysOf(d)).toEqual([]);
    });
  });

  describe('a claim is never run again', () => {
    it('a key whose process died before storing the answer: 409 em processamento with Retry-After, nothing done', async () => {
      const { database, config, db: own } = await openTestDatabase(dialect);
      const quick = await buildApp({
        config,
        db: own,
        logger: createLogger('silent'),
        pixProvider: provider,
        idempotency: { waitMs: 150, pollMs: 20 },
      });
      try {
        await ensureTerms(new TermsService(own.kysely));
        const d = await registerDriver(quick);
        await acceptTerms(quick, d);
        await fund(quick, d, 100);
        const key = randomUUID();
        const options: InjectOptions = {
          method: 'POST',
          url: '/api/motorista/sacar',
          headers: { ...bearer(d.token), [IDEMPOTENCY_KEY_HEADER]: key },
          payload: withdrawBody(d, 10),
        };
        // A first attempt did its work, and its process died before storing the answer.
        expect((await quick.inject(options)).statusCode).toBe(200);
        await own.kysely
          .updateTable('idempotency_keys')
          .set({ status_code: 0, content_type: '', response: '', answered_at: null })
          .where('driver_id', '=', d.id)
          .execute();
        const before = await snapshotDatabase(own);
        const res = await quick.inject(options);
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toEqual({ Sucesso: false, Mensagem: messages.idempotency.inProgress });
        expect(res.headers['retry-after']).toBe('1');
        expect(await snapshotDatabase(own)).toBe(before);
        expect(await ownBalance(quick, d)).toBe(90);
        // Another request with that key is still a conflict, not a wait.
        const other = await quick.inject({ ...options, payload: withdrawBody(d, 11) });
        expect(other.json()).toEqual({ Sucesso: false, Mensagem: serverMessages.idempotency.keyReused });
      } finally {
        await quick.close();
        await own.kysely.destroy();
        await database.drop();
      }
    });
  });

  describe('two instances over one database', () => {
    const sink = () =>
      new Writable({
        write(_chunk, _enc, done) {
          done();
        },
      });
    let instances: { app: FastifyInstance; db: Db }[] = [];
    let drop: (() => Promise<void>) | null = null;

    beforeAll(async () => {
      const opened = await openTestDatabase(dialect);
      drop = opened.database.drop;
      await ensureTerms(new TermsService(opened.db.kysely));
      const second = opened.database.open();
      const make = async (own: Db, options: IdempotencyOptions) => ({
        app: await buildApp({
          config: opened.config,
          db: own,
          logger: createLogger('info', sink()),
          pixProvider: provider,
          idempotency: options,
        }),
        db: own,
      });
      instances = [await make(opened.db, {}), await make(second, {})];
    });

    afterAll(async () => {
      for (const i of instances) await i.app.close();
      for (const i of instances) await i.db.kysely.destroy();
      await drop?.();
    });

    it('the same withdrawal sent at once to both, six times: one withdrawal, one ledger entry, one payout, the balance right', async () => {
      const [one, two] = instances;
      if (!one || !two) throw new Error('setup');
      const d = await registerDriver(one.app);
      await acceptTerms(one.app, d);
      await fund(two.app, d, 200);
      provider.payoutDelayMs = 300;
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => withdraw(d, 75.25, key, (i % 2 === 0 ? one : two).app)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(answers.filter((a) => a.headers[REPLAYED] === 'true')).toHaveLength(5);
      const rows = await withdrawalsOf(d, one.db);
      expect(rows.map((r) => [Number(r.amount_cents), r.status])).toEqual([[7_525, 'DONE']]);
      expect((await debitsOf(d, one.db)).map((e) => e.amount_cents)).toEqual([-7_525]);
      expect(provider.payouts.filter((p) => p.withdrawalId === rows[0]?.id)).toHaveLength(1);
      expect(await ownBalance(two.app, d)).toBe(124.75);
      await expectLedgerInvariant(one.db);
    });

    it('the same purchase and the same tag activation at once on both: one charge, one fee', async () => {
      const [one, two] = instances;
      if (!one || !two) throw new Error('setup');
      const world = await buildWorld(one.app, one.db);
      const send = (name: Name, key: string, i: number) => {
        const e = api[name] as Endpoint;
        const valid = validRequest(name, world);
        return (i % 2 === 0 ? one : two).app.inject({
          method: e.method,
          url: buildPath(e.path, valid.params ?? {}),
          headers: { ...bearer(world.a.token), [IDEMPOTENCY_KEY_HEADER]: key },
          ...(valid.body ? { payload: valid.body } : {}),
        });
      };
      const chargesBefore = provider.charges.length;
      const buyKey = randomUUID();
      const buys = await Promise.all(Array.from({ length: 4 }, (_, i) => send('createPixCharge', buyKey, i)));
      expect(new Set(buys.map((b) => `${b.statusCode} ${b.body}`)).size).toBe(1);
      expect(provider.charges.length - chargesBefore).toBe(1);
      const balanceBefore = await ownBalance(one.app, world.a);
      const activateKey = randomUUID();
      const activations = await Promise.all(Array.from({ length: 4 }, (_, i) => send('activateTag', activateKey, i)));
      expect(activations.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      expect(new Set(activations.map((a) => a.body)).size).toBe(1);
      const fees = await one.db.kysely
        .selectFrom('tag_fee_charges')
        .innerJoin('tags', 'tags.id', 'tag_fee_charges.tag_id')
        .select('tag_fee_charges.id')
        .where('tags.serial_number', '=', world.a.inactive.serial)
        .execute();
      expect(fees).toHaveLength(1);
      expect(await ownBalance(two.app, world.a)).toBe(Math.round((balanceBefore - 15.9) * 100) / 100);
      await expectLedgerInvariant(one.db);
    });
  });
});
