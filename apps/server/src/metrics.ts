import { STATEMENT_ORIGINS } from '@portal/domain';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const KNOWN_ORIGINS: ReadonlySet<string> = new Set(Object.values(STATEMENT_ORIGINS));

/** Sign-in refusals: wrong CPF/CNPJ or password (401), or too many attempts (429). */
export type LoginRefusal = 'invalid_credentials' | 'throttled';

/** What happened to one Pix webhook call, as its answer says. */
export type WebhookOutcome = 'processed' | 'unauthorized' | 'rate_limited' | 'rejected' | 'failed';

export type BillingOutcome = 'charged' | 'blocked' | 'skipped';

/**
 * Decision 57, per push request: delivered, failed (to be retried) or gone (404/410: the device's
 * subscription is deleted); per notification: given up after the last attempt, or no device to send to.
 */
export type PushOutcome = 'sent' | 'failed' | 'gone' | 'gave_up' | 'no_subscription';

/**
 * The Prometheus metrics of one app, prom-client's counters and histogram in its own registry
 * (tests build many apps in one process), incremented where the event happens. Label values come
 * from closed sets (routes are patterns, never raw URLs), so the number of series stays bounded.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDurations: Histogram<'method' | 'route'>;
  private readonly ledgerMovements: Counter<'origin'>;
  private readonly webhookEvents: Counter<'outcome'>;
  private readonly webhookResults: Counter<'result' | 'reason'>;
  private readonly transferValidations: Counter<'result' | 'reason'>;
  private readonly loginRefusals: Counter<'reason'>;
  private readonly billingRuns: Counter;
  private readonly billingTags: Counter<'outcome'>;
  private readonly contestEvents: Counter<'event'>;
  private readonly pushResults: Counter<'outcome'>;
  private readonly contradictions: Counter<'kind'>;
  private readonly retentionRuns: Counter<'outcome'>;
  private readonly retentionRows: Counter<'kind'>;
  private overdueContests: (() => Promise<number>) | null = null;
  private openContradictions: (() => Promise<number>) | null = null;

  /** processMetrics: CPU, memory, event loop lag, handles (the server; not the CLI). */
  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'http_requests_total',
      help: 'Requisições HTTP atendidas, por método, rota (o padrão da URL) e status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDurations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Tempo de resposta das requisições HTTP, por método e rota',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.ledgerMovements = new Counter({
      name: 'ledger_movements_total',
      help: 'Lançamentos gravados no razão, por origem',
      labelNames: ['origin'],
      registers,
    });
    this.webhookEvents = new Counter({
      name: 'pix_webhook_events_total',
      help: 'Chamadas do webhook Pix (Asaas), por resultado',
      labelNames: ['outcome'],
      registers,
    });
    this.webhookResults = new Counter({
      name: 'pix_webhook_results_total',
      help: 'Eventos autenticados do webhook Pix: aplicados, ignorados ou registrados para o operador (com o motivo)',
      labelNames: ['result', 'reason'],
      registers,
    });
    this.transferValidations = new Counter({
      name: 'asaas_transfer_validations_total',
      help: 'Validações de saque do Asaas: transferências aprovadas ou recusadas (com o motivo)',
      labelNames: ['result', 'reason'],
      registers,
    });
    this.loginRefusals = new Counter({
      name: 'login_refusals_total',
      help: 'Entradas recusadas, por motivo',
      labelNames: ['reason'],
      registers,
    });
    this.billingRuns = new Counter({ name: 'billing_runs_total', help: 'Execuções da cobrança mensal das tags', registers });
    this.billingTags = new Counter({
      name: 'billing_tags_total',
      help: 'Tags vistas pela cobrança mensal, por resultado',
      labelNames: ['outcome'],
      registers,
    });
    this.contestEvents = new Counter({
      name: 'contest_events_total',
      help: 'Contestações de passagens: abertas, aceitas, recusadas; passagens marcadas como possível cobrança duplicada',
      labelNames: ['event'],
      registers,
    });
    this.pushResults = new Counter({
      name: 'push_notifications_total',
      help: 'Notificações Web Push: envios entregues (sent), falhos a repetir (failed), aparelhos que não existem mais (gone); notificações abandonadas (gave_up) ou sem aparelho inscrito (no_subscription)',
      labelNames: ['outcome'],
      registers,
    });
    this.contradictions = new Counter({
      name: 'pix_provider_contradictions_total',
      help: 'Eventos do Asaas que contradizem um saque (withdrawal) ou cobrança (payment) já encerrados (decisão 60): registrados, nada aplicado',
      labelNames: ['kind'],
      registers,
    });
    this.retentionRuns = new Counter({
      name: 'retention_runs_total',
      help: 'Execuções da retenção de dados (decisão 71): concluídas (done) ou com falha (failed); a que encontra outra instância executando não conta',
      labelNames: ['outcome'],
      registers,
    });
    this.retentionRows = new Counter({
      name: 'retention_rows_total',
      help: 'Linhas apagadas pela retenção de dados, por tipo; contas encerradas anonimizadas (closedAccounts)',
      labelNames: ['kind'],
      registers,
    });
    const contradictions = () => this.openContradictions;
    new Gauge({
      name: 'pix_provider_contradictions_open',
      help: 'Contradições do Asaas ainda abertas em pix:events (do webhook e de pix:reconcile), lidas do banco a cada coleta',
      registers,
      async collect() {
        const count = contradictions();
        if (count) this.set(await count());
      },
    });
    const overdue = () => this.overdueContests;
    new Gauge({
      name: 'contests_overdue',
      help: 'Contestações em análise além do prazo de resposta da operadora (decisão 56), lidas do banco a cada coleta',
      registers,
      async collect() {
        const count = overdue();
        if (count) this.set(await count());
      },
    });
  }

  contestEvent(event: 'opened' | 'accepted' | 'refused' | 'duplicate_flagged'): void {
    this.contestEvents.inc({ event });
  }

  /** The overdue contests' count, read from the database at each scrape (every instance sees the same). */
  countOverdueContestsWith(count: () => Promise<number>): void {
    this.overdueContests = count;
  }

  /** route: the route's URL pattern (/api/tags/:id), or 'unmatched'; never the raw URL. */
  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status });
    this.httpDurations.observe({ method, route }, seconds);
  }

  ledgerMovement(origin: string): void {
    this.ledgerMovements.inc({ origin: KNOWN_ORIGINS.has(origin) ? origin : 'other' });
  }

  webhookOutcome(outcome: WebhookOutcome): void {
    this.webhookEvents.inc({ outcome });
  }

  /** recorded: applied to no money, waiting in pix:events; reason is one of a closed set. */
  webhookResult(result: 'applied' | 'ignored' | 'recorded', reason = 'none', event = ''): void {
    this.webhookResults.inc({ result, reason });
    if (reason === 'contradiction') this.contradictions.inc({ kind: event.startsWith('TRANSFER_') ? 'withdrawal' : 'payment' });
  }

  /** The open contradictions' count, read from the database at each scrape (every instance sees the same). */
  countOpenContradictionsWith(count: () => Promise<number>): void {
    this.openContradictions = count;
  }

  /** A refusal's reason is one of a closed set (TransferValidator's). */
  transferValidation(result: 'approved' | 'refused', reason = 'none'): void {
    this.transferValidations.inc({ result, reason });
  }

  loginRefused(reason: LoginRefusal): void {
    this.loginRefusals.inc({ reason });
  }

  billingRun(counts: Record<BillingOutcome, number>): void {
    this.billingRuns.inc();
    for (const outcome of ['charged', 'blocked', 'skipped'] as const) this.billingTags.inc({ outcome }, counts[outcome]);
  }

  pushResult(outcome: PushOutcome, count = 1): void {
    if (count > 0) this.pushResults.inc({ outcome }, count);
  }

  /** Decision 71: one run of the retention job, and what it deleted or anonymised per kind. */
  retentionRun(outcome: 'done' | 'failed', counts: Readonly<Record<string, number>> = {}): void {
    this.retentionRuns.inc({ outcome });
    for (const [kind, count] of Object.entries(counts)) this.retentionRows.inc({ kind }, count);
  }

  /** The text format Prometheus scrapes. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** A webhook answer's status -> its outcome label. */
export function webhookOutcomeOf(status: number): WebhookOutcome {
  if (status < 400) return 'processed';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 429) return 'rate_limited';
  return status < 500 ? 'rejected' : 'failed';
}
