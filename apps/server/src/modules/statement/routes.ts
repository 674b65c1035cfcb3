import { api } from '@portal/contract';
import { messages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { driverRoute } from '../../http/route.js';
import { statementPage } from './service.js';

export function statementRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  driverRoute(app, api.statement, async ({ driver, query }) => {
    const page = await statementPage(db, driver.id, query.page);
    return {
      Sucesso: true,
      Mensagem: messages.statement.ok,
      Transacoes: page.transactions,
      Paginacao: { TotalPaginas: page.totalPages },
    };
  });
}
