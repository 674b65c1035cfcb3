import { api } from '@portal/contract';
import { dualControlMessages, formatBrl, refuse, serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../http/route.js';
import type { WithdrawalEligibility } from './eligibility.js';
import type { WithdrawalResult, WithdrawalService } from './service.js';
import type { WithdrawalApprovals } from './approvals.js';
import { payoutFailedMessage } from './service.js';

export function withdrawalRoutes(
  app: FastifyInstance,
  eligibility: WithdrawalEligibility,
  withdrawals: WithdrawalService,
  approvals: WithdrawalApprovals,
): void {
  // An answer, not an error: the screen shows a refusal's Mensagem in a red alert (spec §2), and
  // offers the terms when the refusal's code says they are the reason (issue 25).
  driverRoute(app, api.withdrawalEligibility, async ({ driver }) => {
    const refusal = await eligibility.refusal(driver.id);
    return refusal ? { Sucesso: false, ...refusal } : { Sucesso: true, Mensagem: serverMessages.withdrawal.allowed };
  });

  driverRoute(app, api.withdraw, async ({ driver, acting, body }) => {
    // On a company's account the password that confirms a new key is the acting Gestor's own (decision 77).
    const order = await withdrawals.prepare(driver, body, acting.person.id);
    if (await approvals.needsApproval(driver, order.amountCents)) {
      const id = await approvals.ask(order, acting.person.id);
      return {
        Sucesso: true,
        Mensagem: dualControlMessages.waiting(formatBrl(order.amountCents)),
        status: 'AGUARDANDO_APROVACAO' as const,
        aprovacaoId: id,
      };
    }
    return answerOf(await withdrawals.execute(order));
  });

  driverRoute(app, api.withdrawalApprovals, async ({ driver, acting }) => {
    const found = await approvals.list(driver.id, acting.person.id);
    return { Sucesso: true, Mensagem: dualControlMessages.listOk, ...found.threshold, Saques: found.rows };
  });

  driverRoute(app, api.setApprovalThreshold, async ({ driver, acting, body }) => {
    const changed = await approvals.set(driver, body.valor);
    const found = await approvals.list(driver.id, acting.person.id);
    return { Sucesso: true, Mensagem: changed.message, ...changed.threshold, Saques: found.rows };
  });

  driverRoute(app, api.approveWithdrawal, async ({ driver, acting, params }) => {
    const result = await approvals.approve(driver, params.id, acting.person.id);
    const answer = answerOf(result);
    return { ...answer, Mensagem: result.status === 'DONE' ? dualControlMessages.approved : dualControlMessages.approvedProcessing };
  });

  driverRoute(app, api.declineWithdrawal, async ({ driver, acting, params }) => {
    await approvals.decline(driver.id, params.id, acting.person.id);
    return { Sucesso: true, Mensagem: dualControlMessages.declined };
  });
}

/** A withdrawal's answer (spec §7): a failed payout is the provider's refusal, with its reason. */
function answerOf(result: WithdrawalResult) {
  if (result.status === 'FAILED') throw refuse.providerFailed(payoutFailedMessage(result.reason), { echo: true });
  return {
    Sucesso: true,
    Mensagem: result.status === 'DONE' ? serverMessages.withdrawal.done : serverMessages.withdrawal.processing,
    withdrawalId: result.withdrawalId,
    status: result.status,
  };
}
