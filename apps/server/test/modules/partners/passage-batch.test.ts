import { randomUUID } from 'node:crypto';
import type { PartnerPassageBatchResponse, PassageBatchItemAnswer } from '@portal/contract';
import { PASSAGE_BATCH_MAX } from '@portal/contract';
import { messages, serverMessages, TAG_STATUS } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { PartnerService } from '../../../src/modules/partners/service.js';
import { json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { activeTag, actions, TAGGY } from '../../helpers/tags.js';
import type { RegisteredTag } from '../../helpers/tags.js';
import { expectVpoInvariants, minutes, spAt, useVpoApp } from '../../helpers/vpos.js';

const URL = '/api/parceiro/passagens/lote';

/** Decision 55: POST /api/parceiro/passagens/lote, each item answered as POST /api/parceiro/passagens would answer it. */
describeEachDatabase('passagens em lote', (dialect) => {
  const t = useVpoApp(dialect);

  async function batch(items: unknown[], key?: string): Promise<LightMyRequestResponse> {
    return t.app().inject({
      method: 'POST',
      url: URL,
      headers: { 'x-api-key': key ?? (await t.operator()).key },
      payload: { passagens: items },
    });
  }
  async function processed(items: unknown[], key?: string): Promise<PartnerPassageBatchResponse> {
    const res = await batch(items, key);
    expect(res.statusCode, res.body).toBe(200);
    return json<PartnerPassageBatchResponse>(res);
  }
  /** What the single call answers for a body: its status and its envelope, as an item carries them. */
  async function single(body: unknown): Promise<Pick<PassageBatchItemAnswer, 'status' | 'resposta'>> {
    const { key } = await t.operator();
    const res = await t.app().inject({
      method: 'POST',
      url: '/api/parceiro/passagens',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    return { status: res.statusCode, resposta: json<PassageBatchItemAnswer['resposta']>(res) };
  }
  /** The ledger entries a passage wrote (its idempotency keys start with its push's). */
  async function entriesOf(externalId: string): Promise<number> {
    const rows = await t
      .db()
      .kysely.selectFrom('ledger_entries')
      .select('id')
      .where('idempotency_key', 'like', `partner:%:passage:${externalId}%`)
      .execute();
    return rows.length;
  }
  const body = (tag: RegisteredTag, value = 3.5, overrides: Record<string, unknown> = {}) =>
    t.passageBody(tag, value, spAt(-minutes(2)), overrides);

  it('accepted, replayed and refused in one batch, answered in the order sent; a refusal undoes nothing of the others', async () => {
    const d = await t.driver();
    const other = await t.driver();
    const before = await t.accounts(d);
    const seenAlone = body(d.tag, 1.25);
    const alone = await single(seenAlone);
    expect(alone.status).toBe(200);

    const first = body(d.tag, 2);
    const known = body(other.tag, 4);
    expect((await processed([known])).Aceitas).toBe(1);
    const items = [
      first,
      seenAlone,
      body(d.tag, 3, { serialNumber: '9999000011112222' }),
      { ...known, value: 40 },
      { ...first },
      body(d.tag, -1),
      body(other.tag, 5),
    ];
    const answer = await processed(items);
    expect(answer).toMatchObject({
      Sucesso: true,
      Mensagem: serverMessages.partner.batchProcessed(2, 2, 3),
      Aceitas: 2,
      Repetidas: 2,
      Recusadas: 3,
    });
    const [accepted, replayedAlone, unknown, conflict, twin, invalid, acceptedOther] = answer.Itens;
    expect(accepted).toMatchObject({
      externalId: first.externalId,
      resultado: 'ACEITA',
      status: 200,
      resposta: { Sucesso: true, Mensagem: serverMessages.partner.passageRecorded, id: expect.any(String) },
    });
    // Sent alone before: its first answer again, the same entry, as the single call replays it.
    expect(replayedAlone).toEqual({ externalId: seenAlone.externalId, resultado: 'REPETIDA', ...alone });
    expect(unknown).toMatchObject({
      resultado: 'RECUSADA',
      status: 422,
      resposta: { Sucesso: false, Mensagem: serverMessages.partner.operatorTagNotFound, errors: { serialNumber: [expect.any(String)] } },
    });
    expect(conflict).toMatchObject({
      externalId: known.externalId,
      resultado: 'RECUSADA',
      status: 409,
      resposta: { Sucesso: false, Mensagem: serverMessages.partner.externalIdConflict },
    });
    // The same externalId twice in one batch: the second is the first's answer again, one debit.
    expect(twin).toEqual({ ...accepted, resultado: 'REPETIDA' });
    expect(invalid).toMatchObject({
      resultado: 'RECUSADA',
      status: 422,
      resposta: { Sucesso: false, Mensagem: messages.partner.valueInvalid, errors: { value: [messages.partner.valueInvalid] } },
    });
    expect(acceptedOther).toMatchObject({ resultado: 'ACEITA', status: 200 });

    // Each passage debited once: 1,25 (alone) + 2,00 for d; 4,00 + 5,00 for the other driver.
    expect(await t.accounts(d)).toEqual({ ...before, own: before.own - 325 });
    for (const id of [first.externalId, seenAlone.externalId, known.externalId]) expect(await entriesOf(id)).toBe(1);
    // The refused items wrote nothing, and may be sent again fixed (a refusal is not remembered).
    expect(await entriesOf(String(items[2] && (items[2] as { externalId: string }).externalId))).toBe(0);
    const fixed = await processed([{ ...(items[5] as object), value: 1 }]);
    expect(fixed.Itens[0]).toMatchObject({ resultado: 'ACEITA' });
    await expectVpoInvariants(t.db());
  });

  it('a batch sent again is replayed item by item: the same answers, nothing written', async () => {
    const d = await t.driver();
    const items = Array.from({ length: 30 }, (_, i) => body(d.tag, 1 + i / 100));
    const first = await processed(items);
    expect(first.Aceitas).toBe(30);
    const balances = await t.accounts(d);
    const again = await processed(items);
    expect(again).toMatchObject({ Aceitas: 0, Repetidas: 30, Recusadas: 0 });
    expect(again.Itens).toEqual(first.Itens.map((item) => ({ ...item, resultado: 'REPETIDA' })));
    expect(await t.accounts(d)).toEqual(balances);
  });

  it("another operator's tag is refused like an unknown serial, byte for byte; blocked tags are refused with the single call's reason", async () => {
    const d = await t.driver();
    const taggy = await activeTag(t.app(), d, { Operadora: TAGGY });
    const blocked = await t.driver();
    expect((await actions.block(t.app(), blocked, blocked.tag.serial)).statusCode).toBe(200);
    const feeBlocked = await t.driver();
    await t
      .db()
      .kysely.updateTable('tags')
      .set({ status_code: TAG_STATUS.blockedUnpaidFee })
      .where('serial_number', '=', feeBlocked.tag.serial)
      .execute();

    const items = [
      body(taggy, 2, { externalId: 'x-outra' }),
      body(d.tag, 2, { externalId: 'x-outra-2', serialNumber: '8888000011112222' }),
      body(blocked.tag, 2),
      body(feeBlocked.tag, 2),
    ];
    const answer = await processed(items);
    expect(answer.Recusadas).toBe(4);
    const [otherOperator, unknown, byDriver, byFee] = answer.Itens;
    expect(otherOperator?.status).toBe(422);
    expect({ ...otherOperator, externalId: null }).toEqual({ ...unknown, externalId: null });
    expect(byDriver).toMatchObject({ status: 409, resposta: { Mensagem: serverMessages.partner.tagNotActive } });
    expect(byFee).toMatchObject({ status: 409, resposta: { Mensagem: serverMessages.partner.tagNotActiveForPassage } });
    // What the single call answers for each.
    for (const [i, item] of items.entries()) expect(answer.Itens[i]).toMatchObject(await single(item));
    for (const item of items) expect(await entriesOf(item.externalId)).toBe(0);
    await expectVpoInvariants(t.db());
  });

  it('a fee-blocked tag takes the items an open VPO pays; a VPO pays part of an item and Saldo the rest', async () => {
    const d = await t.driver();
    const s = await t.shipper('Transportes Lote');
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 10 });
    await t
      .db()
      .kysely.updateTable('tags')
      .set({ status_code: TAG_STATUS.blockedUnpaidFee })
      .where('serial_number', '=', d.tag.serial)
      .execute();
    const before = await t.accounts(d);
    const answer = await processed([body(d.tag, 6), body(d.tag, 6.55), body(d.tag, 1)]);
    expect(answer.Itens.map((i) => [i.resultado, i.status])).toEqual([
      ['ACEITA', 200],
      ['ACEITA', 200],
      ['RECUSADA', 409],
    ]);
    expect(answer.Itens[2]?.resposta.Mensagem).toBe(serverMessages.partner.tagNotActiveForPassage);
    expect(await t.vpoRow(vpo.id)).toMatchObject({ used: 1_000, left: 0, short: 255 });
    expect(await t.accounts(d)).toEqual({ ...before, own: before.own - 255, vpo: 0 });
    await expectVpoInvariants(t.db());
  });

  it("an invalid item gets the single call's 422, field by field", async () => {
    const d = await t.driver();
    const bad: unknown[] = [
      body(d.tag, 0),
      body(d.tag, 1, { occurredAt: '2020-01-01T00:00:00-03:00' }),
      body(d.tag, 1, { externalId: '' }),
      body(d.tag, 1, { placeName: 42, value: 'dez' }),
      { externalId: `x-${randomUUID()}` },
      'não é uma passagem',
      null,
      body(d.tag, 1, { serialNumber: 'abc\u0000' }),
    ];
    const answer = await processed(bad);
    expect(answer.Recusadas).toBe(bad.length);
    for (const [i, item] of bad.entries()) {
      const { status, resposta, resultado } = answer.Itens[i]!;
      expect({ status, resposta, resultado }, JSON.stringify(item)).toEqual({ ...(await single(item)), resultado: 'RECUSADA' });
    }
  });

  it('a body that is not a batch is refused whole (422, or 400 for bad JSON) in the envelope, and changes nothing', async () => {
    const d = await t.driver();
    const { key } = await t.operator();
    const pushes = async () => (await t.db().kysely.selectFrom('partner_pushes').select('external_id').execute()).length;
    const before = { pushes: await pushes(), accounts: await t.accounts(d) };
    const send = (payload: string) =>
      t.app().inject({ method: 'POST', url: URL, headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload });
    const many = JSON.stringify({ passagens: Array.from({ length: PASSAGE_BATCH_MAX + 1 }, () => body(d.tag)) });
    for (const [payload, status, message] of [
      [JSON.stringify({ passagens: [] }), 422, messages.partner.batchSize],
      [many, 422, messages.partner.batchSize],
      [JSON.stringify({ passagens: body(d.tag) }), 422, messages.partner.batchInvalid],
      [JSON.stringify({ passagens: 'x' }), 422, messages.partner.batchInvalid],
      [JSON.stringify([body(d.tag)]), 422, messages.partner.batchInvalid],
      [JSON.stringify({}), 422, messages.partner.batchInvalid],
      ['{"passagens": [', 400, serverMessages.session.invalidRequest],
    ] as const) {
      const res = await send(payload);
      expect(res.statusCode, `${payload.slice(0, 80)} -> ${res.body}`).toBe(status);
      expect(json(res)).toMatchObject({ Sucesso: false, Mensagem: message });
    }
    expect({ pushes: await pushes(), accounts: await t.accounts(d) }).toEqual(before);
    // A key of another kind, or none: the single call's answers.
    const shipper = await t.shipper();
    expect((await batch([body(d.tag)], shipper.key)).statusCode).toBe(403);
    expect((await t.app().inject({ method: 'POST', url: URL, payload: { passagens: [body(d.tag)] } })).statusCode).toBe(401);
  });

  it('1,000 passages with realistic texts fit the body limit and are all recorded; balances stay the sum of their entries', async () => {
    const drivers = [await t.driver(), await t.driver(), await t.driver()];
    const before = await Promise.all(drivers.map((d) => t.accounts(d)));
    const items = Array.from({ length: PASSAGE_BATCH_MAX }, (_, i) =>
      body(drivers[i % 3]!.tag, 0.01 * (1 + (i % 7)), {
        externalId: `SemParar-2026-11-25-praça-${i}-${randomUUID()}`,
        placeName: `Praça de Pedágio ${i % 40} — Rodovia dos Bandeirantes (SP-348), km ${40 + (i % 90)}, sentido capital`,
        is_third: i % 10 === 0,
      }),
    );
    const payload = JSON.stringify({ passagens: items });
    expect(Buffer.byteLength(payload)).toBeLessThan(1024 * 1024);
    const answer = await processed(items);
    expect(answer).toMatchObject({ Aceitas: PASSAGE_BATCH_MAX, Repetidas: 0, Recusadas: 0 });
    expect(answer.Itens.map((i) => i.externalId)).toEqual(items.map((i) => i.externalId));
    for (const [k, d] of drivers.entries()) {
      const mine = items.filter((_, i) => i % 3 === k);
      const cents = (third: boolean) =>
        mine.filter((i) => i.is_third === third).reduce((sum, i) => sum + Math.round(Number(i.value) * 100), 0);
      expect(await t.accounts(d)).toEqual({ ...before[k]!, own: before[k]!.own - cents(false), third: before[k]!.third - cents(true) });
    }
    await expectVpoInvariants(t.db());
  }, 60_000);

  it('two overlapping batches at once, over several drivers in opposite orders, and the single call beside them: each passage once', async () => {
    const drivers = [await t.driver(), await t.driver(), await t.driver(), await t.driver()];
    const before = await Promise.all(drivers.map((d) => t.accounts(d)));
    const shared = Array.from({ length: 240 }, (_, i) => body(drivers[i % 4]!.tag, 0.5));
    const onlyA = Array.from({ length: 60 }, (_, i) => body(drivers[(i * 3) % 4]!.tag, 0.25));
    const onlyB = Array.from({ length: 60 }, (_, i) => body(drivers[(i * 5) % 4]!.tag, 0.75));
    const a = [...shared, ...onlyA].sort(() => Math.random() - 0.5);
    const b = [...onlyB, ...shared].reverse();
    const answers = await Promise.all([
      processed(a),
      processed(b),
      processed(shared.slice(100, 200).reverse()),
      ...shared.slice(0, 20).map((item) => single(item)),
    ]);
    const [ra, rb, rc] = answers as PartnerPassageBatchResponse[];
    for (const r of [ra, rb, rc]) expect(r?.Recusadas).toBe(0);
    // Every shared passage accepted exactly once across the calls, and every answer names the same entry.
    const ids = new Map<string, Set<string>>();
    let accepted = 0;
    for (const r of [ra, rb, rc]) {
      for (const item of r?.Itens ?? []) {
        if (item.resultado === 'ACEITA') accepted += 1;
        ids.set(item.externalId ?? '', (ids.get(item.externalId ?? '') ?? new Set()).add(item.resposta.id ?? ''));
      }
    }
    for (const s of answers.slice(3) as Pick<PassageBatchItemAnswer, 'status' | 'resposta'>[]) expect(s.status).toBe(200);
    for (const set of ids.values()) expect(set.size).toBe(1);
    expect(accepted).toBeLessThanOrEqual(shared.length + onlyA.length + onlyB.length);
    for (const item of [...shared, ...onlyA, ...onlyB]) expect(await entriesOf(item.externalId)).toBe(1);
    for (const [k, d] of drivers.entries()) {
      const cents = [...shared, ...onlyA, ...onlyB]
        .filter((i) => i.serialNumber === d.tag.serial)
        .reduce((sum, i) => sum + Math.round(Number(i.value) * 100), 0);
      expect(await t.accounts(d)).toEqual({ ...before[k]!, own: before[k]!.own - cents });
    }
    await expectVpoInvariants(t.db());
  }, 60_000);

  it('the OpenAPI document, generated from the contract, has the call with the passage as its items', async () => {
    const res = await t.app().inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, { post?: { requestBody?: unknown; responses?: unknown } }> }>();
    const call = doc.paths[URL]?.post;
    expect(call).toBeDefined();
    const text = JSON.stringify(call);
    for (const field of [
      'passagens',
      'externalId',
      'serialNumber',
      'placeName',
      'occurredAt',
      'is_third',
      'Itens',
      'resultado',
      'REPETIDA',
    ])
      expect(text).toContain(field);
  });

  it('an operator key without an operator is refused whole, as the single call', async () => {
    const d = await t.driver();
    const { id, key } = await new PartnerService(t.db()).create('operator', 'Sem escopo', TAGGY);
    await t.db().kysely.updateTable('partners').set({ operator_cnpj: null }).where('id', '=', id).execute();
    const res = await batch([body(d.tag)], key);
    expect(res.statusCode).toBe(403);
    expect(json(res)).toMatchObject({ Sucesso: false, Mensagem: serverMessages.partner.operatorUnscoped });
  });
});
