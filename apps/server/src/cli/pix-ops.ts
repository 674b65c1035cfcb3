import type { FastifyBaseLogger } from 'fastify';
import { createPixProvider } from '../adapters/pix/index.js';
import type { PixProvider } from '../adapters/pix/port.js';
import { PixProviderUnavailable } from '../adapters/pix/port.js';
import { cycleCharges } from '../modules/pix-automatic/cycle-charges.js';
import { ContradictionService } from '../modules/pix/contradictions.js';
import { ProviderTruth } from '../modules/pix/provider-truth.js';
import type { Config } from '../config.js';
import { toIso } from '../db/connection.js';
import type { Db } from '../db/connection.js';
import { ChargeExpiry } from '../modules/pix/expiry.js';
import { PixReconciler } from '../modules/pix/reconcile.js';
import { SettlementService } from '../modules/pix/settlement.js';
import { WebhookEventLog } from '../modules/pix/webhook-events.js';
import { WithdrawalOutcomes } from '../modules/withdrawal/outcome.js';
import { CliFailure } from './pix.js';

/** pix:events: the provider events answered 200 but not applied, oldest first. */
export async function listWebhookEvents(db: Db): Promise<string> {
  const rows = await new WebhookEventLog(db.kysely).open();
  if (rows.length === 0) return 'Nenhum evento do Asaas pendente de análise.';
  const lines = rows.map((r) => `#${r.id}  ${toIso(r.created_at)}  ${r.event}  ${r.provider_ref ?? '-'}  ${r.reason}\n      ${r.excerpt}`);
  return `${rows.length} evento(s) do Asaas pendente(s) de análise (nenhum alterou saldo):\n${lines.join('\n')}\n\nDepois de tratar no painel do Asaas: pix:events:resolve <id> [nota].`;
}

/** pix:events:resolve <id> [note]: the operator dealt with it; open -> resolved, once. */
export async function resolveWebhookEvent(db: Db, [id, ...noteWords]: string[]): Promise<string> {
  const n = Number(id);
  if (!id || !Number.isSafeInteger(n) || n <= 0) throw new CliFailure('Uso: pix:events:resolve <id do evento> [nota]');
  const log = new WebhookEventLog(db.kysely);
  const row = await log.get(n);
  if (!row) throw new CliFailure(`Evento não encontrado: ${id}`);
  const note = noteWords.join(' ').trim() || 'resolvido pelo operador';
  if (!(await log.resolve(n, note))) return `Evento #${n} já estava resolvido; nada mudou.`;
  return `Evento #${n} (${row.event}) marcado como resolvido: ${note}.`;
}

/** pix:reconcile: asks the provider and applies what it learns (idempotent). */
export async function reconcilePix(
  config: Config,
  db: Db,
  log: FastifyBaseLogger,
  provider: PixProvider = createPixProvider(config.pix),
): Promise<string> {
  const reconciler = new PixReconciler(
    db,
    provider,
    new SettlementService(db, log, cycleCharges),
    new WithdrawalOutcomes(db, log),
    new ChargeExpiry(db.kysely, provider, log),
    new WebhookEventLog(db.kysely),
    log,
  );
  const report = await reconciler.run();
  const summary = `Reconciliação com o provedor ${provider.name}: ${report.changed} atualização(ões), ${report.waiting} aguardando o operador, ${report.unreachable} sem resposta do provedor, ${report.contradictions} contradição(ões) com o provedor.`;
  return [...report.lines, summary].join('\n');
}

/**
 * pix:contradiction:apply <id do saque ou da cobrança>: asks the provider again and applies its word
 * to a settled withdrawal or charge through the ledger, once (decision 60).
 */
export async function applyContradiction(
  config: Config,
  db: Db,
  log: FastifyBaseLogger,
  [id]: string[],
  provider: PixProvider = createPixProvider(config.pix),
): Promise<string> {
  if (!id) throw new CliFailure('Uso: pix:contradiction:apply <id do saque ou da cobrança>');
  const service = new ContradictionService(db, new ProviderTruth(provider), new WebhookEventLog(db.kysely), log);
  const outcome = await service.apply(id).catch((error: unknown) => {
    if (error instanceof PixProviderUnavailable)
      throw new CliFailure(`O provedor não respondeu; nada aplicado. Tente novamente. (${error.message})`);
    throw error;
  });
  if (outcome.result === 'refused') throw new CliFailure(outcome.message);
  return outcome.message;
}
