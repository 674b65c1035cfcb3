import { formatCpfCnpj } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './connection.js';
import type { Services } from '../services.js';

/** The public demo account of the README (ARCHITECTURE 3); created through the real registration. */
export const DEMO_DRIVER = {
  name: 'João Batista da Silva',
  cpfCnpj: '52998224725',
  phoneNumber: '11987654321',
  password: 'motorista123',
} as const;

export async function seedDemoDriver(db: Db, services: Services, log: FastifyBaseLogger): Promise<void> {
  const exists = await db.kysely
    .selectFrom('drivers')
    .select('id')
    .where('cpf_cnpj', '=', DEMO_DRIVER.cpfCnpj)
    .executeTakeFirst();
  if (!exists) await services.auth.register(DEMO_DRIVER);
  // The only password ever logged: the public demo one.
  log.info(`Motorista de demonstração: CPF ${formatCpfCnpj(DEMO_DRIVER.cpfCnpj)}, senha ${DEMO_DRIVER.password}`);
}
