import { centsToReais, INVOICE_GROUP_CODE, maskCpfCnpj, STATEMENT_ORIGINS, vehicleTypeFor } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection.js';
import { LocalPixProvider } from '../adapters/pix/local.js';
import type { Config } from '../config.js';
import { createServices } from '../services.js';
import type { Services } from '../services.js';
import { seedDemoFleet } from './demo-fleet.js';

/** The public demo account of the README (founding architecture §3); created through the real registration. */
export const DEMO_DRIVER = {
  name: 'João Batista da Silva',
  cpfCnpj: '52998224725',
  phoneNumber: '11987654321',
  password: 'motorista123',
} as const;

/** Two paid purchases and one withdrawal, so the dashboard and the statement show something. */
const DEMO_HISTORY = { purchasesCents: [15_000, 25_000], withdrawalCents: 4_000 } as const;

export async function seedDemoDriver(db: Db, services: Services, log: FastifyBaseLogger, config: Config): Promise<void> {
  const exists = await db.kysely.selectFrom('drivers').select('id').where('cpf_cnpj', '=', DEMO_DRIVER.cpfCnpj).executeTakeFirst();
  const driverId = exists?.id ?? (await services.auth.register(DEMO_DRIVER)).driver.id;
  await seedDemoHistory(db, config, log, driverId);
  await seedDemoTags(db, services, driverId);
  await seedDemoPartnerData(db, services, driverId);
  await seedDemoFreeFlow(db, services, driverId);
  await seedDemoFleet(db, services, log, config, driverId, DEMO_DRIVER.password);
  // No log holds a whole document or a password, the public demo's neither: the README gives them.
  log.info(`Motorista de demonstração pronto: CPF ${maskCpfCnpj(DEMO_DRIVER.cpfCnpj)} (CPF e senha no README)`);
}

/**
 * Through the same services as the HTTP calls and the webhook (never raw ledger inserts), with
 * the local provider whatever PIX_PROVIDER says. Runs once: a driver with charges is left alone.
 */
async function seedDemoHistory(db: Db, config: Config, log: FastifyBaseLogger, driverId: number): Promise<void> {
  const hasHistory = await db.kysely.selectFrom('pix_charges').select('id').where('driver_id', '=', driverId).limit(1).executeTakeFirst();
  if (hasHistory) return;
  const local = createServices(config, db, log, { pixProvider: new LocalPixProvider(config.pix) });
  for (const cents of DEMO_HISTORY.purchasesCents) {
    const charge = await local.charges.create(driverId, cents);
    await local.settlement.received({ chargeId: charge.id }, centsToReais(cents));
  }
  await local.withdrawals.execute({
    driverId,
    amountCents: DEMO_HISTORY.withdrawalCents,
    keyType: 'EMAIL',
    key: 'joao.batista@example.com',
    description: 'Saque de demonstração',
  });
}

type DemoTagState = 'active' | 'blocked' | 'inactive' | 'cancelled';

/** The demo driver's trucks: one tag in each state, plus a Taggy Greenpass tag managed by the operator. */
const DEMO_VEHICLES: readonly {
  plate: string;
  serial: string;
  operator: string;
  axles: number;
  model: string;
  state: DemoTagState;
  ownership: 'own' | 'operator';
}[] = [
  {
    plate: 'RIO2A18',
    serial: '6032000011110001',
    operator: 'SemParar',
    axles: 6,
    model: 'scania-r-450',
    state: 'active',
    ownership: 'own',
  },
  {
    plate: 'BRA2E19',
    serial: '6032000011110002',
    operator: 'ConectCar',
    axles: 3,
    model: 'vw-constellation-24-280',
    state: 'blocked',
    ownership: 'own',
  },
  {
    plate: 'MGA1234',
    serial: '6032000011110003',
    operator: 'Veloe',
    axles: 2,
    model: 'mb-accelo-1016',
    state: 'inactive',
    ownership: 'own',
  },
  {
    plate: 'PRN4C56',
    serial: '6032000011110004',
    operator: 'MoveMais',
    axles: 9,
    model: 'volvo-fh-540',
    state: 'cancelled',
    ownership: 'own',
  },
  { plate: 'TGY5G66', serial: '5666000022220005', operator: 'Taggy', axles: 5, model: 'daf-xf', state: 'inactive', ownership: 'operator' },
];

/** Through the tag service (operator gateway, ledger), once: a driver who already has vehicles is left alone. */
async function seedDemoTags(db: Db, services: Services, driverId: number): Promise<void> {
  const has = await db.kysely.selectFrom('vehicles').select('id').where('driver_id', '=', driverId).limit(1).executeTakeFirst();
  if (has) return;
  const driver = { id: driverId, cpfCnpj: DEMO_DRIVER.cpfCnpj };
  for (const v of DEMO_VEHICLES) {
    await services.tags.register(
      driver,
      {
        serialNumber: v.serial,
        Operadora: services.catalogue.operatorByName(v.operator).cnpj,
        licensePlate: v.plate,
        cnpj: DEMO_DRIVER.cpfCnpj,
        invoiceGroupCode: INVOICE_GROUP_CODE,
        vehicleType: vehicleTypeFor(v.axles),
        axles: v.axles,
        CpfCnpjAntt: DEMO_DRIVER.cpfCnpj,
        RntrcAntt: DEMO_RNTRC,
        modelo: v.model,
      },
      v.ownership,
    );
    if (v.state === 'active' || v.state === 'blocked') {
      await services.tags.activate(driver, { serialNumber: v.serial, licensePlate: v.plate, cnpj: DEMO_DRIVER.cpfCnpj });
    }
    if (v.state === 'blocked') await services.tags.block(driver, v.serial);
    if (v.state === 'cancelled') await services.tags.cancel(driver, v.serial);
  }
}

/** The demo driver's RNTRC (its vehicles and the demo VPOs). */
const DEMO_RNTRC = '04521378';

/** Demo partners (their keys are never shown: create your own with partner:create). */
const DEMO_PARTNERS = {
  shipper: 'Embarcador de demonstração',
  operator: 'SemParar (demonstração)',
  platform: 'MoveMais (demonstração)',
  concessionaire: 'RioSP (demonstração)',
} as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A moment `days` and `hours` before now: partners' dates stay within the window the API accepts. */
function ago(days: number, hours = 0): string {
  return new Date(Date.now() - days * DAY - hours * HOUR).toISOString();
}

/**
 * VPOs, toll passages (one of them third-party) and third-party movements for the demo driver,
 * through the partner services, once (a driver with VPOs is left alone). Founding decision 24: VPOs and
 * passages only for the active tag, passages from a key of that tag's operator.
 */
async function seedDemoPartnerData(db: Db, services: Services, driverId: number): Promise<void> {
  const has = await db.kysely.selectFrom('vpos').select('id').where('driver_id', '=', driverId).limit(1).executeTakeFirst();
  if (has) return;
  const active = DEMO_VEHICLES.find((v) => v.state === 'active');
  if (!active) return;
  const partners = services.partners;
  const shipper = await partners.ensure('shipper', DEMO_PARTNERS.shipper);
  const operator = await partners.ensure('operator', DEMO_PARTNERS.operator, services.catalogue.operatorByName(active.operator).cnpj);
  const platform = await partners.ensure('platform', DEMO_PARTNERS.platform);
  // Issued EMITIDO, then moved along the state machine (founding decision 29) as the shipper would.
  // The trip under way began four days ago (decision 52): it pays the tag's first two passages; the
  // closed and cancelled ones gave what was left back to the shipper.
  const trip = { inicioViagem: ago(4), fimViagem: new Date(Date.now() + 6 * DAY).toISOString() };
  const vpos = [
    { externalId: 'demo-vpo-1', value: 1280.4, moves: ['EM_VIAGEM', 'ENCERRADO'], origem: 'Santos/SP', destino: 'Campinas/SP', trip: {} },
    { externalId: 'demo-vpo-2', value: 645.9, moves: ['EM_VIAGEM'], origem: 'Campinas/SP', destino: 'Uberlândia/MG', trip },
    { externalId: 'demo-vpo-3', value: 312, moves: [], origem: 'Curitiba/PR', destino: 'Joinville/SC', trip: {} },
    { externalId: 'demo-vpo-4', value: 98.5, moves: ['CANCELADO'], origem: 'Sorocaba/SP', destino: 'Santos/SP', trip: {} },
  ] as const;
  for (const [i, p] of vpos.entries()) {
    await services.vpoPushes.issue(shipper, {
      externalId: p.externalId,
      serialNumber: active.serial,
      PlacaVeiculo: active.plate,
      CpfCnpjEmbarcador: '11222333000181',
      ValorTotalVP: p.value,
      origem: p.origem,
      destino: p.destino,
      ...p.trip,
      idVpoAntt: `DEMO-2026-${String(i + 1).padStart(6, '0')}`,
      rntrc: DEMO_RNTRC,
      eixos: active.axles,
    });
    for (const status of p.moves) await services.vpos.updateStatus(shipper, p.externalId, status);
  }
  const passages = [
    { externalId: 'demo-passagem-1', place: 'Praça Itupeva (SP-348)', value: 18.9, at: ago(3, 5), third: false },
    { externalId: 'demo-passagem-2', place: 'Praça Campo Limpo (SP-348)', value: 22.4, at: ago(3, 4), third: false },
    { externalId: 'demo-passagem-3', place: 'Praça Jacareí (BR-116)', value: 31.7, at: ago(2, 2), third: true },
    // The same plaza four minutes after the second: flagged as a possible double charge (decision 56).
    { externalId: 'demo-passagem-4', place: 'Praça Campo Limpo (SP-348)', value: 22.4, at: ago(3, 4 - 4 / 60), third: false },
  ];
  for (const p of passages) {
    await services.ledgerPushes.recordPassage(operator, {
      externalId: p.externalId,
      serialNumber: active.serial,
      placeName: p.place,
      value: p.value,
      occurredAt: p.at,
      is_third: p.third,
    });
  }
  await services.ledgerPushes.recordThirdPartyMovement(platform, {
    externalId: 'demo-terceiro-1',
    cpfCnpj: DEMO_DRIVER.cpfCnpj,
    origin: STATEMENT_ORIGINS.thirdPartyCredit,
    value: 120,
    placeName: 'Crédito MoveMais',
    occurredAt: ago(5),
  });
  await services.ledgerPushes.recordThirdPartyMovement(platform, {
    externalId: 'demo-terceiro-2',
    cpfCnpj: DEMO_DRIVER.cpfCnpj,
    origin: STATEMENT_ORIGINS.thirdPartyDebit,
    value: 45.5,
    placeName: 'Débito MoveMais',
    occurredAt: ago(1, 6),
  });
}

/**
 * Decision 76: the active tag's plate opted in to free-flow tolls (paid by hand), and three tolls
 * from a concessionaire: one paid, one open, one flagged (the tag paid the same place minutes
 * before). Once: a driver with tolls is left alone.
 */
async function seedDemoFreeFlow(db: Db, services: Services, driverId: number): Promise<void> {
  const has = await db.kysely.selectFrom('free_flow_tolls').select('id').where('driver_id', '=', driverId).limit(1).executeTakeFirst();
  if (has) return;
  const active = DEMO_VEHICLES.find((v) => v.state === 'active');
  const vehicle = active
    ? await db.kysely
        .selectFrom('vehicles')
        .select('id')
        .where('driver_id', '=', driverId)
        .where('license_plate', '=', active.plate)
        .executeTakeFirst()
    : undefined;
  if (!active || !vehicle) return;
  await services.freeFlow.choose(driverId, { veiculoId: vehicle.id, ativo: true, automatico: false });
  const concessionaire = await services.partners.ensure('concessionaire', DEMO_PARTNERS.concessionaire);
  const toll = { placa: active.plate, rodovia: 'BR-116', sentido: 'São Paulo', eixos: active.axles };
  await services.freeFlow.push(concessionaire.id, [
    { ...toll, externalId: 'demo-livre-1', portico: 'Pórtico Arujá', km: 204.5, valor: 8.4, occurredAt: ago(6, 3) },
    { ...toll, externalId: 'demo-livre-2', portico: 'Pórtico Guarulhos', km: 215.2, valor: 12.75, occurredAt: ago(2, 3) },
    // Three minutes after the tag's passage at the same place: flagged, not paid automatically.
    { ...toll, externalId: 'demo-livre-3', portico: 'Praça Jacareí (BR-116)', km: 162, valor: 31.7, occurredAt: ago(2, 2 - 3 / 60) },
  ]);
  const paid = await db.kysely
    .selectFrom('free_flow_tolls')
    .select('id')
    .where('driver_id', '=', driverId)
    .where('external_id', '=', 'demo-livre-1')
    .executeTakeFirst();
  if (paid) await services.freeFlow.pay(driverId, paid.id);
}
