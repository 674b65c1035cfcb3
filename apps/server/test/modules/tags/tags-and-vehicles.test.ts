import { INVOICE_GROUP_CODE, messages, serverMessages, STATEMENT_ORIGINS, TAG_ORIGEM } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { accountId, post as postEntry } from '../../../src/modules/ledger/ledger.js';
import { createServices } from '../../../src/services.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { entriesOf, expectLedgerInvariant, fund, ownBalance } from '../../helpers/pix.js';
import { actions, get, newPlate, newSerial, OPERATORS, post, registerTag, registrationBody, TAGGY, tagStatus } from '../../helpers/tags.js';

const DAY = 24 * 60 * 60 * 1000;

describeEachDatabase('tags e veículos', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  const db = () => ctx().db;
  const services = () => createServices(ctx().config, ctx().db, createLogger('silent'));

  const feeEntries = async (d: Registered) => (await entriesOf(db(), d.id)).filter((e) => e.origin === STATEMENT_ORIGINS.tagFee);
  const driverRef = (d: Registered) => ({ id: d.id, cpfCnpj: d.cpfCnpj });

  describe('catálogos', () => {
    it('GET /api/operadoras lists the five operators with valid CNPJs; GET /api/veiculo/modelos the truck brands', async () => {
      const ops = await app().inject({ method: 'GET', url: '/api/operadoras' });
      expect(ops.statusCode).toBe(200);
      const body = json<{ Sucesso: boolean; Operadoras: { Nome: string; Cnpj: string }[] }>(ops);
      expect(body.Sucesso).toBe(true);
      expect(body.Operadoras.map((o) => o.Nome)).toEqual(['Taggy', 'SemParar', 'MoveMais', 'ConectCar', 'Veloe']);
      expect(body.Operadoras.every((o) => /^\d{14}$/.test(o.Cnpj))).toBe(true);
      const models = await app().inject({ method: 'GET', url: '/api/veiculo/modelos' });
      const data = json<{ Data: { brand: string; modelos: { modelId: string; modelName: string }[] }[] }>(models).Data;
      expect(data.length).toBeGreaterThanOrEqual(10);
      expect(data.map((b) => b.brand)).toEqual(expect.arrayContaining(['Scania', 'Volvo', 'Mercedes-Benz', 'Iveco', 'DAF']));
      expect(data.find((b) => b.brand === 'Scania')?.modelos).toContainEqual({ modelId: 'scania-r-450', modelName: 'R 450' });
    });
  });

  describe('POST /api/tag/cadastrar-tag', () => {
    it('registers a tag and its vehicle; lists and detail show it inactive', async () => {
      const d = await registerDriver(app());
      const body = registrationBody(d, { serialNumber: '7000 1111 2222 3333', licensePlate: 'abc-1d23', axles: '2', vehicleType: '1' });
      const res = await post(app(), d, '/api/tag/cadastrar-tag', body);
      expect(res.statusCode, res.body).toBe(201);
      expect(json(res)).toEqual({ Sucesso: true, Mensagem: 'Sucesso!' });
      const tags = json(await get(app(), d, '/api/tag/listar?page=1'));
      expect(tags).toEqual({
        Sucesso: true,
        Mensagem: serverMessages.tag.listOk,
        Tags: [
          {
            serialNumber: '7000111122223333',
            Operadora: body.Operadora,
            statusCode: null,
            ownershipType: 'own',
            vehicle: { LicensePlate: 'ABC1D23' },
          },
        ],
        Paginacao: { TotalPaginas: 1 },
      });
      const vehicles = json<{ Veiculos: unknown[] }>(await get(app(), d, '/api/veiculo/listar'));
      expect(vehicles.Veiculos).toEqual([
        {
          id: expect.any(Number),
          LicensePlate: 'ABC1D23',
          Status: 201,
          tag: { serialNumber: '7000111122223333', Operadora: body.Operadora, statusCode: null, ownershipType: 'own' },
        },
      ]);
      const detail = json(await get(app(), d, '/api/veiculo/detail/abc1d23'));
      expect(detail).toEqual({
        Sucesso: true,
        Mensagem: serverMessages.vehicle.detailOk,
        Dados: {
          id: expect.any(Number),
          LicensePlate: 'ABC1D23',
          CpfCnpjAntt: d.cpfCnpj,
          RntrcAntt: '12345678',
          Axles: 2,
          vehicleType: 1,
          modelo: 'scania-r-450',
          tag: { serialNumber: '7000111122223333', Operadora: body.Operadora, statusCode: null, ownershipType: 'own' },
        },
      });
    });

    it('reports spec §5 messages on each field', async () => {
      const d = await registerDriver(app());
      const res = await post(app(), d, '/api/tag/cadastrar-tag', {});
      expect(res.statusCode).toBe(422);
      const errors = json<{ errors: Record<string, string[]> }>(res).errors;
      expect(errors).toMatchObject({
        serialNumber: ['Por favor digite a Tag a ser ativada'],
        Operadora: ['Por favor selecione a Operadora da Tag'],
        licensePlate: ['Por favor digite a Placa do veículo'],
        axles: ['Por favor selecione o número de eixos'],
        modelo: ['Por favor selecione o modelo'],
        CpfCnpjAntt: [messages.tag.anttDocumentRequired],
        RntrcAntt: [messages.tag.rntrcRequired],
        invoiceGroupCode: [messages.tag.invoiceGroupInvalid],
      });
      const cases: [Record<string, unknown>, string, string, number][] = [
        [{ serialNumber: '5666 1234 5678 9012' }, 'serialNumber', 'Não é possivel cadastrar tags Greenpass', 422],
        [{ licensePlate: 'AB12345' }, 'licensePlate', messages.tag.plateInvalid, 422],
        [{ axles: 21 }, 'axles', messages.tag.axlesInvalid, 422],
        [{ axles: 2, vehicleType: 2 }, 'vehicleType', messages.tag.vehicleTypeMismatch, 422],
        [{ RntrcAntt: '123' }, 'RntrcAntt', messages.tag.rntrcInvalid, 422],
        [{ CpfCnpjAntt: '111.111.111-11' }, 'CpfCnpjAntt', messages.tag.anttDocumentInvalid, 422],
        [{ Operadora: '11222333000181' }, 'Operadora', serverMessages.tag.operatorUnknown, 422],
        [{ modelo: 'carroça' }, 'modelo', serverMessages.tag.modelUnknown, 422],
      ];
      for (const [overrides, field, message, status] of cases) {
        const r = await post(app(), d, '/api/tag/cadastrar-tag', registrationBody(d, overrides));
        expect(r.statusCode, JSON.stringify(overrides)).toBe(status);
        expect(json<{ Mensagem: string; errors: Record<string, string[]> }>(r)).toMatchObject({
          Sucesso: false,
          Mensagem: message,
          errors: { [field]: [message] },
        });
      }
      const other = await post(app(), d, '/api/tag/cadastrar-tag', registrationBody(d, { cnpj: '52998224725' }));
      expect(other.statusCode).toBe(403);
      expect(json(other)).toMatchObject({ Mensagem: serverMessages.tag.documentMismatch, error: serverMessages.tag.documentMismatch });
      expect(json<{ Tags: unknown[] }>(await get(app(), d, '/api/tag/listar')).Tags).toEqual([]);
    });

    it('refuses a serial already registered (by anyone) and a plate that already has a tag', async () => {
      const a = await registerDriver(app());
      const b = await registerDriver(app());
      const t = await registerTag(app(), a);
      const taken = await post(app(), b, '/api/tag/cadastrar-tag', registrationBody(b, { serialNumber: t.serial }));
      expect(taken.statusCode).toBe(409);
      expect(json(taken)).toMatchObject({ Sucesso: false, Mensagem: serverMessages.tag.serialUnavailable });
      const samePlate = await post(app(), a, '/api/tag/cadastrar-tag', registrationBody(a, { licensePlate: t.plate }));
      expect(samePlate.statusCode).toBe(409);
      expect(json(samePlate)).toMatchObject({ Mensagem: serverMessages.tag.plateHasTag });
      // Another driver may have a truck with the same plate in their own account.
      await registerTag(app(), b, { licensePlate: t.plate });
    });
  });

  describe('ciclo de vida', () => {
    it('activate (fee), block, release, replace, cancel, remove, with spec §8 messages', async () => {
      const d = await registerDriver(app());
      const t = await registerTag(app(), d);

      const short = await actions.activate(app(), d, t.serial, t.plate);
      expect(short.statusCode).toBe(422);
      expect(json(short)).toEqual({
        Sucesso: false,
        Mensagem: serverMessages.tag.insufficientBalance,
        error: serverMessages.tag.insufficientBalance,
      });
      expect(await tagStatus(app(), d, t.plate)).toBeNull();
      expect(await feeEntries(d)).toEqual([]);

      await fund(app(), d, 100);
      const wrongPlate = await actions.activate(app(), d, t.serial, newPlate());
      expect(json(wrongPlate)).toMatchObject({ Mensagem: serverMessages.tag.plateMismatch });
      const ok = await actions.activate(app(), d, t.serial, t.plate);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(json(ok)).toEqual({ Sucesso: true, Mensagem: 'Tag ativada com sucesso!' });
      expect(await tagStatus(app(), d, t.plate)).toBe(100);
      expect(await ownBalance(app(), d)).toBe(84.1);
      const fees = await feeEntries(d);
      expect(fees).toHaveLength(1);
      expect(fees[0]).toMatchObject({ amount_cents: -1590, place_name: `Mensalidade da tag ${t.serial.replace(/(.{4})(?=.)/g, '$1 ')}` });
      const statement = json<{ Transacoes: { origin: string; value: number; user_transaction: boolean }[] }>(
        await get(app(), d, '/api/extrato/listar'),
      );
      expect(statement.Transacoes[0]).toMatchObject({ origin: 'mensalidade-tag', value: -15.9, user_transaction: true });
      expect(json(await actions.activate(app(), d, t.serial, t.plate))).toMatchObject({ Mensagem: messages.tag.cannotActivate });

      const edit = await post(app(), d, '/api/veiculo/update', {
        vehicle_id: t.vehicleId,
        serialNumber: t.serial,
        Operadora: OPERATORS.SemParar,
        LicensePlate: t.plate,
        CpfCnpjAntt: d.cpfCnpj,
        RntrcAntt: '12345678',
        Axles: 3,
        vehicleType: 2,
      });
      expect(edit.statusCode).toBe(409);
      expect(json(edit)).toMatchObject({ Mensagem: serverMessages.tag.cannotEdit });
      expect(json(await actions.release(app(), d, t.serial))).toMatchObject({ Mensagem: messages.tag.cannotRelease });
      expect(json(await actions.remove(app(), d, t.serial))).toMatchObject({ Mensagem: messages.tag.cannotRemove });

      expect(json(await actions.block(app(), d, t.serial))).toEqual({ Sucesso: true, Mensagem: 'Tag bloqueada com sucesso!' });
      expect(await tagStatus(app(), d, t.plate)).toBe(200);
      expect((await actions.block(app(), d, t.serial)).statusCode).toBe(409);
      expect(json(await actions.release(app(), d, t.serial))).toEqual({ Sucesso: true, Mensagem: 'Tag liberada com sucesso!' });
      expect(await tagStatus(app(), d, t.plate)).toBe(100);
      expect(await feeEntries(d)).toHaveLength(1);

      const badReplace = await actions.replace(app(), d, t.serial, '1234-567');
      expect(badReplace.statusCode).toBe(422);
      expect(json(badReplace)).toMatchObject({
        Mensagem: 'Digite o número da nova Tag para substituir',
        errors: { newSerialNumber: ['Digite o número da nova Tag para substituir'] },
      });
      const fresh = newSerial();
      expect(json(await actions.replace(app(), d, t.serial, fresh))).toEqual({ Sucesso: true, Mensagem: 'Tag substituída com sucesso!' });
      expect((await actions.block(app(), d, t.serial)).statusCode).toBe(404);
      expect(json<{ Tags: { serialNumber: string; statusCode: number }[] }>(await get(app(), d, '/api/tag/listar')).Tags).toMatchObject([
        { serialNumber: fresh, statusCode: 100 },
      ]);
      // The replaced serial is cancelled by replacement at the operator: it cannot come back.
      const reuse = await post(app(), d, '/api/tag/cadastrar-tag', registrationBody(d, { serialNumber: t.serial }));
      expect(json(reuse)).toMatchObject({ Mensagem: serverMessages.tag.serialUnavailable });

      const vehicleDelete = await post(app(), d, '/api/veiculo/delete', { vehicle_id: t.vehicleId });
      expect(vehicleDelete.statusCode).toBe(409);
      expect(json(vehicleDelete)).toMatchObject({ Mensagem: serverMessages.vehicle.hasLiveTag });

      expect(json(await actions.cancel(app(), d, fresh))).toEqual({ Sucesso: true, Mensagem: 'Tag cancelada com sucesso!' });
      expect(await tagStatus(app(), d, t.plate)).toBe(300);
      expect(json(await actions.cancel(app(), d, fresh))).toMatchObject({ Mensagem: messages.tag.cannotCancel });
      expect(json(await actions.replace(app(), d, fresh, newSerial()))).toMatchObject({ Mensagem: messages.tag.cannotReplace });
      expect(json(await actions.remove(app(), d, fresh))).toEqual({ Sucesso: true, Mensagem: 'Exclusão de Tag/Veículo' });
      expect(await tagStatus(app(), d, t.plate)).toBe('none');
      expect(json<{ Veiculos: unknown[] }>(await get(app(), d, '/api/veiculo/listar')).Veiculos).toEqual([
        { id: t.vehicleId, LicensePlate: t.plate, Status: null, tag: null },
      ]);
      expect(json(await post(app(), d, '/api/veiculo/delete', { vehicle_id: String(t.vehicleId) }))).toEqual({
        Sucesso: true,
        Mensagem: 'Exclusão de Tag/Veículo',
      });
      expect((await get(app(), d, `/api/veiculo/detail/${t.plate}`)).statusCode).toBe(404);
      expect(await feeEntries(d)).toHaveLength(1);
      await expectLedgerInvariant(db());
    });

    it('checks statusId and origem of status changes', async () => {
      const d = await registerDriver(app());
      const res = await post(app(), d, '/api/tag/bloquear', { serialNumber: '', statusId: '100', origem: 'x' });
      expect(res.statusCode).toBe(422);
      expect(json<{ errors: unknown }>(res).errors).toEqual({
        serialNumber: [messages.tag.serialRequired],
        statusId: [messages.tag.statusIdInvalid],
        origem: [messages.tag.origemInvalid],
      });
      expect(
        (await post(app(), d, '/api/tag/cancelar', { serialNumber: newSerial(), statusId: '300', origem: TAG_ORIGEM })).statusCode,
      ).toBe(404);
    });

    it('edits an inactive tag (serial, plate, operator, axles) and refuses Greenpass serials there too', async () => {
      const d = await registerDriver(app());
      const t = await registerTag(app(), d);
      const plate = newPlate();
      const serial = newSerial();
      const body = {
        vehicle_id: t.vehicleId,
        serialNumber: serial,
        Operadora: OPERATORS.Veloe,
        LicensePlate: plate,
        CpfCnpjAntt: d.cpfCnpj,
        RntrcAntt: '987654321',
        Axles: '2',
        vehicleType: 1,
      };
      const greenpass = await post(app(), d, '/api/veiculo/update', { ...body, serialNumber: '5666000011112222' });
      expect(json(greenpass)).toMatchObject({ Mensagem: messages.tag.greenpassRefused });
      const invalid = await post(app(), d, '/api/veiculo/update', { vehicle_id: t.vehicleId });
      expect(json<{ errors: unknown }>(invalid).errors).toMatchObject({
        serialNumber: [messages.tag.serialRequired],
        Operadora: [messages.tag.operatorRequired],
        LicensePlate: [messages.tag.plateRequired],
        Axles: [messages.tag.axlesRequired],
      });
      const res = await post(app(), d, '/api/veiculo/update', body);
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res)).toEqual({ Sucesso: true, Mensagem: 'Sucesso!' });
      expect((await get(app(), d, `/api/veiculo/detail/${t.plate}`)).statusCode).toBe(404);
      expect(json<{ Dados: unknown }>(await get(app(), d, `/api/veiculo/detail/${plate}`)).Dados).toEqual({
        id: t.vehicleId,
        LicensePlate: plate,
        CpfCnpjAntt: d.cpfCnpj,
        RntrcAntt: '987654321',
        Axles: 2,
        vehicleType: 1,
        modelo: 'scania-r-450',
        tag: { serialNumber: serial, Operadora: OPERATORS.Veloe, statusCode: null, ownershipType: 'own' },
      });
      // The old serial left the operator: it can be registered again.
      await registerTag(app(), d, { serialNumber: t.serial });
    });

    it('operator-managed tags: only Taggy 5666 serials can be managed', async () => {
      const d = await registerDriver(app());
      await fund(app(), d, 100);
      const s = services();
      const base = {
        cnpj: d.cpfCnpj,
        invoiceGroupCode: INVOICE_GROUP_CODE,
        vehicleType: 2 as const,
        axles: 3,
        CpfCnpjAntt: d.cpfCnpj,
        RntrcAntt: '12345678',
        modelo: 'daf-xf',
      };
      const greenpass = { ...base, serialNumber: `5666${newSerial().slice(4)}`, Operadora: TAGGY, licensePlate: newPlate() };
      const foreign = { ...base, serialNumber: newSerial(), Operadora: OPERATORS.SemParar ?? '', licensePlate: newPlate() };
      await s.tags.register(driverRef(d), greenpass, 'operator');
      await s.tags.register(driverRef(d), foreign, 'operator');
      expect(await tagStatus(app(), d, greenpass.licensePlate)).toBe(201);
      expect((await actions.activate(app(), d, greenpass.serialNumber, greenpass.licensePlate)).statusCode).toBe(200);
      const refused = await actions.activate(app(), d, foreign.serialNumber, foreign.licensePlate);
      expect(refused.statusCode).toBe(403);
      expect(json(refused)).toMatchObject({ Mensagem: messages.tag.notManageable });
      expect((await actions.cancel(app(), d, foreign.serialNumber)).statusCode).toBe(403);
      expect(await tagStatus(app(), d, foreign.licensePlate)).toBe(201);
    });
  });

  describe('autorização', () => {
    it("every tag and vehicle call with another driver's serial, plate or vehicle id is 404 and changes nothing", async () => {
      const owner = await registerDriver(app());
      const intruder = await registerDriver(app());
      await fund(app(), owner, 100);
      await fund(app(), intruder, 100);
      const active = await registerTag(app(), owner);
      expect((await actions.activate(app(), owner, active.serial, active.plate)).statusCode).toBe(200);
      const blocked = await registerTag(app(), owner);
      expect((await actions.activate(app(), owner, blocked.serial, blocked.plate)).statusCode).toBe(200);
      expect((await actions.block(app(), owner, blocked.serial)).statusCode).toBe(200);
      const inactive = await registerTag(app(), owner);
      const cancelled = await registerTag(app(), owner);
      expect((await actions.cancel(app(), owner, cancelled.serial)).statusCode).toBe(200);

      const snapshot = async () => ({
        tags: await db().kysely.selectFrom('tags').selectAll().orderBy('id').execute(),
        vehicles: await db().kysely.selectFrom('vehicles').selectAll().orderBy('id').execute(),
        operator: await db().kysely.selectFrom('operator_tags').selectAll().orderBy('serial_number').execute(),
        entries: await db().kysely.selectFrom('ledger_entries').select(['id']).orderBy('id').execute(),
      });
      const before = await snapshot();
      const calls: [string, () => ReturnType<typeof post>][] = [];
      for (const t of [active, blocked, inactive, cancelled]) {
        calls.push(
          [`detail ${t.plate}`, () => get(app(), intruder, `/api/veiculo/detail/${t.plate}`)],
          ['block', () => actions.block(app(), intruder, t.serial)],
          ['release', () => actions.release(app(), intruder, t.serial)],
          ['cancel', () => actions.cancel(app(), intruder, t.serial)],
          ['activate', () => actions.activate(app(), intruder, t.serial, t.plate)],
          ['replace', () => actions.replace(app(), intruder, t.serial, newSerial())],
          ['remove', () => actions.remove(app(), intruder, t.serial)],
          ['delete vehicle', () => post(app(), intruder, '/api/veiculo/delete', { vehicle_id: t.vehicleId })],
          [
            'update',
            () =>
              post(app(), intruder, '/api/veiculo/update', {
                vehicle_id: t.vehicleId,
                serialNumber: newSerial(),
                Operadora: OPERATORS.SemParar,
                LicensePlate: newPlate(),
                CpfCnpjAntt: intruder.cpfCnpj,
                RntrcAntt: '12345678',
                Axles: 2,
                vehicleType: 1,
              }),
          ],
        );
      }
      for (const [name, call] of calls) {
        const res = await call();
        expect(res.statusCode, `${name}: ${res.body}`).toBe(404);
        expect(json(res)).toMatchObject({ Sucesso: false });
      }
      expect(await snapshot()).toEqual(before);
      expect(json<{ Tags: unknown[] }>(await get(app(), intruder, '/api/tag/listar')).Tags).toEqual([]);
      expect(json<{ Veiculos: unknown[] }>(await get(app(), intruder, '/api/veiculo/listar')).Veiculos).toEqual([]);
      expect(await ownBalance(app(), intruder)).toBe(100);
      // Without a token: 401 on every driver call.
      for (const url of ['/api/tag/listar', '/api/veiculo/listar', `/api/veiculo/detail/${active.plate}`]) {
        expect((await app().inject({ method: 'GET', url })).statusCode).toBe(401);
      }
      expect((await app().inject({ method: 'POST', url: '/api/tag/bloquear', payload: { serialNumber: active.serial } })).statusCode).toBe(
        401,
      );
    });
  });

  describe('paginação', () => {
    it('10 tags a page, newest first', async () => {
      const d = await registerDriver(app());
      const serials: string[] = [];
      for (let i = 0; i < 11; i += 1) serials.push((await registerTag(app(), d)).serial);
      const one = json<{ Tags: { serialNumber: string }[]; Paginacao: { TotalPaginas: number } }>(
        await get(app(), d, '/api/tag/listar?page=1'),
      );
      const two = json<{ Tags: { serialNumber: string }[] }>(await get(app(), d, '/api/tag/listar?page=2'));
      expect(one.Paginacao.TotalPaginas).toBe(2);
      expect(one.Tags).toHaveLength(10);
      expect(two.Tags.map((t) => t.serialNumber)).toEqual([serials[0]]);
      const vehicles = json<{ Veiculos: unknown[]; Paginacao: { TotalPaginas: number } }>(
        await get(app(), d, '/api/veiculo/listar?page=2'),
      );
      expect(vehicles.Paginacao.TotalPaginas).toBe(2);
      expect(vehicles.Veiculos).toHaveLength(1);
    });
  });

  describe('concorrência e mensalidade', () => {
    it('the same tag activated twice at once charges once', async () => {
      const d = await registerDriver(app());
      await fund(app(), d, 100);
      const t = await registerTag(app(), d);
      const results = await Promise.all([1, 2, 3].map(() => actions.activate(app(), d, t.serial, t.plate)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
      expect(await feeEntries(d)).toHaveLength(1);
      expect(await ownBalance(app(), d)).toBe(84.1);
      await expectLedgerInvariant(db());
    });

    it('billing:run charges each active tag once a month, even twice at once; short balance blocks with 204; release pays it', async () => {
      const d = await registerDriver(app());
      await fund(app(), d, 100);
      const a = await registerTag(app(), d);
      const b = await registerTag(app(), d);
      for (const t of [a, b]) expect((await actions.activate(app(), d, t.serial, t.plate)).statusCode).toBe(200);
      const billing = services().billing;
      // This month is already paid by the activation.
      await Promise.all([billing.run(), billing.run()]);
      expect(await feeEntries(d)).toHaveLength(2);

      const next = new Date(Date.now() + 35 * DAY);
      await Promise.all([billing.run(next), billing.run(next), services().billing.run(next)]);
      expect(await feeEntries(d)).toHaveLength(4);
      await billing.run(next);
      expect(await feeEntries(d)).toHaveLength(4);
      expect(await ownBalance(app(), d)).toBe(100 - 4 * 15.9);

      // A toll passage (unguarded) leaves R$ 6,40: next month's renewal cannot be paid.
      expect((await actions.block(app(), d, b.serial)).statusCode).toBe(200);
      const later = new Date(Date.now() + 70 * DAY);
      await db()
        .kysely.transaction()
        .execute(async (trx) =>
          postEntry(trx, {
            accountId: await accountId(trx, d.id, 'own'),
            amountCents: -3000,
            origin: STATEMENT_ORIGINS.passage,
            placeName: 'Praça de teste',
            idempotencyKey: `test:${d.id}:passagem`,
          }),
        );
      const report = await billing.run(later);
      expect(report).toMatchObject({ blocked: 1 });
      expect(await tagStatus(app(), d, a.plate)).toBe(204);
      expect(await tagStatus(app(), d, b.plate)).toBe(200);
      expect(await feeEntries(d)).toHaveLength(4);
      const short = await actions.release(app(), d, a.serial);
      expect(short.statusCode).toBe(422);
      expect(json(short)).toMatchObject({ Mensagem: serverMessages.tag.insufficientBalanceRelease });
      expect(await tagStatus(app(), d, a.plate)).toBe(204);
      await fund(app(), d, 100);
      expect(json(await actions.release(app(), d, a.serial))).toEqual({ Sucesso: true, Mensagem: 'Tag liberada com sucesso!' });
      expect(await tagStatus(app(), d, a.plate)).toBe(100);
      expect(await feeEntries(d)).toHaveLength(5);
      await billing.run(later);
      expect(await feeEntries(d)).toHaveLength(5);
      await expectLedgerInvariant(db());
    });
  });

  it('needs a token for the vehicle list', async () => {
    expect((await app().inject({ method: 'GET', url: '/api/veiculo/listar', headers: bearer('x') })).statusCode).toBe(401);
  });
});
