import { centsToReais, INVOICE_GROUP_CODE, sinceSaoPauloMonthStart, vehicleTypeFor } from '@portal/domain';
import type { FleetRole } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { LocalPixProvider } from '../adapters/pix/local.js';
import type { Config } from '../config.js';
import { actingOnOwn } from '../modules/fleet/access.js';
import { budgetTrail } from '../modules/fleet/budget-trail.js';
import { createServices } from '../services.js';
import type { Services } from '../services.js';

/** Decision 77: the demo carrier. Its own login's password is random and never shown: its people use theirs. */
export const DEMO_COMPANY = { name: 'Transportes Demonstração Ltda', cpfCnpj: '45723174000110', phoneNumber: '11933334444' } as const;

/** Its people besides the demo driver (its Gestor); the README gives their password, the demo driver's. */
export const DEMO_MEMBERS: readonly { name: string; cpfCnpj: string; role: FleetRole; plates: readonly string[] }[] = [
  { name: 'Fernanda Lima', cpfCnpj: '39053344705', role: 'financeiro', plates: [] },
  { name: 'Carlos Souza', cpfCnpj: '71428793860', role: 'motorista', plates: ['FRT1A11', 'FRT2B22'] },
  { name: 'Marcos Pereira', cpfCnpj: '87748248800', role: 'motorista', plates: ['FRT3C33'] },
];

/** Its two cost centres, and the trucks in each. */
const DEMO_COST_CENTRES = [
  { nome: 'Operação Sul', codigo: 'OP-SUL' },
  { nome: 'Operação Sudeste', codigo: 'OP-SUDESTE' },
] as const;

const DEMO_FLEET_TRUCKS = [
  { plate: 'FRT1A11', serial: '6000100000000011', axles: 6, model: 'scania-r-450', centre: 'OP-SUL' },
  { plate: 'FRT2B22', serial: '6000100000000022', axles: 5, model: 'volvo-fh-540', centre: 'OP-SUL' },
  { plate: 'FRT3C33', serial: '6000100000000033', axles: 3, model: 'mb-actros-2651', centre: 'OP-SUDESTE' },
  { plate: 'FRT4D44', serial: '6000100000000044', axles: 7, model: 'daf-xf', centre: 'OP-SUDESTE' },
] as const;

/** Monthly budgets: FRT1A11's passage (R$ 42,60) takes it past 80 %; FRT3C33's tag is blocked at 100 %. */
const DEMO_BUDGETS = [
  { plate: 'FRT1A11', valor: 50, bloquearNoLimite: false },
  { plate: 'FRT3C33', valor: 800, bloquearNoLimite: true },
] as const;

/**
 * The demo carrier, once (a company with members is left alone): the demo driver is its Gestor; a
 * Financeiro and two Motoristas with their trucks assigned; four trucks in two cost centres, active tags, R$ 2.000,00
 * bought by Pix, two monthly budgets, and a passage on each Motorista's first truck. Through the services, never raw inserts.
 */
export async function seedDemoFleet(
  db: Db,
  services: Services,
  log: FastifyBaseLogger,
  config: Config,
  gestorId: number,
  password: string,
): Promise<void> {
  const existing = await db.kysely.selectFrom('drivers').select('id').where('cpf_cnpj', '=', DEMO_COMPANY.cpfCnpj).executeTakeFirst();
  if (existing) return;
  const companyPassword = randomBytes(24).toString('base64url');
  const company = (await services.auth.register({ ...DEMO_COMPANY, password: companyPassword })).driver;
  const holder = actingOnOwn({ id: company.id, name: DEMO_COMPANY.name, cpfCnpj: DEMO_COMPANY.cpfCnpj });
  const origin = { acting: holder, address: '127.0.0.1' };

  const join = async (person: { id: number; name: string; cpfCnpj: string }, role: FleetRole) => {
    const member = await services.members.invite(company.id, origin, person.cpfCnpj, role);
    await services.members.answer(person, member.id, true, '127.0.0.1');
    return member.id;
  };
  const gestor = await db.kysely
    .selectFrom('drivers')
    .select(['id', 'name', 'cpf_cnpj'])
    .where('id', '=', gestorId)
    .executeTakeFirstOrThrow();
  await join({ id: gestor.id, name: gestor.name, cpfCnpj: gestor.cpf_cnpj }, 'gestor');

  const driver = { id: company.id, cpfCnpj: DEMO_COMPANY.cpfCnpj };
  const local = createServices(config, db, log, { pixProvider: new LocalPixProvider(config.pix) });
  const charge = await local.charges.create(company.id, 200_000);
  await local.settlement.received({ chargeId: charge.id }, centsToReais(200_000));
  const operator = services.catalogue.operatorByName('SemParar').cnpj;
  const centres = new Map<string, number>();
  for (const c of DEMO_COST_CENTRES) centres.set(c.codigo, (await services.costCentres.create(company.id, origin, c)).id);
  const vehicles = new Map<string, number>();
  for (const t of DEMO_FLEET_TRUCKS) {
    await services.tags.register(driver, {
      serialNumber: t.serial,
      Operadora: operator,
      licensePlate: t.plate,
      cnpj: DEMO_COMPANY.cpfCnpj,
      invoiceGroupCode: INVOICE_GROUP_CODE,
      vehicleType: vehicleTypeFor(t.axles),
      axles: t.axles,
      CpfCnpjAntt: DEMO_COMPANY.cpfCnpj,
      RntrcAntt: '04521379',
      modelo: t.model,
    });
    const row = await db.kysely
      .selectFrom('vehicles')
      .select('id')
      .where('driver_id', '=', company.id)
      .where('license_plate', '=', t.plate)
      .executeTakeFirstOrThrow();
    vehicles.set(t.plate, row.id);
    // In its centre before its first fee: each entry keeps the centre it was posted to (decision 79).
    await services.costCentres.setVehicle(company.id, origin, row.id, centres.get(t.centre) ?? null);
    await services.tags.activate(driver, { serialNumber: t.serial, licensePlate: t.plate, cnpj: DEMO_COMPANY.cpfCnpj });
  }

  for (const m of DEMO_MEMBERS) {
    const existingPerson = await db.kysely
      .selectFrom('drivers')
      .select(['id', 'name'])
      .where('cpf_cnpj', '=', m.cpfCnpj)
      .executeTakeFirst();
    const person =
      existingPerson ?? (await services.auth.register({ name: m.name, cpfCnpj: m.cpfCnpj, phoneNumber: '11955556666', password })).driver;
    const memberId = await join({ id: person.id, name: person.name, cpfCnpj: m.cpfCnpj }, m.role);
    for (const plate of m.plates) {
      const vehicleId = vehicles.get(plate);
      if (vehicleId === undefined) continue;
      const assigned = await db.kysely.selectFrom('vehicle_drivers').select('member_id').where('vehicle_id', '=', vehicleId).execute();
      await services.members.assign(company.id, origin, vehicleId, [...assigned.map((a) => a.member_id), memberId]);
    }
  }

  // Decision 78: two trucks with a monthly budget, one of which its passage takes past 80 %.
  for (const b of DEMO_BUDGETS) {
    const vehicleId = vehicles.get(b.plate);
    if (vehicleId !== undefined)
      await services.vehicleBudgets.set(company.id, vehicleId, b, budgetTrail(services.audit, company.id, holder, '127.0.0.1'));
  }

  const partner = await services.partners.ensure('operator', 'SemParar (demonstração)', operator);
  const passages = [
    { plate: 'FRT1A11', place: 'Praça Pedágio Registro (BR-116)', value: 42.6, hoursAgo: 20 },
    { plate: 'FRT3C33', place: 'Praça Pedágio Itatiba (SP-065)', value: 17.8, hoursAgo: 9 },
  ];
  // Within this month, whose budget they count against: on its first day, closer together.
  const now = Date.now();
  const squeeze = Math.min(1, sinceSaoPauloMonthStart(new Date(now)) / (Math.max(...passages.map((p) => p.hoursAgo)) * 3_600_000));
  for (const p of passages) {
    const truck = DEMO_FLEET_TRUCKS.find((t) => t.plate === p.plate);
    if (!truck) continue;
    await services.ledgerPushes.recordPassage(partner, {
      externalId: `demo-frota-${p.plate}`,
      serialNumber: truck.serial,
      placeName: p.place,
      value: p.value,
      occurredAt: new Date(now - p.hoursAgo * 3_600_000 * squeeze).toISOString(),
      is_third: false,
    });
  }
  log.info(`Empresa de demonstração pronta: ${DEMO_COMPANY.name}, com Gestor, Financeiro e dois Motoristas (no README)`);
}
