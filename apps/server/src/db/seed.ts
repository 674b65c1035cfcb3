import { centsToReais, formatCpfCnpj } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './connection.js';
import { LocalPixProvider } from '../adapters/pix/local.js';
import type { Config } from '../config.js';
import { createServices } from '../services.js';
import type { Services } from '../services.js';

/** The public demo account of the README (ARCHITECTURE 3); created through the real registration. */
export const DEMO_DRIVER = {
  name: 'João Batista da Silva',
  cpfCnpj: '52998224725',
  phoneNumber: '11987654321',
  password: 'motorista123',
} as const;

/** Two paid purchases and one withdrawal, so the dashboard and the statement show something. */
export const DEMO_HISTORY = { purchasesCents: [15_000, 25_000], withdrawalCents: 4_000 } as const;

export async function seedDemoDriver(db: Db, services: Services, log: FastifyBaseLogger, config: Config): Promise<void> {
  const exists = await db.kysely
    .selectFrom('drivers')
    .select('id')
    .where('cpf_cnpj', '=', DEMO_DRIVER.cpfCnpj)
    .executeTakeFirst();
  const driverId = exists?.id ?? (await services.auth.register(DEMO_DRIVER)).driver.id;
  await seedDemoHistory(db, config, log, driverId);
  // The only password ever logged: the public demo one.
  log.info(`Motorista de demonstração: CPF ${formatCpfCnpj(DEMO_DRIVER.cpfCnpj)}, senha ${DEMO_DRIVER.password}`);
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
