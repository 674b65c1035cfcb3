import { cnpj } from 'cpf-cnpj-validator';
import type { PartnerKind } from '@portal/domain';
import { messages, STATEMENT_ORIGINS, VPO_SORT_FIELDS, SORT_DIRECTIONS } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { PartnerService } from '../src/modules/partners/service.js';
import { bearer, json, registerDriver, useTestApp } from './helpers/app.js';
import type { Registered } from './helpers/app.js';
import { describeEachDatabase } from './helpers/databases.js';
import { expectLedgerInvariant } from './helpers/pix.js';
import { newPlate, registerTag } from './helpers/tags.js';

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
  const partner = async (kind: PartnerKind) => service().create(kind, `Parceiro ${kind}`);
  const send = (method: 'POST' | 'PATCH', url: string, key: string | null, payload: Record<string, unknown>) =>
    app().inject({ method, url, payload, headers: key === null ? {} : { 'x-api-key': key } });
  const balance = async (d: Registered) =>
    json<Balance>(await app().inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) }));
  const statement = async (d: Registered) =>
    json<{ Transacoes: Tx[] }>(await app().inject({ method: 'GET', url: '/api/extrato/listar', headers: bearer(d.token) })).Transacoes;
  const vpos = async (d: Registered, query = '') => {
    const res = await app().inject({ method: 'GET', url: `/api/pedagio/motoristaVpos${query}`, headers: bearer(d.token) });
    expect(res.statusCode, res.body).toBe(200);
    return json<VpoPage>(res);
  };
  const vpoBody = (serial: string, overrides: Record<string, unknown> = {}) => ({
    externalId: `vpo-${Math.random().toString(36).slice(2)}`,
    serialNumber: serial,
    PlacaVeiculo: newPlate(),
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
    occurredAt: '2026-03-01T10:00:00-03:00',
    is_third: false,
    ...overrides,
  });
  const movementBody = (d: Registered, overrides: Record<string, unknown> = {}) => ({
    externalId: `mov-${Math.random().toString(36).slice(2)}`,
    cpfCnpj: d.cpfCnpj,
    origin: STATEMENT_ORIGINS.thirdPartyCredit,
    value: 80,
    placeName: 'MoveMais',
    occurredAt: '2026-03-02T09:00:00Z',
    ...overrides,
  });
  const expectError = (res: LightMyRequestResponse, status: number, message?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(json(res)).toMatchObject({ Sucesso: false, ...(message ? { Mensagem: message } : {}) });
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
      ['/api/parceiro/vpos', vpoBody(t.serial), shipper.key],
      ['/api/parceiro/passagens', passageBody(t.serial), operator.key],
      ['/api/parceiro/terceiro/movimentos', movementBody(d), platform.key],
    ];
    for (const [url, body, rightKey] of routes) {
      expectError(await send('POST', url, null, body), 401, messages.partner.keyMissing);
      expectError(await send('POST', url, `pm_${'x'.repeat(43)}`, body), 401, messages.partner.keyInvalid);
      expectError(await send('POST', url, revoked.key, body), 401, messages.partner.keyInvalid);
      for (const other of [shipper.key, operator.key, platform.key].filter((k) => k !== rightKey)) {
        expectError(await send('POST', url, other, body), 403, messages.partner.wrongKind);
      }
    }
    expectError(await send('PATCH', '/api/parceiro/vpos/x', operator.key, { Status: 'ENCERRADO' }), 403);
    expect(await vpos(d)).toMatchObject({ VPOS: [], Paginacao: { TotalPaginas: 0 } });
    expect(await balance(d)).toMatchObject({ Saldo: 0, SaldoTerceiro: 0 });
    const logs = ctx().logs.join('\n');
    for (const key of [shipper.key, operator.key, platform.key, revoked.key]) expect(logs).not.toContain(key);
  });

  it('a shipper issues a VPO once (sequential and concurrent duplicates), updates only its own, and only the driver sees it', async () => {
    const d = await registerDriver(app());
    const other = await registerDriver(app());
    const t = await registerTag(app(), d);
    const shipper = await partner('shipper');
    const rival = await partner('shipper');
    const body = vpoBody(` ${t.serial.slice(0, 4)} ${t.serial.slice(4)}`, { ValorTotalVP: 1234.56 });
    const first = await send('POST', '/api/parceiro/vpos', shipper.key, body);
    expect(first.statusCode, first.body).toBe(201);
    expect(json(first)).toMatchObject({ Sucesso: true, Mensagem: messages.partner.vpoIssued, duplicate: false });
    const again = await send('POST', '/api/parceiro/vpos', shipper.key, { ...body, ValorTotalVP: 1 });
    expect(again.statusCode).toBe(200);
    expect(json(again)).toMatchObject({ duplicate: true, id: json<{ id: string }>(first).id });
    const concurrentBody = vpoBody(t.serial);
    const all = await Promise.all(Array.from({ length: 6 }, () => send('POST', '/api/parceiro/vpos', shipper.key, concurrentBody)));
    expect(all.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(all.map((r) => json<{ id: string }>(r).id)).size).toBe(1);
    // Another shipper may use the same externalId for its own VPO.
    expect((await send('POST', '/api/parceiro/vpos', rival.key, body)).statusCode).toBe(201);

    const list = await vpos(d, '?sort=valor&direction=desc');
    expect(list).toMatchObject({ Sucesso: true, Mensagem: messages.vpo.ok, Paginacao: { TotalPaginas: 1 } });
    expect(list.VPOS).toHaveLength(3);
    const counter = await ctx().db.kysely.selectFrom('driver_vpo_counters').select('vpo_count').where('driver_id', '=', d.id).executeTakeFirst();
    expect(Number(counter?.vpo_count)).toBe(3);
    expect(list.VPOS[0]).toMatchObject({
      serialNumber: t.serial,
      PlacaVeiculo: body.PlacaVeiculo,
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
    expectError(await send('PATCH', `/api/parceiro/vpos/${concurrentBody.externalId}`, rival.key, { Status: 'CANCELADO' }), 404, messages.partner.vpoNotFound);
    expectError(await send('PATCH', `/api/parceiro/vpos/${body.externalId}`, shipper.key, { Status: 'PERDIDO' }), 422, messages.partner.statusInvalid);
    expect((await vpos(d)).VPOS.filter((v) => v.Status === 'CANCELADO')).toHaveLength(0);
  });

  it('refuses bad VPOs with 422 and changes nothing', async () => {
    const d = await registerDriver(app());
    const t = await registerTag(app(), d);
    const shipper = await partner('shipper');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ValorTotalVP: 0 }, 'ValorTotalVP', messages.partner.valueInvalid],
      [{ ValorTotalVP: 10.001 }, 'ValorTotalVP', messages.partner.valueInvalid],
      [{ ValorTotalVP: '10' }, 'ValorTotalVP', messages.partner.valueInvalid],
      [{ CpfCnpjEmbarcador: '11111111111' }, 'CpfCnpjEmbarcador', messages.partner.shipperDocumentInvalid],
      [{ PlacaVeiculo: 'XX' }, 'PlacaVeiculo', messages.partner.plateInvalid],
      [{ Status: 'QUALQUER' }, 'Status', messages.partner.statusInvalid],
      [{ externalId: '' }, 'externalId', messages.partner.externalIdRequired],
      [{ serialNumber: '9999999999999999' }, 'serialNumber', messages.partner.serialUnknown],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await send('POST', '/api/parceiro/vpos', shipper.key, vpoBody(t.serial, overrides));
      expectError(res, 422);
      expect(json<{ errors: Record<string, string[]> }>(res).errors[field], JSON.stringify(overrides)).toEqual([message]);
    }
    expect((await vpos(d)).VPOS).toEqual([]);
  });

  it('passages debit the own (or third) balance without a guard, once per externalId, and show on the statement', async () => {
    const d = await registerDriver(app());
    const other = await registerDriver(app());
    const t = await registerTag(app(), d);
    const operator = await partner('operator');
    const body = passageBody(t.serial, { value: 45.9 });
    const first = await send('POST', '/api/parceiro/passagens', operator.key, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first)).toMatchObject({ Sucesso: true, Mensagem: messages.partner.passageRecorded, duplicate: false });
    expect(json(await send('POST', '/api/parceiro/passagens', operator.key, body))).toMatchObject({ duplicate: true });
    const concurrent = passageBody(t.serial, { value: 10, is_third: true, placeName: 'Praça Jundiaí' });
    const all = await Promise.all(Array.from({ length: 8 }, () => send('POST', '/api/parceiro/passagens', operator.key, concurrent)));
    expect(all.every((r) => r.statusCode === 200)).toBe(true);
    expect(all.filter((r) => !json<{ duplicate: boolean }>(r).duplicate)).toHaveLength(1);

    expect(await balance(d)).toMatchObject({ Saldo: -45.9, SaldoTerceiro: -10 });
    const rows = await statement(d);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ origin: STATEMENT_ORIGINS.passage, placeName: 'Praça Jundiaí', value: -10, is_third: true, user_transaction: false });
    expect(rows[1]).toMatchObject({ placeName: 'Praça Itupeva', value: -45.9, is_third: false, created_at: '2026-03-01T13:00:00.000Z' });
    expect(await statement(other)).toEqual([]);

    for (const overrides of [{ value: -1 }, { value: 1.234 }, { occurredAt: 'ontem' }, { placeName: '' }, { serialNumber: '1234123412341234' }]) {
      expectError(await send('POST', '/api/parceiro/passagens', operator.key, passageBody(t.serial, overrides)), 422);
    }
    expect(await statement(d)).toHaveLength(2);
    await expectLedgerInvariant(ctx().db);
  });

  it('platform movements credit and debit SaldoTerceiro once; an unknown driver is a 404; the ledger stays balanced', async () => {
    const d = await registerDriver(app());
    const t = await registerTag(app(), d);
    const platform = await partner('platform');
    const operator = await partner('operator');
    const credit = movementBody(d, { value: 80 });
    expect(json(await send('POST', '/api/parceiro/terceiro/movimentos', platform.key, credit))).toMatchObject({ duplicate: false });
    const debit = movementBody(d, { origin: STATEMENT_ORIGINS.thirdPartyDebit, value: 30.25, placeName: undefined });
    const all = await Promise.all(Array.from({ length: 5 }, () => send('POST', '/api/parceiro/terceiro/movimentos', platform.key, debit)));
    expect(all.filter((r) => !json<{ duplicate: boolean }>(r).duplicate)).toHaveLength(1);
    expect(json(await send('POST', '/api/parceiro/terceiro/movimentos', platform.key, credit))).toMatchObject({ duplicate: true });
    // The same externalId from an operator is another partner's id: its own passage.
    await send('POST', '/api/parceiro/passagens', operator.key, passageBody(t.serial, { externalId: credit.externalId, value: 200 }));
    expect(await balance(d)).toMatchObject({ Saldo: -200, SaldoTerceiro: 49.75 });
    const rows = await statement(d);
    expect(rows.map((r) => [r.origin, r.value, r.is_third])).toEqual([
      [STATEMENT_ORIGINS.passage, -200, false],
      [STATEMENT_ORIGINS.thirdPartyDebit, -30.25, true],
      [STATEMENT_ORIGINS.thirdPartyCredit, 80, true],
    ]);
    expectError(await send('POST', '/api/parceiro/terceiro/movimentos', platform.key, movementBody(d, { cpfCnpj: '52998224725' })), 404, messages.partner.driverUnknown);
    for (const overrides of [{ origin: 'passagem' }, { value: 0 }, { occurredAt: '2026-03-02' }, { externalId: 7 }]) {
      expectError(await send('POST', '/api/parceiro/terceiro/movimentos', platform.key, movementBody(d, overrides)), 422);
    }
    expect(await statement(d)).toHaveLength(3);
    await expectLedgerInvariant(ctx().db);
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
    const keyOf = { valor: (v: VpoRow) => v.ValorTotalVP, placa: (v: VpoRow) => v.PlacaVeiculo, data: (v: VpoRow) => Date.parse(v.created_at) };
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
        expect(seen.map((v) => v.IdTransacao), `${sort} ${direction}`).toEqual(expected.map((v) => v.IdTransacao));
        expect(new Set(seen.map((v) => v.IdTransacao)).size).toBe(n);
      }
    }
    // Invalid values fall back to the defaults (data, desc); past the end is an empty page.
    const fallback = await vpos(d, '?sort=cor&direction=lado&page=abc');
    expect(fallback.VPOS.map((v) => v.IdTransacao)).toEqual((await vpos(d, '?sort=data&direction=desc')).VPOS.map((v) => v.IdTransacao));
    expect((await vpos(d, '?page=4')).VPOS).toEqual([]);
  });
});
