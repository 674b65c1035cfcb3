import { serverMessages } from '@portal/domain';
import { api } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { driverRoute } from '../../http/route.js';
import { balancesInReais, sessionWithBalances } from './service.js';

export function balanceRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  driverRoute(app, api.balance, async ({ driver }) => ({ Sucesso: true, Mensagem: serverMessages.balance.ok, ...balancesInReais(driver) }), {
    session: sessionWithBalances(db),
  });
}
