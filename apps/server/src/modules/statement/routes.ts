import { api } from '@portal/contract';
import { messages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { driverFileRoute, driverRoute } from '../../http/route.js';
import { statementExport } from './export.js';
import { statementPage } from './service.js';

export interface StatementRoutesOptions {
  /** The clock the periods are read with ('este-mes'); tests pin it. */
  now?: () => Date;
}

export function statementRoutes(app: FastifyInstance, db: Kysely<Database>, options: StatementRoutesOptions = {}): void {
  const now = options.now ?? (() => new Date());
  driverRoute(app, api.statement, async ({ driver, query }) => {
    const { page: pageNumber, ...filters } = query;
    const page = await statementPage(db, driver.id, pageNumber, filters, now());
    return {
      Sucesso: true,
      Mensagem: messages.statement.ok,
      Transacoes: page.transactions,
      Paginacao: { TotalPaginas: page.totalPages },
    };
  });
  // Only the signed-in driver's id reaches the export: another driver's rows cannot be asked for.
  driverFileRoute(app, api.statementExport, async ({ driver, query }) => {
    const { formato, ...filters } = query;
    return statementExport(db, driver.id, formato, filters, now());
  });
}
