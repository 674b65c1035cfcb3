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
    // The session's own statement read the person's balances; on a company's account (decision 77), the company's.
    async ({ driver, acting }) => ({
      Sucesso: true,
      Mensagem: serverMessages.balance.ok,
      ...balancesInReais(driver.id === acting.person.id ? driver : await balance.of(driver)),
    }),
    {
      session: balance.session,
    },
  );
}
