import { cnpj, cpf } from 'cpf-cnpj-validator';
import type { PartnerKind } from '@portal/domain';
import { messages, serverMessages, SORT_DIRECTIONS, STATEMENT_ORIGINS, VPO_SORT_FIELDS } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PartnerService } from '../../../src/modules/partners/service.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { saoPaulo } from '../../helpers/world.js';
import { expectLedgerInvariant } from '../../helpers/pix.js';
import { activeTag, newPlate, registerTag, SEMPARAR } from '../../helpers/tags.js';
import type { RegisteredTag } from '../../helpers/tags.js';

interface Balance {
  Saldo: number;
  SaldoTerceiro: number;
}
interface VpoRow {
  IdTransacao: string;
  serialNumber: string;
  PlacaVeiculo: string;
  CpfCnpjEmbarcador: string;
  ValorTotalVP: number;
  created_at: string;
  Status: string;
}
interface VpoPage {
  Sucesso: boolean;
  Mensagem: string;
  VPOS: VpoRow[];
  Paginacao: { TotalPaginas: number };
}
const PUSHED_ORIGINS: ReadonlySet<string> = new Set([
  STATEMENT_ORIGINS.passage,
  STATEMENT_ORIGINS.thirdPartyCredit,
  STATEMENT_ORIGINS.thirdPartyDebit,
]);

interface Tx {
  placeName: string;
  value: number;
  created_at: string;
  origin: string;
  is_third: boolean;
  user_transaction: boolean;
}

const SHIPPER_DOC = cnpj.generate();

describeEachDatabase('parceiros', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  const service = () => new PartnerService(ctx().db);
  const partner = async (kind: PartnerKind) => service().create(kind, `Parceiro ${kind}`, kind === 'operator' ? SEMPARAR : null);
  const send = (method: 'POST' | 'PATCH', url: string, key: string | null, payload: Record<string, unknown>) =>
    app().inject({ method, url, payload, headers: key === null ? {} : { 'x-api-key': key } });
  const balance = async (d: Registered) =>
    json<Balance>(await app().inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) }));
  const statement = async (d: Registered) =>
    json<{ Transacoes: Tx[] }>(await app().inject({ method: 'GET', url: '/api/extrato/listar', headers: bearer(d.token) })).Transacoes;
  /** The statement's rows that partners pushed (not the purchase and the tag fee of activeTag). */
  const pushedRows = async (d: Registered) => (await statement(d)).filter((r) => PUSHED_ORIGINS.has(r.origin));
  const vpos = async (d: Registered, query = '') => {
    const res = await app().inject({ method: 'GET', url: `/api/pedagio/motoristaVpos${query}`, headers: bearer(d.token) });
    expect(res.statusCode, res.body).toBe(200);
    return json<VpoPage>(res);
  };
  const vpoBody = (t: RegisteredTag, overrides: Record<string, unknown> = {}) => ({
    externalId: `vpo-${Math.random().toString(36).slice(2)}`,
    serialNumber: t.serial,
    PlacaVeiculo: t.plate,
    CpfCnpjEmbarcador: SHIPPER_DOC,
    ValorTotalVP: 350.5,
    origem: 'Santos/SP',
    destino: 'Campinas/SP',
    ...overrides,
  });
  const passageBody = (serial: string, overrides: Record<string, unknown> = {}) => ({
    externalId: `pas-${Math.random().toString(36).slice(2)}`,
    serialNumber: serial,
    placeName: 'Praça Itupeva',
    value: 12.3,
    occurredAt: saoPaulo(90).local,
    is_third: false,
    ...overrides,
  });
  const movementBody = (d: Registered, overrides: Record<string, unknown> = {}) => ({
    externalId: `mov-${Math.random().toString(36).slice(2)}`,
    cpfCnpj: d.cpfCnpj,
    origin: STATEMENT_ORIGINS.thirdPartyCredit,
    value: 80,
    placeName: 'MoveMais',
    occurredAt: saoPaulo(30).utc,
    ...overrides,
  });
  const expectError = (res: LightMyRequestResponse, status: number, message?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(json(res)).toMatchObject({ Sucesso: false, ...(message ? { Mensagem: message } : {}) });
  };
  /** A replay: the first answer again, byte for byte, marked by the Idempotent-Replayed header. */
  const expectReplay = (replay: LightMyRequestResponse, first: LightMyRequestResponse) => {
    expect(replay.statusCode, replay.body).toBe(first.statusCode);
    expect(replay.body).toBe(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
  };

  it('a missing, unknown or revoked key gets 401; a key of another kind gets 403; the key is never logged', async () => {
    const d = await registerDriver(app());
    const t = await registerTag(app(), d);
    const shipper = await partner('shipper');
    const operator = await partner('operator');
    const platform = await partner('platform');
    const revoked = await partner('operator');
    expect(await service().revoke(revoked.id)).toBe(true);
    const routes: [string, Record<string, unknown>, string][] = [
      ['/api/parceiro/vpos', vpoBody(t), shipper.key],
      ['/api/parceiro/passagens', passageBody(t.serial), operator.key],
      ['/api/parceiro/terceiro/movimentos', movementBody(d), platform.key],
    ];
    for (const [url, body, rightKey] of routes) {
      expectError(await send('POST', url, null, body), 401, serverMessages.partner.keyMissing);
      expectError(await send('POST', url, `pm_${'x'.repeat(43)}`, body), 401, serverMessages.partner.keyInvalid);
      expectError(await send('POST', url, revoked.key, body), 401, serverMessages.partner.keyInvalid);
      for (const other of [shipper.key, operator.key, platform.key].filter((k) => k !== rightKey)) {
        expectError(await send('POST', url, other, body), 403, serverMessages.partner.wrongKind);
      }
    }
    expectError(await send('PATCH', '/api/parceiro/vpos/x', operator.key, { Status: 'ENCERRADO' }), 403);
    expect(await vpos(d)).toMatchObject({ VPOS: [], Paginacao: { TotalPaginas: 0 } });
    expect(await balance(d)).toMatchObject({ Saldo: 0, SaldoTerceiro: 0 });
    const logs = ctx().logs.join('\n');
    for (const key of [shipper.key, operator.key, platform.key, revoked.key]) expect(logs).not.toContain(key);
  });

  it('a shipper issues a VPO once (sequential and concurrent replays), updates only its own, and only the driver sees it', async () => {
    const d = await registerDriver(app());
    const other = await registerDriver(app());
    const t = await activeTag(app(), d);
    const shipper = await partner('shipper');
    const rival = await partner('shipper');
    const body = vpoBody(t, { serialNumber: ` ${t.serial.slice(0, 4)} ${t.serial.slice(4)}`, ValorTotalVP: 1234.56 });
    const first = await send('POST', '/api/parceiro/vpos', shipper.key, body);
    expect(first.statusCode, first.body).toBe(201);
    expect(json(first)).toMatchObject({ Sucesso: true, Mensagem: serverMessages.partner.vpoIssued, duplicate: false });
    expectReplay(await send('POST', '/api/parceiro/vpos', shipper.key, body), first);
    const concurrentBody = vpoBody(t);
    const all = await Promise.all(Array.from({ length: 6 }, () => send('POST', '/api/parceiro/vpos', shipper.key, concurrentBody)));
    expect(all.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(all.map((r) => r.body)).size).toBe(1);
    expect(all.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    // Another shipper may use the same externalId for its own VPO.
    expect((await send('POST', '/api/parceiro/vpos', rival.key, body)).statusCode).toBe(201);

    const list = await vpos(d, '?sort=valor&direction=desc');
    expect(list).toMatchObject({ Sucesso: true, Mensagem: serverMessages.vpo.ok, Paginacao: { TotalPaginas: 1 } });
    expect(list.VPOS).toHaveLength(3);
    const counter = await ctx()
      .db.kysely.selectFrom('driver_vpo_counters')
      .select('vpo_count')
      .where('driver_id', '=', d.id)
      .executeTakeFirst();
    expect(Number(counter?.vpo_count)).toBe(3);
    expect(list.VPOS[0]).toMatchObject({
      serialNumber: t.serial,
      PlacaVeiculo: t.plate,
      CpfCnpjEmbarcador: SHIPPER_DOC,
      ValorTotalVP: 1234.56,
      Status: 'EMITIDO',
    });
    expect(await vpos(other)).toMatchObject({ VPOS: [], Paginacao: { TotalPaginas: 0 } });

    const patched = await send('PATCH', `/api/parceiro/vpos/${body.externalId}`, shipper.key, { Status: 'EM_VIAGEM' });
    expect(patched.statusCode, patched.body).toBe(200);
    const mine = (await vpos(d, '?sort=valor&direction=desc')).VPOS;
    expect(mine.filter((v) => v.Status === 'EM_VIAGEM')).toHaveLength(1);
    expect(mine.find((v) => v.IdTransacao === json<{ id: string }>(first).id)?.Status).toBe('EM_VIAGEM');
    expectError(
      await send('PATCH', `/api/parceiro/vpos/${concurrentBody.externalId}`, rival.key, { Status: 'CANCELADO' }),
      404,
      serverMessages.partner.vpoNotFound,
    );
    expectError(
      await send('PATCH', `/api/parceiro/vpos/${body.externalId}`, shipper.key, { Status: 'PERDIDO' }),
      422,
      messages.partner.statusInvalid,
    );
    expect((await vpos(d)).VPOS.filter((v) => v.Status === 'CANCELADO')).toHaveLength(0);
  });

  it('refuses bad VPOs with 422 and changes nothing', async () => {
    const d = await registerDriver(app());
    const t = await activeTag(app(), d);
    const shipper = await partner('shipper');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ValorTotalVP: 0 }, 'ValorTotalVP', messages.partner.valueInvalid],
      [{ ValorTotalVP: 10.001 }, 'ValorTotalVP', messages.partner.valueInvalid],
      [{ ValorTotalVP: '10' }, 'ValorTotalVP', messages.partner.valueInvalid],
      [{ CpfCnpjEmbarcador: '11111111111' }, 'CpfCnpjEmbarcador', messages.partner.shipperDocumentInvalid],
      [{ PlacaVeiculo: 'XX' }, 'PlacaVeiculo', messages.partner.plateInvalid],
      [{ Status: 'QUALQUER' }, 'Status', messages.partner.statusInvalid],
      [{ Status: 'CANCELADO' }, 'Status', messages.partner.statusOnIssue],
      [{ externalId: '' }, 'externalId', messages.partner.externalIdRequired],
      [{ serialNumber: '9999999999999999' }, 'serialNumber', serverMessages.partner.vpoTagNotFound],
      [{ PlacaVeiculo: newPlate() }, 'PlacaVeiculo', serverMessages.partner.vpoTagNotFound],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await send('POST', '/api/parceiro/vpos', shipper.key, vpoBody(t, overrides));
      expectError(res, 422);
      expect(json<{ errors: Record<string, string[]> }>(res).errors[field], JSON.stringify(overrides)).toEqual([message]);
    }
    expect((await vpos(d)).VPOS).toEqual([]);
    // A refusal is not remembered: the partner may fix the body and send that externalId again.
    expect(await ctx().db.kysely.selectFrom('partner_pushes').select('external_id').where('partner_id', '=', shipper.id).execute()).toEqual(
      [],
    );
  });

  it('passages debit the own (or third) balance without a guard, once per externalId, and show on the statement', async () => {
    const d = await registerDriver(app());
    const other = await registerDriver(app());
    const t = await activeTag(app(), d, { Operadora: SEMPARAR });
    const operator = await partner('operator');
    const at = saoPaulo(120);
    const body = passageBody(t.serial, { value: 45.9, occurredAt: at.local });
    const first = await send('POST', '/api/parceiro/passagens', operator.key, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first)).toMatchObject({ Sucesso: true, Mensagem: serverMessages.partner.passageRecorded, duplicate: false });
    expectReplay(await send('POST', '/api/parceiro/passagens', operator.key, body), first);
    const concurrent = passageBody(t.serial, { value: 10, is_third: true, placeName: 'Praça Jundiaí', occurredAt: saoPaulo(60).local });
    const all = await Promise.all(Array.from({ length: 8 }, () => send('POST', '/api/parceiro/passagens', operator.key, concurrent)));
    expect(all.every((r) => r.statusCode === 200)).toBe(true);
    expect(new Set(all.map((r) => r.body)).size).toBe(1);
    expect(all.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);

    expect(await balance(d)).toMatchObject({ Saldo: 38.2, SaldoTerceiro: -10 });
    const rows = await pushedRows(d);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      origin: STATEMENT_ORIGINS.passage,
      placeName: 'Praça Jundiaí',
      value: -10,
      is_third: true,
      user_transaction: false,
    });
    expect(rows[1]).toMatchObject({ placeName: 'Praça Itupeva', value: -45.9, is_third: false, created_at: at.utc });
    expect(await statement(other)).toEqual([]);

    for (const overrides of [
      { value: -1 },
      { value: 1.234 },
      { occurredAt: 'ontem' },
      { placeName: '' },
      { serialNumber: '1234123412341234' },
    ]) {
      expectError(await send('POST', '/api/parceiro/passagens', operator.key, passageBody(t.serial, overrides)), 422);
    }
    expect(await pushedRows(d)).toHaveLength(2);
    await expectLedgerInvariant(ctx().db);
  });

  it('platform movements credit and debit SaldoTerceiro once; an unknown driver is a 404; the ledger stays balanced', async () => {
    const d = await registerDriver(app());
    const t = await activeTag(app(), d, { Operadora: SEMPARAR });
    const platform = await partner('platform');
    const operator = await partner('operator');
    const credit = movementBody(d, { value: 80, occurredAt: saoPaulo(50).utc });
    const firstCredit = await send('POST', '/api/parceiro/terceiro/movimentos', platform.key, credit);
    expect(json(firstCredit)).toMatchObject({ Sucesso: true, Mensagem: serverMessages.partner.movementRecorded, duplicate: false });
    const debit = movementBody(d, {
      origin: STATEMENT_ORIGINS.thirdPartyDebit,
      value: 30.25,
      placeName: undefined,
      occurredAt: saoPaulo(40).utc,
    });
    const all = await Promise.all(Array.from({ length: 5 }, () => send('POST', '/api/parceiro/terceiro/movimentos', platform.key, debit)));
    expect(all.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expectReplay(await send('POST', '/api/parceiro/terceiro/movimentos', platform.key, credit), firstCredit);
    // The same externalId from an operator is another partner's id: its own passage.
    await send(
      'POST',
      '/api/parceiro/passagens',
      operator.key,
      passageBody(t.serial, { externalId: credit.externalId, value: 200, occurredAt: saoPaulo(30).local }),
    );
    expect(await balance(d)).toMatchObject({ Saldo: -115.9, SaldoTerceiro: 49.75 });
    const rows = await pushedRows(d);
    expect(rows.map((r) => [r.origin, r.value, r.is_third])).toEqual([
      [STATEMENT_ORIGINS.passage, -200, false],
      [STATEMENT_ORIGINS.thirdPartyDebit, -30.25, true],
      [STATEMENT_ORIGINS.thirdPartyCredit, 80, true],
    ]);
    expectError(
      await send('POST', '/api/parceiro/terceiro/movimentos', platform.key, movementBody(d, { cpfCnpj: '52998224725' })),
      404,
      messages.partner.driverUnknown,
    );
    for (const overrides of [{ origin: 'passagem' }, { value: 0 }, { occurredAt: '2026-03-02' }, { externalId: 7 }]) {
      expectError(await send('POST', '/api/parceiro/terceiro/movimentos', platform.key, movementBody(d, overrides)), 422);
    }
    expect(await pushedRows(d)).toHaveLength(3);
    await expectLedgerInvariant(ctx().db);
  });

  describe('o mesmo externalId (issue 8, ponto 8)', () => {
    /** Each kind of push: its URL, key, a body, variants that are the same request, and variants that are another. */
    const kinds = async () => {
      const d = await registerDriver(app());
      const t = await activeTag(app(), d, { Operadora: SEMPARAR });
      const other = await activeTag(app(), d, { Operadora: SEMPARAR });
      const effects = {
        vpo: async () =>
          Number(
            (
              await ctx()
                .db.kysely.selectFrom('vpos')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('driver_id', '=', d.id)
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ledger: async () => (await pushedRows(d)).length,
      };
      const at = saoPaulo(45);
      const spaced = `${t.serial.slice(0, 4)} ${t.serial.slice(4, 8)} ${t.serial.slice(8)}`;
      return {
        d,
        effects,
        cases: [
          {
            name: 'VPO',
            url: '/api/parceiro/vpos',
            key: (await partner('shipper')).key,
            body: vpoBody(t),
            same: [{ serialNumber: spaced }, { PlacaVeiculo: t.plate.toLowerCase() }, { Status: 'EMITIDO' }],
            different: [{ ValorTotalVP: 350.51 }, { serialNumber: other.serial, PlacaVeiculo: other.plate }, { destino: 'Jundiaí/SP' }],
            count: effects.vpo,
          },
          {
            name: 'passagem',
            url: '/api/parceiro/passagens',
            key: (await partner('operator')).key,
            body: passageBody(t.serial, { occurredAt: at.local }),
            same: [{ serialNumber: spaced }, { occurredAt: at.utc }],
            different: [
              { value: 12.31 },
              { serialNumber: other.serial },
              { is_third: true },
              { placeName: 'Praça Jundiaí' },
              { occurredAt: saoPaulo(46).local },
            ],
            count: effects.ledger,
          },
          {
            name: 'movimento',
            url: '/api/parceiro/terceiro/movimentos',
            key: (await partner('platform')).key,
            body: movementBody(d, { occurredAt: at.utc }),
            same: [{ cpfCnpj: cpf.format(d.cpfCnpj) }, { occurredAt: at.local }],
            different: [{ value: 80.01 }, { origin: STATEMENT_ORIGINS.thirdPartyDebit }, { placeName: 'Outra' }],
            count: effects.ledger,
          },
        ],
      };
    };

    it('the same request again (and the same in other words) gets the first answer; another request with that externalId is a 409 and changes nothing', async () => {
      const { d, cases } = await kinds();
      for (const c of cases) {
        const before = await c.count();
        const first = await send('POST', c.url, c.key, c.body);
        expect(first.statusCode, `${c.name}: ${first.body}`).toBeLessThan(300);
        expect(await c.count(), c.name).toBe(before + 1);
        expectReplay(await send('POST', c.url, c.key, c.body), first);
        for (const variant of c.same) expectReplay(await send('POST', c.url, c.key, { ...c.body, ...variant }), first);
        const balances = await balance(d);
        for (const variant of c.different) {
          const res = await send('POST', c.url, c.key, { ...c.body, ...variant });
          expect(res.statusCode, `${c.name} ${JSON.stringify(variant)}: ${res.body}`).toBe(409);
          expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.partner.externalIdConflict });
        }
        expect(await c.count(), c.name).toBe(before + 1);
        expect(await balance(d)).toEqual(balances);
        // Still the first answer afterwards.
        expectReplay(await send('POST', c.url, c.key, c.body), first);
      }
      await expectLedgerInvariant(ctx().db);
    });

    it('concurrent twins end with one effect and one answer; a concurrent different request is a 409', async () => {
      const { d, cases } = await kinds();
      for (const c of cases) {
        const before = await c.count();
        const twins = await Promise.all(Array.from({ length: 6 }, () => send('POST', c.url, c.key, c.body)));
        expect(new Set(twins.map((r) => `${r.statusCode} ${r.body}`)).size, c.name).toBe(1);
        expect(
          twins.filter((r) => r.headers['idempotent-replayed'] === undefined),
          c.name,
        ).toHaveLength(1);
        expect(await c.count(), c.name).toBe(before + 1);

        const fresh = { ...c.body, externalId: `${c.body.externalId}-b` };
        const variant = c.different[0] ?? {};
        const mixed = await Promise.all(
          [0, 1, 2, 3].map((i) => send('POST', c.url, c.key, i % 2 === 0 ? fresh : { ...fresh, ...variant })),
        );
        // Whichever came first wins; the other body is refused, never applied.
        const statuses = mixed.map((r) => r.statusCode).sort();
        expect(
          statuses.filter((s) => s === 409),
          `${c.name}: ${statuses.join(',')}`,
        ).toHaveLength(2);
        expect(await c.count(), c.name).toBe(before + 2);
      }
      await expectLedgerInvariant(ctx().db);
      expect((await pushedRows(d)).length).toBe(4);
    });
  });

  it('sorts VPOs on the server across pages by each column and direction, ties by id', async () => {
    const d = await registerDriver(app());
    const shipper = await partner('shipper');
    const n = 27;
    const rows = Array.from({ length: n }, (_, i) => ({
      driver_id: d.id,
      partner_id: shipper.id,
      external_id: `sort-${i}`,
      serial_number: '7000000000000001',
      plate: `ABC${String(i % 5)}D${String(10 + (i % 7))}`,
      shipper_document: SHIPPER_DOC,
      value_cents: 100 * ((i * 7) % 11) + 1,
      status: 'EMITIDO',
      origin: null,
      destination: null,
      created_at: new Date(Date.UTC(2026, 0, 1 + (i % 9), i)).toISOString(),
      updated_at: new Date().toISOString(),
    }));
    await ctx().db.kysely.insertInto('vpos').values(rows).execute();
    await ctx().db.kysely.insertInto('driver_vpo_counters').values({ driver_id: d.id, vpo_count: n }).execute();
    const keyOf = {
      valor: (v: VpoRow) => v.ValorTotalVP,
      placa: (v: VpoRow) => v.PlacaVeiculo,
      data: (v: VpoRow) => Date.parse(v.created_at),
    };
    for (const sort of VPO_SORT_FIELDS) {
      for (const direction of SORT_DIRECTIONS) {
        const seen: VpoRow[] = [];
        for (let page = 1; page <= 3; page++) {
          const res = await vpos(d, `?page=${page}&sort=${sort}&direction=${direction}`);
          expect(res.Paginacao.TotalPaginas).toBe(3);
          expect(res.VPOS).toHaveLength(page < 3 ? 10 : 7);
          seen.push(...res.VPOS);
        }
        const sign = direction === 'asc' ? 1 : -1;
        const key = keyOf[sort];
        const expected = [...seen].sort((a, b) => {
          const ka = key(a);
          const kb = key(b);
          const byKey = ka < kb ? -1 : ka > kb ? 1 : 0;
          return sign * (byKey || Number(a.IdTransacao) - Number(b.IdTransacao));
        });
        expect(
          seen.map((v) => v.IdTransacao),
          `${sort} ${direction}`,
        ).toEqual(expected.map((v) => v.IdTransacao));
        expect(new Set(seen.map((v) => v.IdTransacao)).size).toBe(n);
      }
    }
    // Invalid values fall back to the defaults (data, desc); past the end is an empty page.
    const fallback = await vpos(d, '?sort=cor&direction=lado&page=abc');
    expect(fallback.VPOS.map((v) => v.IdTransacao)).toEqual((await vpos(d, '?sort=data&direction=desc')).VPOS.map((v) => v.IdTransacao));
    expect((await vpos(d, '?page=4')).VPOS).toEqual([]);
  });
});
