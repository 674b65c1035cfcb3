import { formatBrl } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { PixProvider } from '../adapters/pix/port.js';
import { PixProviderUnavailable } from '../adapters/pix/port.js';
import type { Db } from '../db/connection.js';
import { ProviderTruth } from '../modules/pix/provider-truth.js';
import { WithdrawalOutcomes } from '../modules/withdrawal/outcome.js';
import { CliFailure } from './pix.js';

/**
 * A withdrawal whose payout outcome is unknown (the provider timed out) stays PROCESSING.
 * After checking the provider's panel the operator settles it through the same outcome
 * service as the TRANSFER_* webhooks: 'done', or 'failed' (the money goes back to the driver).
 * Decision 60: 'failed' first asks the provider for the withdrawal's transfer (by the stored id, or
 * by its externalReference) and refuses while the provider holds one pending or done.
 */
export async function resolveWithdrawal(
  db: Db,
  log: FastifyBaseLogger,
  [id, outcome, ...reasonWords]: string[],
  provider: PixProvider,
): Promise<string> {
  if (!id || (outcome !== 'done' && outcome !== 'failed')) {
    throw new CliFailure('Uso: withdrawal:resolve <id do saque> done|failed [motivo]');
  }
  const before = await db.kysely.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst();
  if (!before) throw new CliFailure(`Saque não encontrado: ${id}`);
  if (outcome === 'failed' && before.status === 'PROCESSING') await assertNotHeld(provider, before);
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

/** Giving the money back is allowed only when the provider holds no transfer of it that paid or may still pay. */
async function assertNotHeld(provider: PixProvider, w: Parameters<ProviderTruth['transferOf']>[0]): Promise<void> {
  const refuse = (why: string) => new CliFailure(`Saque ${w.id} não marcado como falho: ${why}. Nada mudou.`);
  let verdict;
  try {
    verdict = await new ProviderTruth(provider).transferOf(w);
  } catch (error) {
    if (error instanceof PixProviderUnavailable) throw refuse(`não foi possível consultar o provedor (${error.message}); tente novamente`);
    throw error;
  }
  switch (verdict.kind) {
    case 'done':
      throw refuse(`o provedor concluiu a transferência ${verdict.transfer.id} (DONE); use withdrawal:resolve ${w.id} done`);
    case 'in-progress':
      throw refuse(
        `o provedor ainda processa a transferência ${verdict.transfer.id} (${verdict.transfer.status}); aguarde o TRANSFER_* ou rode pix:reconcile`,
      );
    case 'unclear':
      throw refuse(verdict.why);
    case 'failed':
    case 'no-record':
      return;
  }
}
