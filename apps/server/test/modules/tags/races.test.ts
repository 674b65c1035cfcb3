import { api } from '@portal/contract';
import { Refusal as DomainRefusal, serverMessages } from '@portal/domain';
import { SelectQueryNode, TableNode } from 'kysely';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { answerOf } from '../../../src/http/errors.js';
import { createLogger } from '../../../src/logger.js';
import { createServices } from '../../../src/services.js';
import { json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { snapshotDatabase } from '../../helpers/db-watch.js';
import { actions, activeTag, newPlate, newSerial, post, registerTag, registrationBody, SEMPARAR } from '../../helpers/tags.js';

type Hidden = Record<string, (row: UnknownRow) => boolean>;

/**
 * Reads of the named tables miss the rows their predicate matches, as if the transaction had read
 * them before a concurrent twin committed those rows: the write that follows then breaks the
 * unique index the twin's rows are in, on either database, every time.
 */
class ReadsBeforeTheTwin implements KyselyPlugin {
  private readonly tables = new WeakMap<QueryId, string>();

  constructor(private readonly hidden: Hidden) {}

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const from = SelectQueryNode.is(node) ? node.from?.froms[0] : undefined;
    if (from && TableNode.is(from)) this.tables.set(queryId, from.table.identifier.name);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const table = this.tables.get(queryId);
    const hide = table === undefined ? undefined : this.hidden[table];
    return hide ? { ...result, rows: result.rows.filter((row) => !hide(row)) } : result;
  }
}

interface Refusal {
  status: number;
  message: string;
  field: string;
}

const TABLES = ['vehicles', 'tags', 'operator_tags', 'tag_fee_charges', 'ledger_entries'];

describeEachDatabase('corridas em tags e veículos', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  const driverRef = (d: Registered) => ({ id: d.id, cpfCnpj: d.cpfCnpj });
  /** The tag service of a request whose reads ran before the twin committed. */
  const lateTags = (hidden: Hidden) => {
    const { db, config } = ctx();
    return createServices(
      config,
      { kysely: db.kysely.withPlugin(new ReadsBeforeTheTwin(hidden)), dialect: db.dialect },
      createLogger('silent'),
    ).tags;
  };
  const registration = (d: Registered, overrides: Record<string, unknown>) => api.registerTag.body.parse(registrationBody(d, overrides));
  const edit = (d: Registered, vehicleId: number, serialNumber: string, LicensePlate: string) =>
    api.updateVehicle.body.parse({
      vehicle_id: vehicleId,
      serialNumber,
      Operadora: SEMPARAR,
      LicensePlate,
      CpfCnpjAntt: d.cpfCnpj,
      RntrcAntt: '12345678',
      Axles: 3,
      vehicleType: 2,
    });

  const cases: [
    string,
    (d: Registered) => Promise<{ hidden: Hidden; run: (tags: ReturnType<typeof lateTags>) => Promise<void>; refusal: Refusal }>,
  ][] = [
    [
      'register: a twin registered a vehicle with this plate (vehicles_driver_plate_live)',
      async (d) => {
        const twin = await registerTag(app(), d);
        return {
          hidden: { vehicles: (r) => r.license_plate === twin.plate },
          run: (tags) => tags.register(driverRef(d), registration(d, { licensePlate: twin.plate })),
          refusal: { status: 409, message: serverMessages.tag.plateHasTag, field: 'licensePlate' },
        };
      },
    ],
    [
      "register: a twin put a tag on this plate's vehicle (tags_vehicle_live)",
      async (d) => {
        const first = await registerTag(app(), d);
        expect((await actions.remove(app(), d, first.serial)).statusCode).toBe(200);
        await registerTag(app(), d, { licensePlate: first.plate });
        return {
          hidden: { tags: (r) => r.vehicle_id === first.vehicleId },
          run: (tags) => tags.register(driverRef(d), registration(d, { licensePlate: first.plate })),
          refusal: { status: 409, message: serverMessages.tag.plateHasTag, field: 'licensePlate' },
        };
      },
    ],
    [
      "register: another driver's twin took the serial at the operator (operator_tags_pkey)",
      async (d) => {
        const other = await registerDriver(app());
        const twin = await registerTag(app(), other);
        return {
          hidden: { tags: (r) => r.driver_id === other.id, operator_tags: () => true },
          run: (tags) => tags.register(driverRef(d), registration(d, { serialNumber: twin.serial })),
          refusal: { status: 409, message: serverMessages.tag.serialUnavailable, field: 'serialNumber' },
        };
      },
    ],
    [
      'register: a twin took the serial where the operator keeps no record (tags_serial_live)',
      async (d) => {
        const other = await registerDriver(app());
        const twin = await registerTag(app(), other);
        // A remote operator's gateway keeps nothing here: only our own index sees the serial.
        await ctx().db.kysely.deleteFrom('operator_tags').where('serial_number', '=', twin.serial).execute();
        return {
          hidden: { tags: (r) => r.driver_id === other.id },
          run: (tags) => tags.register(driverRef(d), registration(d, { serialNumber: twin.serial })),
          refusal: { status: 409, message: serverMessages.tag.serialUnavailable, field: 'serialNumber' },
        };
      },
    ],
    [
      'edit: a twin gave this plate to another vehicle of the driver (vehicles_driver_plate_live)',
      async (d) => {
        const edited = await registerTag(app(), d);
        const twin = await registerTag(app(), d);
        return {
          hidden: { vehicles: (r) => r.id === twin.vehicleId },
          run: (tags) => tags.update(driverRef(d), edit(d, edited.vehicleId, edited.serial, twin.plate)),
          refusal: { status: 409, message: serverMessages.vehicle.plateTaken, field: 'LicensePlate' },
        };
      },
    ],
    [
      "replace: another driver's twin took the new serial (operator_tags_pkey)",
      async (d) => {
        const replaced = await activeTag(app(), d);
        const other = await registerDriver(app());
        const twin = await registerTag(app(), other);
        return {
          // The operator's status reads carry no serial: every read but the replaced tag's row misses.
          hidden: { tags: (r) => r.driver_id === other.id, operator_tags: (r) => r.serial_number !== replaced.serial },
          run: (tags) => tags.replace(driverRef(d), replaced.serial, twin.serial),
          refusal: { status: 409, message: serverMessages.tag.serialUnavailable, field: 'newSerialNumber' },
        };
      },
    ],
  ];

  describe('a write that loses the race answers what its checks would have, and writes nothing', () => {
    it.each(cases)('%s', async (_name, scenario) => {
      const d = await registerDriver(app());
      const { hidden, run, refusal } = await scenario(d);
      const before = await snapshotDatabase(ctx().db, TABLES);
      // The service refuses with the domain's Refusal; answerOf (http/errors.ts) is what the client then receives.
      const refused = await run(lateTags(hidden)).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DomainRefusal);
      expect(answerOf(refused as DomainRefusal)).toMatchObject({
        status: refusal.status,
        body: { Mensagem: refusal.message, errors: { [refusal.field]: [refusal.message] }, error: refusal.message },
      });
      expect(await snapshotDatabase(ctx().db, TABLES)).toBe(before);
    });
  });

  it('five registrations of each of four new plates at once: one of each registers, the others are told the vehicle already has a tag', async () => {
    const d = await registerDriver(app());
    const plates = Array.from({ length: 4 }, newPlate);
    const answers = await Promise.all(
      plates.flatMap((plate) =>
        Array.from({ length: 5 }, async () => ({
          plate,
          res: await post(app(), d, '/api/tag/cadastrar-tag', registrationBody(d, { serialNumber: newSerial(), licensePlate: plate })),
        })),
      ),
    );
    for (const plate of plates) {
      expect(
        answers
          .filter((a) => a.plate === plate)
          .map((a) => a.res.statusCode)
          .sort(),
        plate,
      ).toEqual([201, 409, 409, 409, 409]);
    }
    for (const { res } of answers.filter((a) => a.res.statusCode === 409)) {
      expect(json(res)).toEqual({
        Sucesso: false,
        Mensagem: serverMessages.tag.plateHasTag,
        errors: { licensePlate: [serverMessages.tag.plateHasTag] },
        error: serverMessages.tag.plateHasTag,
      });
    }
    const tags = await ctx()
      .db.kysely.selectFrom('tags')
      .innerJoin('vehicles', 'vehicles.id', 'tags.vehicle_id')
      .select('vehicles.license_plate')
      .where('tags.driver_id', '=', d.id)
      .execute();
    expect(tags.map((t) => t.license_plate).sort()).toEqual([...plates].sort());
  });

  it('two vehicles renamed to one new plate at once: one is, the other is told the plate is taken', async () => {
    const d = await registerDriver(app());
    const [a, b] = [await registerTag(app(), d), await registerTag(app(), d)];
    const plate = newPlate();
    const answers = await Promise.all(
      [a, b].map((t) =>
        post(app(), d, '/api/veiculo/update', {
          vehicle_id: t.vehicleId,
          serialNumber: t.serial,
          Operadora: SEMPARAR,
          LicensePlate: plate,
          CpfCnpjAntt: d.cpfCnpj,
          RntrcAntt: '12345678',
          Axles: 3,
          vehicleType: 2,
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const lost = answers.find((r) => r.statusCode === 409);
    expect(lost && json(lost)).toEqual({
      Sucesso: false,
      Mensagem: serverMessages.vehicle.plateTaken,
      errors: { LicensePlate: [serverMessages.vehicle.plateTaken] },
      error: serverMessages.vehicle.plateTaken,
    });
  });
});
