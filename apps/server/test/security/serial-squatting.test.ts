import { cnpj } from 'cpf-cnpj-validator';
import { serverMessages, TAG_STATUS } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { nowIso } from '../../src/db/connection.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';
import { PartnerService } from '../../src/modules/partners/service.js';
import { json, registerDriver, useTestApp } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js';
import { expectLedgerInvariant, fund, ownBalance } from '../helpers/pix.js';
import { actions, activeTag, get, newPlate, newSerial, post, registerTag, registrationBody, SEMPARAR, tagStatus } from '../helpers/tags.js';

/** Issue 8, point 7: a serial cannot be burnt by someone who registers it and gives it up before using it. */
describeEachDatabase('tags: ninguém queima o serial de outro', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  const db = () => ctx().db.kysely;
  const keys = async () => {
    const partners = new PartnerService(ctx().db);
    return {
      operator: (await partners.create('operator', 'SemParar Posseiro', SEMPARAR)).key,
      shipper: (await partners.create('shipper', 'Embarcador Posseiro')).key,
    };
  };
  const passage = (key: string, serial: string, value = 21.5) =>
    app().inject({
      method: 'POST',
      url: '/api/parceiro/passagens',
      headers: { 'x-api-key': key },
      payload: {
        externalId: `pos-${Math.random().toString(36).slice(2)}`,
        serialNumber: serial,
        placeName: 'Praça Atibaia',
        value,
        occurredAt: new Date(Date.now() - 600_000).toISOString(),
        is_third: false,
      },
    });
  const vpo = (key: string, serial: string, plate: string) =>
    app().inject({
      method: 'POST',
      url: '/api/parceiro/vpos',
      headers: { 'x-api-key': key },
      payload: {
        externalId: `pos-${Math.random().toString(36).slice(2)}`,
        serialNumber: serial,
        PlacaVeiculo: plate,
        CpfCnpjEmbarcador: cnpj.generate(),
        ValorTotalVP: 99.9,
      },
    });
  const register = (d: Registered, serial: string, plate = newPlate()) =>
    post(app(), d, '/api/tag/cadastrar-tag', registrationBody(d, { serialNumber: serial, licensePlate: plate }));
  const vpoCount = async (d: Registered) => (await db().selectFrom('vpos').select('id').where('driver_id', '=', d.id).execute()).length;

  for (const variant of ['cancel and delete', 'cancel without delete'] as const) {
    it(`a squatter who registers a serial and gives it up (${variant}) leaves it to its real holder`, async () => {
      const squatter = await registerDriver(app());
      const holder = await registerDriver(app());
      await fund(app(), squatter, 100);
      const { operator, shipper } = await keys();
      const serial = newSerial();
      const squat = await registerTag(app(), squatter, { serialNumber: serial });

      // While the squatter holds it unactivated, nothing reaches the serial.
      expect((await passage(operator, serial)).statusCode).toBe(409);
      expect(json(await passage(operator, serial))).toMatchObject({ Mensagem: serverMessages.partner.tagNotActive });
      expect((await vpo(shipper, serial, squat.plate)).statusCode).toBe(409);
      expect(await ownBalance(app(), squatter)).toBe(100);
      expect(await vpoCount(squatter)).toBe(0);
      // The real holder is refused meanwhile, with an answer that says nothing about the squatter.
      const meanwhile = await register(holder, serial);
      expect(meanwhile.statusCode).toBe(409);
      expect(json(meanwhile)).toMatchObject({ Mensagem: serverMessages.tag.serialUnavailable });

      expect((await actions.cancel(app(), squatter, serial)).statusCode).toBe(200);
      expect(await tagStatus(app(), squatter, squat.plate)).toBe(TAG_STATUS.cancelledByDriver);
      if (variant === 'cancel and delete') expect((await actions.remove(app(), squatter, serial)).statusCode).toBe(200);

      const mine = await registerTag(app(), holder, { serialNumber: serial });
      await fund(app(), holder, 100);
      expect((await actions.activate(app(), holder, serial, mine.plate)).statusCode).toBe(200);
      const paid = await passage(operator, serial, 21.5);
      expect(paid.statusCode, paid.body).toBe(200);
      expect((await vpo(shipper, serial, mine.plate)).statusCode).toBe(201);
      expect(await ownBalance(app(), holder)).toBe(62.6);
      expect(await vpoCount(holder)).toBe(1);
      expect(await ownBalance(app(), squatter)).toBe(100);
      expect(await vpoCount(squatter)).toBe(0);

      if (variant === 'cancel without delete') {
        // The squatter still sees the cancelled registration, and removing it later leaves the holder's tag alone.
        expect(await tagStatus(app(), squatter, squat.plate)).toBe(TAG_STATUS.cancelledByDriver);
        expect((await actions.remove(app(), squatter, serial)).statusCode).toBe(200);
        expect(await tagStatus(app(), squatter, squat.plate)).toBe('none');
        expect((await passage(operator, serial, 3)).statusCode).toBe(200);
        expect(await ownBalance(app(), holder)).toBe(59.6);
      }
      expect(await tagStatus(app(), holder, mine.plate)).toBe(TAG_STATUS.active);
      const atOperator = await db()
        .selectFrom('operator_tags')
        .select(['status_code', 'holder_document'])
        .where('serial_number', '=', serial)
        .execute();
      expect(atOperator).toEqual([{ status_code: TAG_STATUS.active, holder_document: holder.cpfCnpj }]);
      await expectLedgerInvariant(ctx().db);
    });
  }

  it('the driver who gave a serial up may register it again, on the same truck; a registration deleted uncancelled frees it too', async () => {
    const d = await registerDriver(app());
    const other = await registerDriver(app());
    const t = await registerTag(app(), d);
    expect((await actions.cancel(app(), d, t.serial)).statusCode).toBe(200);
    const again = await register(d, t.serial, t.plate);
    expect(again.statusCode, again.body).toBe(201);
    const tags = json<{ Tags: { serialNumber: string; statusCode: number | null }[] }>(await get(app(), d, '/api/tag/listar')).Tags;
    expect(tags).toEqual([expect.objectContaining({ serialNumber: t.serial, statusCode: null })]);

    const u = await registerTag(app(), d);
    expect((await actions.remove(app(), d, u.serial)).statusCode).toBe(200);
    expect((await register(other, u.serial)).statusCode).toBe(201);
  });

  it("a serial that is not free gets one answer, whoever holds it and whatever happened to it; only one's own serial is named", async () => {
    const holder = await registerDriver(app(), { name: 'Zuleica Proprietária Quintanilha' });
    const asker = await registerDriver(app());
    const held = await registerTag(app(), holder);
    const usedThenCancelled = await activeTag(app(), holder);
    expect((await actions.cancel(app(), holder, usedThenCancelled.serial)).statusCode).toBe(200);
    expect((await actions.remove(app(), holder, usedThenCancelled.serial)).statusCode).toBe(200);
    const replaced = await activeTag(app(), holder);
    expect((await actions.replace(app(), holder, replaced.serial, newSerial())).statusCode).toBe(200);
    const activeElsewhere = await activeTag(app(), holder);

    const answers: LightMyRequestResponse[] = [];
    for (const serial of [held.serial, usedThenCancelled.serial, replaced.serial, activeElsewhere.serial])
      answers.push(await register(asker, serial));
    for (const res of answers) {
      expect(res.statusCode).toBe(409);
      expect(json(res)).toEqual({
        Sucesso: false,
        Mensagem: serverMessages.tag.serialUnavailable,
        errors: { serialNumber: [serverMessages.tag.serialUnavailable] },
        error: serverMessages.tag.serialUnavailable,
      });
      for (const secret of [holder.cpfCnpj, 'Zuleica', held.plate, activeElsewhere.plate]) expect(res.body).not.toContain(secret);
    }
    // Replacing with a serial that is not free: the same answer, under the field of the new serial.
    const mine = await activeTag(app(), asker);
    const swap = await actions.replace(app(), asker, mine.serial, held.serial);
    expect(swap.statusCode).toBe(409);
    expect(json(swap)).toMatchObject({
      Mensagem: serverMessages.tag.serialUnavailable,
      errors: { newSerialNumber: [serverMessages.tag.serialUnavailable] },
    });
    // The holder asking for their own live serial is told plainly.
    const own = await register(holder, held.serial);
    expect(own.statusCode).toBe(409);
    expect(json(own)).toMatchObject({ Mensagem: serverMessages.tag.serialYours });
    expect(await tagStatus(app(), holder, held.plate)).toBeNull();
  });

  describe('migração 006', () => {
    it('frees the serials burnt before it (cancelled before any activation) and keeps the ones cancelled after use', async () => {
      const database = await createTestDatabase(dialect);
      const old = database.open();
      try {
        await migrateTo(old, '004-partners');
        const at = nowIso();
        const driver = await old.kysely
          .insertInto('drivers')
          .values({ name: 'Antigo', cpf_cnpj: '52998224725', phone_number: '+5511987654321', password_hash: 'x', created_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        const vehicle = await old.kysely
          .insertInto('vehicles')
          .values({
            driver_id: driver.id,
            license_plate: 'ABC1D23',
            cpf_cnpj_antt: '52998224725',
            rntrc_antt: '12345678',
            axles: 3,
            vehicle_type: 2,
            model_id: 'daf-xf',
            created_at: at,
            deleted_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const tag = (serial: string, activated: boolean) => ({
          driver_id: driver.id,
          vehicle_id: vehicle.id,
          serial_number: serial,
          operator_cnpj: SEMPARAR,
          ownership_type: 'own' as const,
          status_code: 300,
          activated_at: activated ? at : null,
          paid_through: null,
          created_at: at,
          deleted_at: at,
        });
        await old.kysely
          .insertInto('tags')
          .values([tag('7000000000000101', false), tag('7000000000000102', true)])
          .execute();
        await old.kysely
          .insertInto('operator_tags')
          .values(
            ['7000000000000101', '7000000000000102'].map((serial) => ({
              serial_number: serial,
              operator_cnpj: SEMPARAR,
              status_code: 300,
              license_plate: 'ABC1D23',
              holder_document: '52998224725',
              updated_at: at,
            })),
          )
          .execute();

        expect(await migrateToLatest(old)).toContain('006-partner-scope');
        const left = await old.kysely.selectFrom('operator_tags').select('serial_number').execute();
        expect(left.map((r) => r.serial_number)).toEqual(['7000000000000102']);
        const released = await old.kysely.selectFrom('tags').select(['serial_number', 'released_at']).orderBy('serial_number').execute();
        expect(released.map((r) => [r.serial_number, r.released_at !== null])).toEqual([
          ['7000000000000101', true],
          ['7000000000000102', false],
        ]);
      } finally {
        await old.kysely.destroy();
        await database.drop();
      }
    });
  });
});
