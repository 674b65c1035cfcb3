import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { driverRoute } from '../../http/route.js';
import { statementPage } from '../statement/service.js';
import { attentionNotices } from './service.js';

/** The three newest statement entries the dashboard shows. */
const LAST_MOVEMENTS = 3;

/** GET /api/motorista/avisos (issue 12): what needs attention, and the last movements. */
export function attentionRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  driverRoute(app, api.attention, async ({ driver }) => {
    const [notices, page] = await Promise.all([attentionNotices(db, driver.id), statementPage(db, driver.id, 1)]);
    return {
      Sucesso: true,
      Mensagem: serverMessages.attention.ok,
      Avisos: notices,
      UltimasMovimentacoes: page.transactions.slice(0, LAST_MOVEMENTS),
    };
  });
}
