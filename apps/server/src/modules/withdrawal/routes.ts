import { api } from '@portal/contract';
import { refuse, serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../http/route.js';
import type { WithdrawalEligibility } from './eligibility.js';
import type { WithdrawalService } from './service.js';
import { payoutFailedMessage } from './service.js';

export function withdrawalRoutes(app: FastifyInstance, eligibility: WithdrawalEligibility, withdrawals: WithdrawalService): void {
  // An answer, not an error: the screen shows a refusal's Mensagem in a red alert (spec §2), and
  // offers the terms when the refusal's code says they are the reason (issue 25).
  driverRoute(app, api.withdrawalEligibility, async ({ driver }) => {
    const refusal = await eligibility.refusal(driver.id);
    return refusal ? { Sucesso: false, ...refusal } : { Sucesso: true, Mensagem: serverMessages.withdrawal.allowed };
  });

  driverRoute(app, api.withdraw, async ({ driver, body }) => {
    const result = await withdrawals.request(driver, body);
    if (result.status === 'FAILED') {
      throw refuse.providerFailed(payoutFailedMessage(result.reason), { echo: true });
    }
    return {
      Sucesso: true,
      Mensagem: result.status === 'DONE' ? serverMessages.withdrawal.done : serverMessages.withdrawal.processing,
      withdrawalId: result.withdrawalId,
      status: result.status,
    };
  });
}
