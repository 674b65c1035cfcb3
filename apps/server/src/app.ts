import { withRequestWrites } from './db/request-writes.js';
import { fleetRoutes } from './modules/fleet/routes.js';
import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { PixProvider } from './adapters/pix/port.js';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import { trustProxyOption } from './http/client-address.js';
import { registerRequestLimits } from './http/rate-limit.js';
import { serializerCompiler } from './http/serializer.js';
import { IdempotencyStore } from './http/idempotency.js';
import type { IdempotencyOptions } from './http/idempotency.js';
import { RateLimitStore } from './db/rate-limit-store.js';
import { createLogger } from './logger.js';
import { Metrics } from './metrics.js';
import { authRoutes } from './modules/auth/routes.js';
import { balanceRoutes } from './modules/balance/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { operatorContestRoutes } from './modules/partners/contests-route.js';
import { partnerRoutes } from './modules/partners/routes.js';
import { shipperVpoRoutes } from './modules/partners/vpos-route.js';
import { pixRoutes } from './modules/pix/routes.js';
import { attentionRoutes } from './modules/attention/routes.js';
import { receiptRoutes } from './modules/receipts/routes.js';
import { proofRoutes } from './modules/receipts/proof-route.js';
import { settingsRoutes } from './modules/settings/routes.js';
import { profileRoutes } from './modules/profile/routes.js';
import { driverDataRoutes } from './modules/driver-data/routes.js';
import { accountClosureRoutes } from './modules/account-closure/routes.js';
import { statementRoutes } from './modules/statement/routes.js';
import { withdrawalRoutes } from './modules/withdrawal/routes.js';
import { transferValidationRoute } from './modules/withdrawal/validation-route.js';
import { payoutRoutes } from './modules/payouts/routes.js';
import { supportRoutes } from './modules/support/routes.js';
import { privacyRoutes } from './modules/privacy/routes.js';
import { tagRoutes } from './modules/tags/routes.js';
import { termsRoutes } from './modules/terms/routes.js';
import { vehicleRoutes } from './modules/vehicles/routes.js';
import { vpoRoutes } from './modules/vpos/routes.js';
import { contestRoutes } from './modules/contests/routes.js';
import { freeFlowRoutes } from './modules/passages/free-flow/routes.js';
import { concessionaireRoutes } from './modules/partners/free-flow-route.js';
import { pixAutomaticRoutes } from './modules/pix-automatic/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import type { PushDispatcher } from './modules/notifications/dispatcher.js';
import type { BillingService } from './modules/tags/billing.js';
import type { CycleScheduler } from './modules/pix-automatic/cycles.js';
import type { RetentionService } from './modules/retention/service.js';
import { registerCompression } from './plugins/compression.js';
import { registerDocs } from './plugins/docs.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './plugins/error-handler.js';
import { registerEveryRequest } from './plugins/every-request.js';
import { registerMetrics } from './plugins/metrics.js';
import { deferredChildLogger, requestIdOf, requestLog } from './plugins/request-log.js';
import { securityHeaders } from './plugins/security.js';
import { registerWeb } from './plugins/web.js';
import { createServices } from './services.js';

export interface AppDeps {
  config: Config;
  db: Db;
  logger?: FastifyBaseLogger;
  /** Tests inject a fake Pix provider; otherwise PIX_PROVIDER builds one. */
  pixProvider?: PixProvider;
  /** The daily tag billing (founding decision 13), from ready to close; main.ts turns it on, tests may shorten it. */
  billingSchedule?: { intervalMs?: number; firstDelayMs?: number };
  /** Idempotency-Key retention, wait and clock (http/idempotency.ts); tests shorten the wait. */
  idempotency?: IdempotencyOptions;
  /** Decision 58: the Pix Automático cycles sent to the payers' banks, from ready to close; main.ts turns it on. */
  cycleSchedule?: { intervalMs?: number; firstDelayMs?: number };
  /** Decision 57: drain the push notifications' outbox from ready to close (main.ts turns it on; every PUSH_DRAIN_INTERVAL_MS unless given). */
  pushDrain?: { intervalMs?: number };
  /** Decision 71: the retention job from ready to close (main.ts turns it on; every RETENTION_INTERVAL_HOURS). */
  retentionSchedule?: { firstDelayMs?: number };
  /** Decision 76: free-flow tolls awaiting money and the deadline notices (main.ts; tests run them by hand). */
  freeFlowSchedule?: { firstDelayMs?: number };
  /** Decision 78: the tags queued at 100 % of their vehicle's budget, blocked through their operator (main.ts; tests run it by hand). */
  budgetBlockSchedule?: { intervalMs?: number };
}

/** The HTTP app, ready to listen or to answer app.inject (tests, bench). */
export async function buildApp({
  config,
  db,
  logger,
  pixProvider,
  billingSchedule,
  idempotency,
  pushDrain,
  cycleSchedule,
  retentionSchedule,
  freeFlowSchedule,
  budgetBlockSchedule,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger ?? createLogger(config.logLevel),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 64 * 1024,
    requestTimeout: config.http.requestMs,
    keepAliveTimeout: config.http.keepAliveMs,
    connectionTimeout: config.http.connectionMs,
    // Node checks these two every connectionsCheckingInterval (30 s by default).
    http: {
      requestTimeout: config.http.requestMs,
      headersTimeout: config.http.headersMs,
      connectionsCheckingInterval: Math.min(config.http.headersMs, 1000),
    },
    logController: new LogController({ disableRequestLogging: true }),
    // The proxy's X-Request-Id when it is a sane token, else a new one (plugins/request-log.ts).
    requestIdHeader: false,
    genReqId: requestIdOf,
    childLoggerFactory: deferredChildLogger,
    routerOptions: { ignoreTrailingSlash: true },
    // Every refusal is our Portuguese envelope, also those Fastify and Node give before any route.
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  acceptEmptyJsonBodies(app);
  registerErrorHandling(app);
  const metrics = new Metrics({ processMetrics: true });
  registerEveryRequest(app, [requestLog(app), securityHeaders({ hsts: config.hsts }), registerMetrics(app, metrics, config.metricsToken)]);
  app.decorate('metrics', metrics);
  registerRequestLimits(app, new RateLimitStore(db.kysely), config.limits);

  // Decision 81: a request that writes reads the primary from then on.
  app.addHook('onRequest', (_request, _reply, done) => withRequestWrites(done));
  const services = createServices(config, db, app.log, { pixProvider, metrics });
  app.addHook('onClose', () => services.reads.close());
  services.webhook.onOutcome((outcome) => metrics.webhookResult(outcome.result, outcome.reason, outcome.event));
  services.transferValidator.onOutcome((outcome) => metrics.transferValidation(outcome.result, outcome.reason));
  app.decorate('sessions', services.sessions);
  app.decorate('fleetAccess', services.fleetAccess);
  app.decorate('audit', services.audit);
  app.decorate(
    'idempotency',
    new IdempotencyStore(db.kysely, { retentionMs: config.retention.idempotencyKeysHours * 3_600_000, ...idempotency }),
  );
  app.decorateRequest('driver', null);
  app.decorateRequest('acting', null);

  await registerCompression(app);
  if (config.apiDocs) await registerDocs(app, { hsts: config.hsts });

  healthRoutes(app, services.readiness);
  authRoutes(app, services.auth);
  termsRoutes(app, services.terms);
  balanceRoutes(app, services.balance);
  supportRoutes(app, config.supportWhatsapp);
  privacyRoutes(app, config.privacyOfficer);
  pixRoutes(app, services.charges, services.webhook, config.pix.webhookToken, config.env === 'development');
  withdrawalRoutes(app, services.eligibility, services.withdrawals, services.withdrawalApprovals);
  if (config.pix.transferValidationToken) transferValidationRoute(app, services.transferValidator, config.pix.transferValidationToken);
  payoutRoutes(app, services.payouts);
  statementRoutes(app, services.statement, { maxExportsInFlight: config.exports.maxInFlight, exportStallMs: config.exports.stallMs });
  receiptRoutes(app, services.receipts);
  proofRoutes(app, services.proofs, new RateLimitStore(db.kysely), services.vehicleGuard);
  attentionRoutes(app, services.attention);
  settingsRoutes(app, services.settings);
  profileRoutes(app, services.profile);
  driverDataRoutes(app, services.driverData, { maxInFlight: config.exports.maxInFlight, stallMs: config.exports.stallMs });
  accountClosureRoutes(app, services.accountClosure);
  tagRoutes(app, services.tags, services.catalogue);
  vehicleRoutes(app, services.vehicles, services.catalogue);
  partnerRoutes(app, services.partners, services.ledgerPushes);
  shipperVpoRoutes(app, services.partners, services.vpoPushes, services.vpos);
  vpoRoutes(app, services.vpos, services.vehicleGuard);
  operatorContestRoutes(app, services.partners, services.contests);
  contestRoutes(app, services.contests, services.freeFlow, services.vehicleGuard);
  freeFlowRoutes(app, services.freeFlow);
  concessionaireRoutes(app, services.partners, services.freeFlow);
  pixAutomaticRoutes(app, services.pixAutomatic);
  notificationRoutes(app, services.pushSubscriptions);
  fleetRoutes(app, services.members, services.audit, services.costCentres, services.vehicleBudgets);
  await registerWeb(app, config.webDist, { demonstration: config.demonstration });
  if (billingSchedule) scheduleBilling(app, services.billing, billingSchedule);
  if (cycleSchedule) scheduleCycles(app, services.pixAutomaticCycles, cycleSchedule, config.pix.automatic.cycleIntervalMs);
  if (pushDrain) schedulePushDrain(app, services.pushDispatcher, pushDrain.intervalMs ?? config.push.drainIntervalMs);
  if (retentionSchedule) scheduleRetention(app, services.retention, retentionSchedule.firstDelayMs);
  if (freeFlowSchedule) onReadyUntilClose(app, () => services.freeFlow.schedule(freeFlowSchedule.firstDelayMs));
  if (budgetBlockSchedule) onReadyUntilClose(app, () => services.budgetBlocker.schedule(budgetBlockSchedule.intervalMs));

  await app.ready();
  return app;
}

/** Decision 58: the Pix Automático cycles, sent from ready to close. */
function scheduleCycles(
  app: FastifyInstance,
  cycles: CycleScheduler,
  every: NonNullable<AppDeps['cycleSchedule']>,
  defaultIntervalMs: number,
): void {
  let stop: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stop = cycles.schedule(every.intervalMs ?? defaultIntervalMs, every.firstDelayMs);
  });
  app.addHook('onClose', async () => stop?.());
}

function scheduleBilling(app: FastifyInstance, billing: BillingService, every: NonNullable<AppDeps['billingSchedule']>): void {
  let stop: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stop = billing.schedule(every.intervalMs, every.firstDelayMs);
  });
  app.addHook('onClose', async () => stop?.());
}

function schedulePushDrain(app: FastifyInstance, dispatcher: PushDispatcher, intervalMs: number): void {
  let stop: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stop = dispatcher.schedule(intervalMs);
  });
  app.addHook('onClose', async () => stop?.());
}

function scheduleRetention(app: FastifyInstance, retention: RetentionService, firstDelayMs: number | undefined): void {
  let stop: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stop = retention.schedule(firstDelayMs);
  });
  app.addHook('onClose', async () => stop?.());
}

/** A schedule started when the app is ready and stopped (its run under way awaited) when it closes. */
function onReadyUntilClose(app: FastifyInstance, start: () => () => Promise<void>): void {
  let stop: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stop = start();
  });
  app.addHook('onClose', async () => stop?.());
}

/** spec §7 sends "empty body" POSTs (terms accept/reject); a JSON content type with no body is not an error. */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(req, text, done);
  });
}
