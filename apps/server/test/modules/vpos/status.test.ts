import { cnpj } from 'cpf-cnpj-validator';
import { messages, serverMessages } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it, vi } from 'vitest';
import { PartnerService } from '../../../src/modules/partners/service.js';
import { VpoService } from '../../../src/modules/vpos/service.js';
import { json, registerDriver, useTestApp } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { activeTag } from '../../helpers/tags.js';
import type { RegisteredTag } from '../../helpers/tags.js';

/** Issue 21, point 6 / founding decision 29: one state machine for a VPO's status, enforced atomically. */
describeEachDatabase('VPO: máquina de estados', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  let seq = 0;
  const shipperKey = async () => (await new PartnerService(ctx().db).create('shipper', `Embarcador Estados ${(seq += 1)}`)).key;
  const issue = (key: string, t: RegisteredTag, extra: Record<string, unknown> = {}) =>
    app().inject({
      method: 'POST',
      url: '/api/parceiro/vpos',
      headers: { 'x-api-key': key },
      payload: {
        externalId: `estado-${(seq += 1)}-${Math.random().toString(36).slice(2)}`,
        serialNumber: t.serial,
        PlacaVeiculo: t.plate,
        CpfCnpjEmbarcador: cnpj.generate(),
        ValorTotalVP: 120.5,
        ...extra,
      },
    });
  const patch = (key: string, externalId: string, Status: string) =>
    app().inject({ method: 'PATCH', url: `/api/parceiro/vpos/${externalId}`, headers: { 'x-api-key': key }, payload: { Status } });
  const stored = async (externalId: string) =>
    (await ctx().db.kysely.selectFrom('vpos').select('status').where('external_id', '=', externalId).executeTakeFirstOrThrow()).status;
  const expectMoved = (res: LightMyRequestResponse, duplicate = false) => {
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({
      Sucesso: true,
      Mensagem: duplicate ? serverMessages.partner.vpoStatusUnchanged : serverMessages.partner.vpoUpdated,
      duplicate,
    });
  };
  const expectRefused = (res: LightMyRequestResponse, message: string) => {
    expect(res.statusCode, res.body).toBe(409);
    expect(json(res)).toEqual({ Sucesso: false, Mensagem: message });
  };

  it("the issue's sequence CANCELADO -> EMITIDO -> ENCERRADO -> EM_VIAGEM -> CANCELADO -> EMITIDO: only the first move passes", async () => {
    const d = await registerDriver(app());
    const t = await activeTag(app(), d);
    const key = await shipperKey();
    const first = await issue(key, t, { externalId: 'sequencia-do-issue' });
    expect(first.statusCode, first.body).toBe(201);

    expectMoved(await patch(key, 'sequencia-do-issue', 'CANCELADO'));
    expectRefused(await patch(key, 'sequencia-do-issue', 'EMITIDO'), 'Um VPO Cancelado não pode passar para Emitido');
    expectRefused(await patch(key, 'sequencia-do-issue', 'ENCERRADO'), 'Um VPO Cancelado não pode passar para Encerrado');
    expectRefused(await patch(key, 'sequencia-do-issue', 'EM_VIAGEM'), 'Um VPO Cancelado não pode passar para Em viagem');
    // The same status again is a retry's answer: 200, nothing changed.
    expectMoved(await patch(key, 'sequencia-do-issue', 'CANCELADO'), true);
    expectRefused(await patch(key, 'sequencia-do-issue', 'EMITIDO'), 'Um VPO Cancelado não pode passar para Emitido');
    expect(await stored('sequencia-do-issue')).toBe('CANCELADO');
  });

  it('a VPO is issued EMITIDO: another status on issue is a 422 and stores nothing; EMITIDO said outright is accepted', async () => {
    const d = await registerDriver(app());
    const t = await activeTag(app(), d);
    const key = await shipperKey();
    for (const Status of ['CANCELADO', 'EM_VIAGEM', 'ENCERRADO']) {
      const res = await issue(key, t, { externalId: `criado-${Status}`, Status });
      expect(res.statusCode, res.body).toBe(422);
      expect(json(res)).toEqual({
        Sucesso: false,
        Mensagem: messages.partner.statusOnIssue,
        errors: { Status: [messages.partner.statusOnIssue] },
      });
    }
    expect(await ctx().db.kysely.selectFrom('vpos').select('id').where('external_id', 'like', 'criado-%').execute()).toEqual([]);
    const ok = await issue(key, t, { externalId: 'criado-EMITIDO', Status: 'EMITIDO' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await stored('criado-EMITIDO')).toBe('EMITIDO');
  });

  it('EMITIDO -> EM_VIAGEM -> ENCERRADO and EMITIDO|EM_VIAGEM -> CANCELADO pass; ENCERRADO and CANCELADO are final; no way back', async () => {
    const d = await registerDriver(app());
    const t = await activeTag(app(), d);
    const key = await shipperKey();
    const ids = { done: 'fim-1', cancelledOnTrip: 'cancelado-em-viagem', cancelledIssued: 'cancelado-emitido', back: 'volta' };
    for (const externalId of Object.values(ids)) expect((await issue(key, t, { externalId })).statusCode).toBe(201);

    expectMoved(await patch(key, ids.done, 'EM_VIAGEM'));
    expectMoved(await patch(key, ids.done, 'ENCERRADO'));
    for (const [to, label] of [
      ['CANCELADO', 'Cancelado'],
      ['EM_VIAGEM', 'Em viagem'],
      ['EMITIDO', 'Emitido'],
    ] as const) {
      expectRefused(await patch(key, ids.done, to), `Um VPO Encerrado não pode passar para ${label}`);
    }
    expect(await stored(ids.done)).toBe('ENCERRADO');

    expectMoved(await patch(key, ids.cancelledOnTrip, 'EM_VIAGEM'));
    expectMoved(await patch(key, ids.cancelledOnTrip, 'CANCELADO'));
    expectRefused(await patch(key, ids.cancelledOnTrip, 'ENCERRADO'), 'Um VPO Cancelado não pode passar para Encerrado');

    expectMoved(await patch(key, ids.cancelledIssued, 'CANCELADO'));

    expectRefused(await patch(key, ids.back, 'ENCERRADO'), 'Um VPO Emitido não pode passar para Encerrado');
    expectMoved(await patch(key, ids.back, 'EM_VIAGEM'));
    expectRefused(await patch(key, ids.back, 'EMITIDO'), 'Um VPO Em viagem não pode passar para Emitido');
    expectMoved(await patch(key, ids.back, 'EM_VIAGEM'), true);
    expect(await stored(ids.back)).toBe('EM_VIAGEM');
  });

  it('a move whose status changed between its check and its write is checked again (that interleaving, forced)', async () => {
    const d = await registerDriver(app());
    const t = await activeTag(app(), d);
    const key = await shipperKey();
    expect((await issue(key, t, { externalId: 'intercalado' })).statusCode).toBe(201);
    expectMoved(await patch(key, 'intercalado', 'EM_VIAGEM'));
    // The first read answers EM_VIAGEM; before that PATCH writes, a rival PATCH cancels the VPO.
    const proto = VpoService.prototype as unknown as { vpoOf: (...args: unknown[]) => Promise<unknown> };
    const read = proto.vpoOf;
    let rival: Promise<LightMyRequestResponse> | null = null;
    const spy = vi.spyOn(proto, 'vpoOf').mockImplementation(async function (this: unknown, ...args: unknown[]) {
      const row = await read.apply(this, args);
      if (!rival) {
        rival = patch(key, 'intercalado', 'CANCELADO');
        await rival;
      }
      return row;
    });
    try {
      const late = await patch(key, 'intercalado', 'ENCERRADO');
      expect(rival).not.toBeNull();
      expectMoved(await rival!);
      expectRefused(late, 'Um VPO Cancelado não pode passar para Encerrado');
    } finally {
      spy.mockRestore();
    }
    expect(await stored('intercalado')).toBe('CANCELADO');
  });

  it('two concurrent moves from EM_VIAGEM (ENCERRADO and CANCELADO): exactly one passes, the other is told what it lost to', async () => {
    const d = await registerDriver(app());
    const t = await activeTag(app(), d);
    const key = await shipperKey();
    const ROUNDS = 8;
    for (let round = 0; round < ROUNDS; round += 1) {
      const externalId = `corrida-${round}`;
      expect((await issue(key, t, { externalId })).statusCode).toBe(201);
      expectMoved(await patch(key, externalId, 'EM_VIAGEM'));
      const [closed, cancelled] = await Promise.all([patch(key, externalId, 'ENCERRADO'), patch(key, externalId, 'CANCELADO')]);
      const answers = [closed.statusCode, cancelled.statusCode].sort();
      expect(answers, `${closed.body} / ${cancelled.body}`).toEqual([200, 409]);
      const final = await stored(externalId);
      const winner = closed.statusCode === 200 ? 'ENCERRADO' : 'CANCELADO';
      expect(final).toBe(winner);
      const loser = closed.statusCode === 200 ? cancelled : closed;
      expect(json(loser)).toEqual({
        Sucesso: false,
        Mensagem:
          winner === 'ENCERRADO' ? 'Um VPO Encerrado não pode passar para Cancelado' : 'Um VPO Cancelado não pode passar para Encerrado',
      });
    }
  });
});
