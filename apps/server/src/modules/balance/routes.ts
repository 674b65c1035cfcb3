import { serverMessages } from '@portal/domain';
import { api } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../http/route.js';
import type { BalanceService } from './service.js';
import { balancesInReais } from './service.js';

export function balanceRoutes(app: FastifyInstance, balance: BalanceService): void {
  driverRoute(
    app,
    api.balance,
    async ({ driver }) => ({ Sucesso: true, Mensagem: serverMessages.balance.ok, ...balancesInReais(driver) }),
    {
      session: balance.session,
    },
  );
}
