import { dualControlMessages, refuse } from '@portal/domain';
import type { Trx } from '../../db/connection.js';

/**
 * Decision 77: the pending withdrawal becomes approved, by a person other than who asked, before it
 * expires, once: inside the withdrawal's own transaction, so that two approvals at once, or an
 * approval racing a refusal, move the money once or not at all.
 */
export async function claimApproval(trx: Trx, approval: { id: number; decidedBy: number }, withdrawalId: string, now: Date): Promise<void> {
  const claimed = await trx
    .updateTable('withdrawal_approvals')
    .set({ state: 'APROVADO', decided_by: approval.decidedBy, decided_at: now.toISOString(), withdrawal_id: withdrawalId })
    .where('id', '=', approval.id)
    .where('state', '=', 'PENDENTE')
    .where('expires_at', '>', now.toISOString())
    .where('requested_by', '<>', approval.decidedBy)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw refuse.conflict(dualControlMessages.notFound);
}
