import { formatBrl } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection.js';
import { WithdrawalOutcomes } from '../modules/withdrawal/outcome.js';
import { CliFailure } from './pix.js';

/**
 * A withdrawal whose payout outcome is unknown (the provider timed out) stays PROCESSING.
 * After checking the provider's panel the operator settles it through the same outcome
 * service as the TRANSFER_* webhooks: 'done', or 'failed' (the money goes back to the driver).
 */
export async function resolveWithdrawal(db: Db, log: FastifyBaseLogger, [id, outcome, ...reasonWords]: string[]): Promise<string> {
  if (!id || (outcome !== 'done' && outcome !== 'failed')) {
    throw new CliFailure('Uso: withdrawal:resolve <id do saque> done|failed [motivo]');
  }
  const before = await db.kysely.selectFrom('withdrawals').select('status').where('id', '=', id).executeTakeFirst();
  if (!before) throw new CliFailure(`Saque não encontrado: ${id}`);
  const outcomes = new WithdrawalOutcomes(db, log);
  const reason = reasonWords.join(' ').trim() || 'a transferência não foi concluída';
  const row = outcome === 'done' ? await outcomes.done({ withdrawalId: id }) : await outcomes.failed({ withdrawalId: id }, reason);
  if (!row) throw new CliFailure(`Saque não encontrado: ${id}`);
  const amount = formatBrl(Number(row.amount_cents));
  // Only a PROCESSING withdrawal changes (the outcome service locks and checks it).
  return before.status === 'PROCESSING'
    ? `Saque ${id} (${amount}) marcado como ${row.status}.`
    : `Saque ${id} (${amount}) já estava ${row.status}; nada mudou.`;
}
