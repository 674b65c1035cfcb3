import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors.js';
import { driverRoute } from '../../http/route.js';
import type { WithdrawalEligibility } from './eligibility.js';
import type { WithdrawalService } from './service.js';
import { payoutFailedMessage } from './service.js';

export function withdrawalRoutes(app: FastifyInstance, eligibility: WithdrawalEligibility, withdrawals: WithdrawalService): void {
  // An answer, not an error: the screen shows a refusal's Mensagem in a red alert (SPEC 2).
  driverRoute(app, api.withdrawalEligibility, async ({ driver }) => {
    const refusal = await eligibility.refusal(driver.id);
    return refusal ? { Sucesso: false, Mensagem: refusal } : { Sucesso: true, Mensagem: serverMessages.withdrawal.allowed };
  });

  driverRoute(app, api.withdraw, async ({ driver, body }) => {
    const result = await withdrawals.request(driver, body);
    if (result.status === 'FAILED') {
      const message = payoutFailedMessage(result.reason);
      throw new HttpError(502, message, undefined, message);
    }
    return {
      Sucesso: true,
      Mensagem: result.status === 'DONE' ? serverMessages.withdrawal.done : serverMessages.withdrawal.processing,
      withdrawalId: result.withdrawalId,
      status: result.status,
    };
  });
}
