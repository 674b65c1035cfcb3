import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../http/route.js';
import type { AttentionService } from './service.js';

/** GET /api/motorista/avisos (issue 12): what needs attention, and the last movements. */
export function attentionRoutes(app: FastifyInstance, attention: AttentionService): void {
  driverRoute(app, api.attention, async ({ driver }) => {
    const { notices, lastMovements } = await attention.forDriver(driver.id);
    return { Sucesso: true, Mensagem: serverMessages.attention.ok, Avisos: notices, UltimasMovimentacoes: lastMovements };
  });
}
