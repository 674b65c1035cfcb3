import type { Contest, FreeFlowToll, FreeFlowTollsResponse, PartnerTollBatchResponse, PartnerTollPaymentsResponse } from '@portal/contract';
import { IDEMPOTENT_REPLAYED_HEADER } from '@portal/contract';
import { freeFlowMessages, saoPauloDay, serverMessages, STATEMENT_ORIGINS } from '@portal/domain';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { bearer, json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { expectLedgerInvariant } from '../../helpers/pix.js';
import { DAY, expectVpoInvariants, minutes, spAt, useVpoApp } from '../../helpers/vpos.js';
import type { VpoDriver } from '../../helpers/vpos.js';
import { PartnerService } from '../../../src/modules/partners/service.js';
import { createPartner } from '../../../src/cli/partners.js';
import { FreeFlowService } from '../../../src/modules/passages/free-flow/service.js';
import { accountId, post } from '../../../src/modules/ledger/ledger.js';

/** Issue 36 / decision 76: tolls owed by plate on free-flow highways, paid once before they become fines. */
describeEachDatabase('Pedágios sem cancela', (dialect) => {
  const t = useVpoApp(dialect);
  const SALDO = 8_410;
  let seq = 0;

  const freeFlow = () => new FreeFlowService(t.db(), t.app().log);
  const concessionaire = (name = `RioSP ${(seq += 1)}`) => new PartnerService(t.db()).create('concessionaire', name);
  const tollBody = (placa: string, overrides: Record<string, unknown> = {}) => ({
    externalId: `lp-${randomUUID()}`,
    placa,
    portico: 'Pórtico Arujá',
    rodovia: 'BR-116',
    km: 204.5,
    sentido: 'São Paulo',
    eixos: 3,
    valor: 12.75,
    occurredAt: spAt(-minutes(30)),
    ...overrides,
  });
  const push = (key: string, body: Record<string, unknown>) =>
    t.app().inject({ method: 'POST', url: '/api/parceiro/livre-passagem', headers: { 'x-api-key': key }, payload: body });
  const choose = (d: VpoDriver, body: Record<string, unknown>) =>
    t.app().inject({ method: 'POST', url: '/api/livre-passagem/placas', headers: bearer(d.token), payload: body });
  async function vehicleId(d: VpoDriver): Promise<number> {
    const row = await t.db().kysely.selectFrom('vehicles').select('id').where('driver_id', '=', d.id).executeTakeFirstOrThrow();
    return row.id;
  }
  async function optIn(d: VpoDriver, automatico = false): Promise<void> {
    const res = await choose(d, { veiculoId: await vehicleId(d), ativo: true, automatico });
    expect(res.statusCode, res.body).toBe(200);
  }
  async function tolls(d: VpoDriver, query = ''): Promise<FreeFlowTollsResponse> {
    const res = await t.get(d, `/api/livre-passagem?page=1${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return json<FreeFlowTollsResponse>(res);
  }
  async function only(d: VpoDriver): Promise<FreeFlowToll> {
    const [toll] = (await tolls(d)).Debitos;
    if (!toll) throw new Error('nenhum pedágio sem cancela');
    return toll;
  }
  const pay = (d: VpoDriver, id: number, key = randomUUID()) =>
    t.app().inject({ method: 'POST', url: `/api/livre-passagem/${id}/pagar`, headers: { ...bearer(d.token), 'idempotency-key': key } });
  const withdraw = (key: string, externalId: string) =>
    t.app().inject({ method: 'DELETE', url: `/api/parceiro/livre-passagem/${externalId}`, headers: { 'x-api-key': key } });
  /** Money into the driver's Saldo as a Pix purchase credits it. */
  async function credit(d: VpoDriver, cents: number): Promise<void> {
    await t
      .db()
      .kysely.transaction()
      .execute(async (trx) => {
        await post(trx, {
          accountId: await accountId(trx, d.id, 'own'),
          amountCents: cents,
          origin: STATEMENT_ORIGINS.pixPurchase,
          placeName: 'Compra de saldo via Pix',
          idempotencyKey: `teste:${randomUUID()}`,
        });
      });
  }

  async function expectBooksBalance(): Promise<void> {
    await expectLedgerInvariant(t.db());
    await expectVpoInvariants(t.db());
    // Each driver's totals are what their tolls add up to.
    const totals = await t.db().kysely.selectFrom('free_flow_driver_totals').selectAll().execute();
    for (const row of totals) {
      const tolls = await t.db().kysely.selectFrom('free_flow_tolls').selectAll().where('driver_id', '=', row.driver_id).execute();
      const open = tolls.filter((x) => x.paid_at === null && x.cancelled_at === null);
      expect([row.tolls, row.open_tolls, Number(row.open_cents), row.open_flagged].map(Number)).toEqual([
        tolls.length,
        open.length,
        open.reduce((sum, x) => sum + Number(x.amount_cents), 0),
        open.filter((x) => x.flag !== null).length,
      ]);
    }
  }

  it('the same answer whether or not the plate is a driver of the portal; nothing kept for a plate not opted in; idempotent on externalId', async () => {
    const c = await concessionaire();
    const d = await t.driver();
    const unknown = tollBody('XYZ1A23');
    const notOptedIn = tollBody(d.tag.plate);
    const a = await push(c.key, unknown);
    const b = await push(c.key, notOptedIn);
    expect(a.statusCode, a.body).toBe(202);
    expect(b.statusCode, b.body).toBe(202);
    const bodyA = json<{ Sucesso: boolean; Mensagem: string; id: string }>(a);
    const bodyB = json<{ Sucesso: boolean; Mensagem: string; id: string }>(b);
    expect(Object.keys(bodyA).sort()).toEqual(Object.keys(bodyB).sort());
    expect(bodyA.Mensagem).toBe(bodyB.Mensagem);
    expect(bodyA.id).toMatch(/^LP-[A-Za-z0-9_-]{22}$/);
    expect(await t.db().kysely.selectFrom('free_flow_tolls').select('id').execute()).toEqual([]);
    // Not even the plate in the clear: the push row holds a keyed hash.
    const stored = await t.db().kysely.selectFrom('partner_pushes').selectAll().where('kind', '=', 'toll').execute();
    expect(JSON.stringify(stored)).not.toContain('XYZ1A23');

    await optIn(d);
    const kept = tollBody(d.tag.plate);
    const c1 = await push(c.key, kept);
    expect(c1.statusCode, c1.body).toBe(202);
    expect(Object.keys(json<object>(c1)).sort()).toEqual(Object.keys(bodyA).sort());
    const again = await push(c.key, kept);
    expect(again.statusCode).toBe(202);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBe('true');
    expect(json<object>(again)).toEqual(json<object>(c1));
    const other = await push(c.key, { ...kept, valor: 99 });
    expect(other.statusCode).toBe(409);
    expect(json<{ Mensagem: string }>(other).Mensagem).toBe(serverMessages.partner.externalIdConflict);
    expect((await tolls(d)).Debitos).toHaveLength(1);

    // Only a concessionaire's key: an operator's is refused.
    const operator = await t.operator();
    expect((await push(operator.key, tollBody(d.tag.plate))).statusCode).toBe(403);
    // Bad input: a Portuguese message on the field, nothing kept.
    const bad = await push(c.key, tollBody(d.tag.plate, { placa: '12', eixos: 1, km: -1 }));
    expect(bad.statusCode).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(bad).errors).toMatchObject({
      placa: expect.any(Array),
      eixos: [freeFlowMessages.axlesInvalid],
      km: [freeFlowMessages.kmInvalid],
    });
    expect((await tolls(d)).Debitos).toHaveLength(1);
  });

  it('partner:create --kind concessionaria makes a key that pushes tolls', async () => {
    const out = await createPartner(t.db(), ['--kind', 'concessionaria', '--name', 'RioSP']);
    const key = out.split('\n').at(-1) ?? '';
    expect(out).toContain('(concessionaire)');
    const d = await t.driver();
    expect((await push(key, tollBody(d.tag.plate))).statusCode).toBe(202);
  });

  it('a batch answers each toll as the single call would, in order', async () => {
    const c = await concessionaire();
    const d = await t.driver();
    await optIn(d);
    const first = tollBody(d.tag.plate);
    expect((await push(c.key, first)).statusCode).toBe(202);
    const items = [first, { ...first, valor: 1 }, tollBody('ABC1D23'), tollBody(d.tag.plate), { externalId: 'x', placa: 'no' }];
    const res = await t.app().inject({
      method: 'POST',
      url: '/api/parceiro/livre-passagem/lote',
      headers: { 'x-api-key': c.key },
      payload: { debitos: items },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = json<PartnerTollBatchResponse>(res);
    expect(body.Itens.map((i) => [i.resultado, i.status])).toEqual([
      ['REPETIDA', 202],
      ['RECUSADA', 409],
      ['ACEITA', 202],
      ['ACEITA', 202],
      ['RECUSADA', 422],
    ]);
    expect([body.Aceitas, body.Repetidas, body.Recusadas]).toEqual([2, 1, 2]);
    expect((await tolls(d)).Debitos).toHaveLength(2);
  });

  it('paid once from Saldo with two taps at once: a statement row of its own, a receipt, the concessionaire sees its payment', async () => {
    const c = await concessionaire();
    const other = await concessionaire();
    const d = await t.driver();
    await optIn(d);
    const body = tollBody(d.tag.plate);
    await push(c.key, body);
    const toll = await only(d);
    expect(toll).toMatchObject({ estado: 'EM_ABERTO', valor: 12.75, sinalizacao: null, pagoEm: null });
    const [a, b] = await Promise.all([pay(d, toll.id), pay(d, toll.id)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(await t.accounts(d)).toEqual({ own: SALDO - 1_275, third: 0, vpo: 0 });
    const paid = await only(d);
    expect(paid).toMatchObject({ estado: 'PAGO', pagoPor: 'SALDO' });
    expect(paid.autenticacao).toMatch(/^[A-Z2-9]{5}(-[A-Z2-9]{5}){3}$/);
    const rows = (await t.statement(d)).filter((r) => r.origin === STATEMENT_ORIGINS.freeFlowToll);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.value).toBe(-12.75);

    const list = async (key: string) => {
      const res = await t.app().inject({ method: 'GET', url: '/api/parceiro/livre-passagem/pagamentos', headers: { 'x-api-key': key } });
      expect(res.statusCode, res.body).toBe(200);
      return json<PartnerTollPaymentsResponse>(res).Pagamentos;
    };
    expect(await list(c.key)).toEqual([
      { externalId: body.externalId, placa: d.tag.plate, valor: 12.75, pagoEm: paid.pagoEm, comprovante: paid.autenticacao },
    ]);
    expect(await list(other.key)).toEqual([]);
    await expectBooksBalance();
  });

  it('withdrawn before payment: nothing to pay; after payment: the money back once, however many times it is withdrawn', async () => {
    const c = await concessionaire();
    const d = await t.driver();
    await optIn(d);
    const early = tollBody(d.tag.plate);
    await push(c.key, early);
    expect((await withdraw(c.key, early.externalId)).statusCode).toBe(200);
    const cancelled = await only(d);
    expect(cancelled.estado).toBe('CANCELADO');
    expect((await pay(d, cancelled.id)).statusCode).toBe(409);

    const late = tollBody(d.tag.plate, { portico: 'Pórtico Guarulhos' });
    await push(c.key, late);
    const toll = (await tolls(d, '&estado=EM_ABERTO')).Debitos[0];
    expect((await pay(d, toll?.id ?? 0)).statusCode).toBe(200);
    expect(await t.accounts(d)).toEqual({ own: SALDO - 1_275, third: 0, vpo: 0 });
    const [w1, w2] = await Promise.all([withdraw(c.key, late.externalId), withdraw(c.key, late.externalId)]);
    expect([w1.statusCode, w2.statusCode]).toEqual([200, 200]);
    expect(await t.accounts(d)).toEqual({ own: SALDO, third: 0, vpo: 0 });
    expect((await withdraw(c.key, 'nunca-enviado')).statusCode).toBe(404);
    // Another concessionaire cannot withdraw it.
    const other = await concessionaire();
    expect((await withdraw(other.key, late.externalId)).statusCode).toBe(404);
    await expectBooksBalance();
  });

  it('a withdrawal racing a payment: the driver ends with the toll paid and given back, or never paid', async () => {
    const c = await concessionaire();
    const d = await t.driver();
    await optIn(d);
    for (let i = 0; i < 4; i++) {
      const body = tollBody(d.tag.plate);
      await push(c.key, body);
      const toll = (await tolls(d, '&estado=EM_ABERTO')).Debitos[0];
      await Promise.all([pay(d, toll?.id ?? 0), withdraw(c.key, body.externalId)]);
      expect(await t.accounts(d)).toEqual({ own: SALDO, third: 0, vpo: 0 });
    }
    await expectBooksBalance();
  });

  it('an automatic payment racing a manual one: paid once', async () => {
    const c = await concessionaire();
    const d = await t.driver();
    await optIn(d, true);
    for (let i = 0; i < 3; i++) {
      // More than Saldo: it waits for money; then money arrives while the driver taps 'Pagar'.
      await push(c.key, tollBody(d.tag.plate, { valor: 200, portico: `Pórtico ${i}` }));
      const waiting = (await tolls(d, '&estado=EM_ABERTO')).Debitos[0];
      expect(waiting).toMatchObject({ aguardandoSaldo: true });
      await credit(d, 20_000);
      const [, manual] = await Promise.all([freeFlow().payAwaiting(), pay(d, waiting?.id ?? 0)]);
      expect(manual.statusCode, manual.body).toBe(200);
      expect(await t.accounts(d)).toMatchObject({ own: SALDO });
    }
    const paid = (await t.statement(d)).filter((r) => r.origin === STATEMENT_ORIGINS.freeFlowToll);
    expect(paid).toHaveLength(3);
    await expectBooksBalance();
  });

  it('a VPO open for the vehicle trip pays first', async () => {
    const c = await concessionaire();
    const s = await t.shipper();
    const d = await t.driver();
    await optIn(d);
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 10 });
    await push(c.key, tollBody(d.tag.plate, { valor: 12.75, occurredAt: spAt(-minutes(1)) }));
    const toll = await only(d);
    const paid = await pay(d, toll.id);
    expect(paid.statusCode).toBe(200);
    // The answer says where the money came from, as the card's 'Pago com' does.
    expect(json<{ Mensagem: string }>(paid).Mensagem).toBe(
      'Pedágio sem cancela de R$\u00a012,75 pago pelo VPO da viagem e pelo seu Saldo. Guarde o comprovante.',
    );
    expect(await only(d)).toMatchObject({ pagoPor: 'VPO_E_SALDO' });
    expect((await t.vpoRow(vpo.id)).left).toBe(0);
    expect(await t.accounts(d)).toMatchObject({ own: SALDO - 275 });
    await expectBooksBalance();
  });

  it('paid automatically on arrival; when Saldo is short the driver is told and it is paid as soon as money arrives', async () => {
    const c = await concessionaire();
    const d = await t.driver();
    await optIn(d, true);
    await push(c.key, tollBody(d.tag.plate, { valor: 10 }));
    expect(await only(d)).toMatchObject({ estado: 'PAGO' });
    await push(c.key, tollBody(d.tag.plate, { valor: 100, portico: 'Pórtico Itaquá' }));
    const short = (await tolls(d, '&estado=EM_ABERTO')).Debitos[0];
    expect(short).toMatchObject({ aguardandoSaldo: true });
    const told = await t.db().kysely.selectFrom('notification_outbox').select('payload').where('driver_id', '=', d.id).execute();
    expect(told.map((r) => JSON.parse(r.payload) as { event?: string }).map((p) => p.event)).toEqual(
      expect.arrayContaining(['paid', 'short']),
    );
    await credit(d, 50_000);
    expect(await freeFlow().payAwaiting()).toBe(1);
    expect(await freeFlow().payAwaiting()).toBe(0);
    expect((await tolls(d, '&estado=EM_ABERTO')).Debitos).toEqual([]);
    expect(await t.accounts(d)).toMatchObject({ own: SALDO - 1_000 + 50_000 - 10_000 });
    await expectBooksBalance();

    // The terms refused: nothing more is taken automatically, and the plate can still be turned off.
    const refused = await t.app().inject({ method: 'POST', url: '/api/termos/rejeitar', headers: bearer(d.token) });
    expect(refused.statusCode, refused.body).toBeLessThan(300);
    await push(c.key, tollBody(d.tag.plate, { valor: 5, portico: 'Pórtico Mogi' }));
    expect((await tolls(d, '&estado=EM_ABERTO')).Debitos).toHaveLength(1);
    expect(await t.accounts(d)).toMatchObject({ own: SALDO - 1_000 + 50_000 - 10_000 });
    const off = await choose(d, { veiculoId: await vehicleId(d), ativo: false });
    expect(off.statusCode, off.body).toBe(200);
    expect((await tolls(d)).Debitos.map((x) => x.estado)).toEqual(['PAGO', 'PAGO']);
  });

  it('one batch flags each toll by itself: the tag paid that gantry minutes before, the tag was active with Saldo to cover it, or nothing says so', async () => {
    const c = await concessionaire();
    const d = await t.driver();
    await optIn(d);
    // The tag active since two hours ago; it paid Pórtico Arujá 40 minutes ago.
    await t
      .db()
      .kysely.updateTable('tags')
      .set({ activated_at: spAt(-minutes(120)) })
      .where('serial_number', '=', d.tag.serial)
      .execute();
    await t.passed(d.tag, 5, spAt(-minutes(40)), { placeName: 'Pórtico Arujá' });
    // Saldo at an instant comes from the ledger, whose entries for this new driver are all from the
    // last seconds: the tolls after them see R$ 79,10.
    const afterTheEntries = new Date(Date.now() + 1_000).toISOString();
    const bodies = [
      tollBody(d.tag.plate, { portico: 'Pórtico Arujá', occurredAt: spAt(-minutes(35)) }),
      tollBody(d.tag.plate, { portico: 'Pórtico Arujá', occurredAt: afterTheEntries }),
      tollBody(d.tag.plate, { portico: 'Pórtico Guarulhos', occurredAt: afterTheEntries, valor: 500 }),
    ];
    const res = await t.app().inject({
      method: 'POST',
      url: '/api/parceiro/livre-passagem/lote',
      headers: { 'x-api-key': c.key },
      payload: { debitos: bodies },
    });
    expect(res.statusCode, res.body).toBe(200);
    const kept = await t
      .db()
      .kysely.selectFrom('free_flow_tolls')
      .select(['external_id', 'flag', 'flag_passage_id'])
      .where('driver_id', '=', d.id)
      .execute();
    const byId = new Map(kept.map((k) => [k.external_id, k]));
    const passage = await t
      .db()
      .kysely.selectFrom('passages')
      .select('id')
      .where('place_name', '=', 'Pórtico Arujá')
      .executeTakeFirstOrThrow();
    // 5 minutes after the tag's passage at the same gantry: the tag paid it.
    expect(byId.get(bodies[0]!.externalId)).toMatchObject({ flag: 'TAG_PAGOU', flag_passage_id: passage.id });
    // 40 minutes after, the tag active and R$ 79,10 of Saldo then: a tag would have paid it.
    expect(byId.get(bodies[1]!.externalId)).toMatchObject({ flag: 'TAG_ATIVA', flag_passage_id: null });
    // R$ 500,00: more than Saldo had then, nothing says it is wrong.
    expect(byId.get(bodies[2]!.externalId)).toMatchObject({ flag: null, flag_passage_id: null });
  });

  it('a toll while the tag was active with money is flagged, not paid automatically, and contested in one tap; the concessionaire answers', async () => {
    const c = await concessionaire();
    const d = await t.driver();
    await optIn(d, true);
    await push(c.key, tollBody(d.tag.plate, { occurredAt: new Date(Date.now() + 1_000).toISOString() }));
    const toll = await only(d);
    expect(toll).toMatchObject({ sinalizacao: 'TAG_ATIVA', estado: 'EM_ABERTO' });
    const res = await t.app().inject({
      method: 'POST',
      url: `/api/livre-passagem/${toll.id}/contestar`,
      headers: { ...bearer(d.token), 'idempotency-key': randomUUID() },
      payload: { motivo: 'TAG_PAGOU' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(json<{ Debito: FreeFlowToll }>(res).Debito.contestacao).toMatchObject({ estado: 'ABERTA' });
    const listed = await t.app().inject({ method: 'GET', url: '/api/parceiro/contestacoes', headers: { 'x-api-key': c.key } });
    const contests = json<{ Contestacoes: Contest[] }>(listed).Contestacoes;
    expect(contests).toHaveLength(1);
    expect(contests[0]?.passagem).toMatchObject({ pedagioSemCancela: true, serialNumber: null, placa: d.tag.plate });
    const operator = await t.operator();
    const stranger = await t.app().inject({ method: 'GET', url: '/api/parceiro/contestacoes', headers: { 'x-api-key': operator.key } });
    expect(json<{ Contestacoes: Contest[] }>(stranger).Contestacoes).toEqual([]);
    const answered = await t.app().inject({
      method: 'POST',
      url: `/api/parceiro/contestacoes/${contests[0]?.id ?? 0}/resposta`,
      headers: { 'x-api-key': c.key },
      payload: { decisao: 'ACEITA', motivo: 'A tag pagou a passagem' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(await only(d)).toMatchObject({ estado: 'CANCELADO' });
    expect(await t.accounts(d)).toMatchObject({ own: SALDO });
    await expectBooksBalance();
  });

  it('the consent: nothing kept before it, the unpaid ones go when it is withdrawn, the paid ones stay', async () => {
    const c = await concessionaire();
    const d = await t.driver();
    await push(c.key, tollBody(d.tag.plate));
    expect((await tolls(d)).Resumo).toMatchObject({ placasAtivas: 0, emAberto: 0 });
    await optIn(d);
    await push(c.key, tollBody(d.tag.plate));
    await push(c.key, tollBody(d.tag.plate, { portico: 'Pórtico B' }));
    const [one] = (await tolls(d)).Debitos;
    expect((await pay(d, one?.id ?? 0)).statusCode).toBe(200);
    const off = await choose(d, { veiculoId: await vehicleId(d), ativo: false });
    expect(off.statusCode, off.body).toBe(200);
    const left = await t.db().kysely.selectFrom('free_flow_tolls').select(['id', 'paid_at']).where('driver_id', '=', d.id).execute();
    expect(left.map((r) => r.id)).toEqual([one?.id]);
    // Another driver cannot opt the same plate in while it is taken (without learning whose).
    const e = await t.driver();
    const plate = d.tag.plate;
    await t.db().kysely.updateTable('vehicles').set({ license_plate: plate }).where('driver_id', '=', e.id).execute();
    await optIn(d);
    const taken = await choose(e, { veiculoId: await vehicleId(e), ativo: true });
    expect(taken.statusCode).toBe(409);
    expect(json<{ Mensagem: string }>(taken).Mensagem).toBe(freeFlowMessages.plateUnavailable(plate));
    await expectBooksBalance();
  });

  it('deadline notices at 5 days, 1 day and past due, each once', async () => {
    const c = await concessionaire();
    const d = await t.driver();
    await optIn(d);
    const day = (offset: number) => saoPauloDay(new Date(Date.now() + offset * DAY));
    await push(c.key, tollBody(d.tag.plate, { vencimento: day(5), occurredAt: spAt(-minutes(10)) }));
    await push(c.key, tollBody(d.tag.plate, { vencimento: day(1), portico: 'P1' }));
    await push(c.key, tollBody(d.tag.plate, { vencimento: day(-1), portico: 'P2', occurredAt: spAt(-3 * DAY) }));
    const service = freeFlow();
    expect(await service.sendDeadlineNotices()).toBe(3);
    expect(await service.sendDeadlineNotices()).toBe(0);
    const events = (await t.db().kysely.selectFrom('notification_outbox').select('payload').where('driver_id', '=', d.id).execute())
      .map((r) => JSON.parse(r.payload) as { event?: string })
      .map((p) => p.event);
    expect(events).toEqual(expect.arrayContaining(['new', 'five', 'one', 'overdue']));
    expect((await tolls(d)).Resumo).toMatchObject({ emAberto: 3, vencidos: 1 });
    expect((await tolls(d, '&estado=VENCIDO')).Debitos).toHaveLength(1);
  });
});
