import { cnpj } from 'cpf-cnpj-validator';
import { serverMessages } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { newKey } from '../../src/modules/partners/keys.js';
import { PartnerService } from '../../src/modules/partners/service.js';
import { bearer, json, registerDriver, useTestApp } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { expectLedgerInvariant } from '../helpers/pix.js';
import { actions, activeTag, newPlate, newSerial, OPERATORS, registerTag, SEMPARAR } from '../helpers/tags.js';
import type { RegisteredTag } from '../helpers/tags.js';

/** Issue 8, point 6 / founding decision 24: an operator key charges only its operator's active tags; a VPO needs an active tag and its plate. */
describeEachDatabase('parceiros: escopo', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  const db = () => ctx().db.kysely;
  const service = () => new PartnerService(ctx().db);
  const send = (url: string, key: string, payload: Record<string, unknown>) =>
    app().inject({ method: 'POST', url, payload, headers: { 'x-api-key': key } });
  let seq = 0;
  const passage = (serial: string, extra: Record<string, unknown> = {}) => ({
    externalId: `escopo-p-${(seq += 1)}-${Math.random().toString(36).slice(2)}`,
    serialNumber: serial,
    placeName: 'Praça Itatiba',
    value: 17.3,
    occurredAt: new Date(Date.now() - 3_600_000).toISOString(),
    is_third: false,
    ...extra,
  });
  const vpo = (t: RegisteredTag, extra: Record<string, unknown> = {}) => ({
    externalId: `escopo-v-${(seq += 1)}-${Math.random().toString(36).slice(2)}`,
    serialNumber: t.serial,
    PlacaVeiculo: t.plate,
    CpfCnpjEmbarcador: cnpj.generate(),
    ValorTotalVP: 410.2,
    ...extra,
  });
  /** Everything a refused push must leave alone. */
  const snapshot = async (drivers: Registered[]) => ({
    balances: await Promise.all(
      drivers.map(async (d) => json(await app().inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) }))),
    ),
    entries: (await db().selectFrom('ledger_entries').select('id').execute()).length,
    vpos: (await db().selectFrom('vpos').select('id').execute()).length,
    pushes: (await db().selectFrom('partner_pushes').select('external_id').execute()).length,
  });
  const expectRefused = (res: LightMyRequestResponse, status: number, message: string, field?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(json(res)).toEqual({ Sucesso: false, Mensagem: message, ...(field ? { errors: { [field]: [message] } } : {}) });
  };
  /** A VPO whose serial and plate do not belong together: one answer, on both fields. */
  const expectUnproven = (res: LightMyRequestResponse) => {
    const message = serverMessages.partner.vpoTagNotFound;
    expect(res.statusCode, res.body).toBe(422);
    expect(json(res)).toEqual({ Sucesso: false, Mensagem: message, errors: { serialNumber: [message], PlacaVeiculo: [message] } });
  };

  it("an operator key posts passages only for its own operator's active tags; the others' look like unknown serials", async () => {
    const owner = await registerDriver(app());
    const stranger = await registerDriver(app());
    const mine = await activeTag(app(), owner, { Operadora: SEMPARAR });
    const blocked = await activeTag(app(), owner, { Operadora: SEMPARAR });
    expect((await actions.block(app(), owner, blocked.serial)).statusCode).toBe(200);
    const cancelled = await activeTag(app(), owner, { Operadora: SEMPARAR });
    expect((await actions.cancel(app(), owner, cancelled.serial)).statusCode).toBe(200);
    const inactive = await registerTag(app(), owner, { Operadora: SEMPARAR });
    const cancelledInactive = await registerTag(app(), owner, { Operadora: SEMPARAR });
    expect((await actions.cancel(app(), owner, cancelledInactive.serial)).statusCode).toBe(200);
    const removed = await registerTag(app(), owner, { Operadora: SEMPARAR });
    expect((await actions.remove(app(), owner, removed.serial)).statusCode).toBe(200);
    // The other four operators' active tags, of the same driver and of another one.
    const others: RegisteredTag[] = [];
    for (const [name, cnpjOf] of Object.entries(OPERATORS)) {
      if (cnpjOf === SEMPARAR) continue;
      others.push(await activeTag(app(), name === 'Veloe' ? owner : stranger, { Operadora: cnpjOf }));
    }
    expect(others).toHaveLength(4);
    const { key } = await service().create('operator', 'SemParar Escopo', SEMPARAR);

    const ok = await send('/api/parceiro/passagens', key, passage(mine.serial, { value: 17.3 }));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json(ok)).toMatchObject({ Sucesso: true, Mensagem: serverMessages.partner.passageRecorded });
    const before = await snapshot([owner, stranger]);

    const unknown = await send('/api/parceiro/passagens', key, passage(newSerial()));
    expectRefused(unknown, 422, serverMessages.partner.operatorTagNotFound, 'serialNumber');
    // Removed, or cancelled before it was ever activated: the serial is nobody's any more.
    for (const t of [...others, removed, cancelledInactive]) {
      const res = await send('/api/parceiro/passagens', key, passage(t.serial));
      expectRefused(res, 422, serverMessages.partner.operatorTagNotFound, 'serialNumber');
      expect(res.body, 'another operator’s tag answers like an unknown serial').toBe(unknown.body);
    }
    for (const t of [blocked, cancelled, inactive]) {
      expectRefused(await send('/api/parceiro/passagens', key, passage(t.serial)), 409, serverMessages.partner.tagNotActive);
      expectRefused(
        await send('/api/parceiro/passagens', key, passage(t.serial, { is_third: true })),
        409,
        serverMessages.partner.tagNotActive,
      );
    }
    expect(await snapshot([owner, stranger])).toEqual(before);

    // A refusal is not remembered: once the tag is active, the same push is recorded.
    const retry = passage(inactive.serial, { value: 5 });
    expectRefused(await send('/api/parceiro/passagens', key, retry), 409, serverMessages.partner.tagNotActive);
    expect((await actions.activate(app(), owner, inactive.serial, inactive.plate)).statusCode).toBe(200);
    const later = await send('/api/parceiro/passagens', key, retry);
    expect(later.statusCode, later.body).toBe(200);
    expect(json(later)).toMatchObject({ Mensagem: serverMessages.partner.passageRecorded, duplicate: false });
    await expectLedgerInvariant(ctx().db);
  });

  it("a VPO needs the tag's vehicle plate and an active tag; refused VPOs leave nothing behind", async () => {
    const d = await registerDriver(app());
    const active = await activeTag(app(), d);
    const blocked = await activeTag(app(), d);
    expect((await actions.block(app(), d, blocked.serial)).statusCode).toBe(200);
    const cancelled = await activeTag(app(), d);
    expect((await actions.cancel(app(), d, cancelled.serial)).statusCode).toBe(200);
    const inactive = await registerTag(app(), d);
    const { key } = await service().create('shipper', 'Embarcador Escopo');
    const before = await snapshot([d]);

    // Issue 21, point 7: a serial and a plate that do not belong together get one answer, whether the serial exists or not.
    const unknown = await send('/api/parceiro/vpos', key, vpo({ ...active, serial: newSerial() }));
    expectUnproven(unknown);
    const wrongPlates = [
      vpo(active, { PlacaVeiculo: newPlate() }),
      // Another of the driver's own plates does not fit this tag either.
      vpo(active, { PlacaVeiculo: blocked.plate }),
      // Without the right plate, not even the tag's state is told.
      ...[blocked, cancelled, inactive].map((t) => vpo(t, { PlacaVeiculo: newPlate() })),
    ];
    for (const body of wrongPlates) {
      const res = await send('/api/parceiro/vpos', key, body);
      expectUnproven(res);
      expect(res.body, 'a known serial with another plate answers like an unknown serial').toBe(unknown.body);
    }
    for (const t of [blocked, cancelled, inactive]) {
      expectRefused(await send('/api/parceiro/vpos', key, vpo(t)), 409, serverMessages.partner.tagNotActive);
    }
    expect(await snapshot([d])).toEqual(before);
    const list = async () =>
      json<{ VPOS: unknown[] }>(await app().inject({ method: 'GET', url: '/api/pedagio/motoristaVpos', headers: bearer(d.token) })).VPOS;
    expect(await list()).toEqual([]);

    const ok = await send('/api/parceiro/vpos', key, vpo(active, { PlacaVeiculo: active.plate.toLowerCase() }));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await list()).toEqual([expect.objectContaining({ serialNumber: active.serial, PlacaVeiculo: active.plate })]);
  });

  it('an operator key without an operator (created before keys were scoped) gets 403 until it is scoped', async () => {
    const d = await registerDriver(app());
    const t = await activeTag(app(), d, { Operadora: SEMPARAR });
    const { key, hash, prefix } = newKey();
    const row = await db()
      .insertInto('partners')
      .values({
        kind: 'operator',
        name: 'Operadora antiga',
        api_key_hash: hash,
        api_key_prefix: prefix,
        created_at: new Date().toISOString(),
        revoked_at: null,
        operator_cnpj: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await snapshot([d]);
    const body = passage(t.serial);
    expectRefused(await send('/api/parceiro/passagens', key, body), 403, serverMessages.partner.operatorUnscoped);
    expect(await snapshot([d])).toEqual(before);
    expect(ctx().logs.join('\n')).not.toContain(key);

    expect(await service().scope(row.id, OPERATORS.Veloe ?? '')).toBe('scoped');
    expect(await service().scope(row.id, SEMPARAR)).toBe('already-scoped');
    expectRefused(await send('/api/parceiro/passagens', key, body), 422, serverMessages.partner.operatorTagNotFound, 'serialNumber');
    const veloe = await activeTag(app(), d, { Operadora: OPERATORS.Veloe });
    expect((await send('/api/parceiro/passagens', key, passage(veloe.serial))).statusCode).toBe(200);
    // Creating an operator key without its operator is not possible any more.
    await expect(service().create('operator', 'Sem operadora')).rejects.toThrow();
    await expect(service().create('shipper', 'Com operadora', SEMPARAR)).rejects.toThrow();
  });
});
