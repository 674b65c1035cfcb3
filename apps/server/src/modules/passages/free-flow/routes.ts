import { api } from '@portal/contract';
import { freeFlowMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../../http/route.js';
import type { FreeFlowService } from './service.js';

/** Decision 76: the driver's free-flow tolls, paying them, and the plates' consent. Contests are in modules/contests, proofs in modules/receipts. */
export function freeFlowRoutes(app: FastifyInstance, freeFlow: FreeFlowService): void {
  driverRoute(app, api.freeFlowTolls, async ({ driver, acting, query }) => {
    const page = await freeFlow.list(driver.id, query, acting.vehicleIds);
    return {
      Sucesso: true,
      Mensagem: freeFlowMessages.listOk,
      Debitos: page.tolls,
      Paginacao: { TotalPaginas: page.totalPages },
      Resumo: page.summary,
    };
  });

  driverRoute(app, api.payFreeFlowToll, async ({ driver, params }) => {
    const paid = await freeFlow.pay(driver.id, params.id);
    return { Sucesso: true, Mensagem: paid.message, Debito: paid.toll };
  });

  driverRoute(app, api.freeFlowPlates, async ({ driver, acting }) => ({
    Sucesso: true,
    Mensagem: freeFlowMessages.platesOk,
    Placas: await freeFlow.plates(driver.id, acting.vehicleIds),
  }));

  driverRoute(app, api.setFreeFlowPlates, async ({ driver, body }) => ({
    Sucesso: true,
    Mensagem: body.ativo ? freeFlowMessages.optedIn : freeFlowMessages.optedOut,
    Placas: await freeFlow.choose(driver.id, body),
  }));
}
