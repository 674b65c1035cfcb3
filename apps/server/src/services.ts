import type { FastifyBaseLogger } from 'fastify';
import { LocalTagOperatorGateway } from './adapters/operators/local.js';
import type { TagOperatorGateway } from './adapters/operators/port.js';
import { createPixProvider } from './adapters/pix/index.js';
import type { PixProvider } from './adapters/pix/port.js';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import { Metrics } from './metrics.js';
import { AttentionService } from './modules/attention/service.js';
import { ContestService } from './modules/contests/service.js';
import { PasswordHasher } from './modules/auth/passwords.js';
import { PasswordConfirmation } from './modules/auth/confirmation.js';
import { AuthService } from './modules/auth/service.js';
import { SessionStore } from './modules/auth/sessions.js';
import { LoginThrottle } from './modules/auth/throttle.js';
import { BalanceService } from './modules/balance/service.js';
import { ReadinessCheck } from './modules/health/service.js';
import { LedgerPushes } from './modules/partners/ledger-pushes.js';
import { PartnerPushes } from './modules/partners/pushes.js';
import { PartnerService } from './modules/partners/service.js';
import { VpoPushes } from './modules/partners/vpo-pushes.js';
import { ChargeService } from './modules/pix/charges.js';
import { SettlementService } from './modules/pix/settlement.js';
import { ChargeExpiry } from './modules/pix/expiry.js';
import { AsaasWebhookHandler } from './modules/pix/webhook.js';
import { WebhookEventLog } from './modules/pix/webhook-events.js';
import { ReceiptService } from './modules/receipts/service.js';
import { SettingsService } from './modules/settings/service.js';
import { ProfileService } from './modules/profile/service.js';
import { DriverDataService } from './modules/driver-data/service.js';
import { AccountClosureService } from './modules/account-closure/service.js';
import { StatementService } from './modules/statement/service.js';
import { ReadRouter } from './db/read-replica.js';
import { BillingService } from './modules/tags/billing.js';
import { Catalogue } from './modules/tags/catalogue.js';
import { TagFees } from './modules/tags/fees.js';
import { TagService } from './modules/tags/service.js';
import { TermsService } from './modules/terms/service.js';
import { VehicleService } from './modules/vehicles/service.js';
import { VpoService } from './modules/vpos/service.js';
import { WithdrawalEligibility } from './modules/withdrawal/eligibility.js';
import { WithdrawalOutcomes } from './modules/withdrawal/outcome.js';
import { WithdrawalService } from './modules/withdrawal/service.js';
import { TransferValidator } from './modules/withdrawal/validation.js';
import { PayoutGuard } from './modules/payouts/guard.js';
import { PayoutService } from './modules/payouts/service.js';
import { RateLimitStore } from './db/rate-limit-store.js';
import { cycleCharges } from './modules/pix-automatic/cycle-charges.js';
import { CycleScheduler } from './modules/pix-automatic/cycles.js';
import { AutomaticEvents } from './modules/pix-automatic/events.js';
import { PixAutomaticService } from './modules/pix-automatic/service.js';
import { PushDispatcher } from './modules/notifications/dispatcher.js';
import { PushSender } from './modules/notifications/sender.js';
import { PushSubscriptionService } from './modules/notifications/subscriptions.js';
import { VapidKeyStore } from './modules/notifications/vapid.js';
import { RetentionService } from './modules/retention/service.js';
import { FreeFlowService } from './modules/passages/free-flow/service.js';
import { ProofService } from './modules/receipts/proof.js';
import { FleetAccess } from './modules/fleet/access.js';
import { WithdrawalApprovals } from './modules/withdrawal/approvals.js';
import { VehicleGuard } from './db/vehicle-scope.js';
import { AuditLog } from './modules/fleet/audit.js';
import { MemberService } from './modules/fleet/members.js';
import { CostCentres } from './modules/fleet/cost-centres.js';
import { VehicleBudgets } from './modules/vehicle-budgets/service.js';
import { BudgetBlocker } from './modules/vehicle-budgets/blocks.js';

export interface Services {
  readiness: ReadinessCheck;
  sessions: SessionStore;
  /** Decision 77: who may act on a company's account, its members, and its audit trail. */
  fleetAccess: FleetAccess;
  /** A Motorista's reach: a VPO, passage or contest named by id only when it is of an assigned vehicle. */
  vehicleGuard: VehicleGuard;
  audit: AuditLog;
  members: MemberService;
  costCentres: CostCentres;
  /** Decision 78: the vehicles' monthly budgets, and the tags blocked at 100 %. */
  vehicleBudgets: VehicleBudgets;
  budgetBlocker: BudgetBlocker;
  balance: BalanceService;
  statement: StatementService;
  /** Decision 81: the reads that may go to DATABASE_READ_URL's replica. */
  reads: ReadRouter;
  receipts: ReceiptService;
  attention: AttentionService;
  settings: SettingsService;
  /** Issue 35: the driver's name and phone, read and corrected. */
  profile: ProfileService;
  /** Issue 35, decision 69: everything the portal holds about the driver, as a ZIP. */
  driverData: DriverDataService;
  /** Issue 35, decision 70: closing the account. */
  accountClosure: AccountClosureService;
  auth: AuthService;
  terms: TermsService;
  pixProvider: PixProvider;
  charges: ChargeService;
  settlement: SettlementService;
  webhook: AsaasWebhookHandler;
  eligibility: WithdrawalEligibility;
  withdrawals: WithdrawalService;
  /** Decision 77: a company's withdrawals above its threshold, waiting for a second Gestor. */
  withdrawalApprovals: WithdrawalApprovals;
  transferValidator: TransferValidator;
  catalogue: Catalogue;
  tagOperator: TagOperatorGateway;
  tags: TagService;
  vehicles: VehicleService;
  billing: BillingService;
  partners: PartnerService;
  vpos: VpoService;
  vpoPushes: VpoPushes;
  ledgerPushes: LedgerPushes;
  payoutGuard: PayoutGuard;
  payouts: PayoutService;
  contests: ContestService;
  /** Decision 58: the recurring top-up by Pix Automático and its cycles' schedule. */
  pixAutomatic: PixAutomaticService;
  pixAutomaticCycles: CycleScheduler;
  pushSubscriptions: PushSubscriptionService;
  pushDispatcher: PushDispatcher;
  /** Decision 71: what is past its period, deleted or anonymised (one instance at a time). */
  retention: RetentionService;
  /** Decision 76: free-flow tolls owed by plate, the driver's and the concessionaire's side. */
  freeFlow: FreeFlowService;
  /** Decision 76: proofs for an appeal, their public verification, and the toll's payment receipt (signed with freeFlow.keys). */
  proofs: ProofService;
}

export interface ServiceOverrides {
  /** Tests inject a fake provider; otherwise PIX_PROVIDER decides. */
  pixProvider?: PixProvider;
  /** Tests may inject a clock for the billing month of activations and releases. */
  now?: () => Date;
  /** The app's metrics; the CLI's services count into a registry nobody reads. */
  metrics?: Metrics;
}

/**
 * Wires every module's service over one database; used by the HTTP app (app.ts hands each module's
 * routes its service), the start-up (startup/) and the CLI. Nothing below this file imports it.
 */
export function createServices(config: Config, db: Db, log: FastifyBaseLogger, overrides: ServiceOverrides = {}): Services {
  const metrics = overrides.metrics ?? new Metrics();
  // The server's clock: the system's, or CLOCK_START's in tests.
  const clock = overrides.now ?? config.clock;
  const sessions = new SessionStore(db.kysely, config.sessionTtlHours);
  const audit = new AuditLog(db.kysely);
  const throttle = new LoginThrottle(db.kysely, config.login);
  const passwords = new PasswordHasher(config.argon2);
  const auth = new AuthService(db.kysely, sessions, passwords, throttle, log, metrics);
  const confirmation = new PasswordConfirmation(db.kysely, passwords, new RateLimitStore(db.kysely), log);
  const payoutGuard = new PayoutGuard(db.kysely, db.dialect, confirmation, config.driverCalls, config.payoutLimitDefaults, log, clock);
  const terms = new TermsService(db.kysely);
  const pixProvider = overrides.pixProvider ?? createPixProvider(config.pix);
  const freeFlow = new FreeFlowService(db, log, clock);
  const settlement = new SettlementService(db, log, cycleCharges, (driverId) => freeFlow.afterCredit(driverId));
  const outcomes = new WithdrawalOutcomes(db, log);
  const eligibility = new WithdrawalEligibility(db.kysely, terms);
  const withdrawals = new WithdrawalService(db, eligibility, outcomes, pixProvider, payoutGuard, log);
  const catalogue = new Catalogue();
  const tagOperator = new LocalTagOperatorGateway();
  const fees = new TagFees(overrides.now);
  const tags = new TagService(db, tagOperator, catalogue, fees);
  const pushes = new PartnerPushes(db);
  const reads = new ReadRouter(db, config.databaseRead, (err) =>
    log.warn({ err }, 'réplica de leitura indisponível: leituras no primário'),
  );
  const vpos = new VpoService(db, reads, clock);
  const statement = new StatementService(db.kysely, reads);
  const contests = new ContestService(db, metrics, clock, reads);
  metrics.countOverdueContestsWith(() => contests.countOverdue());
  const webhookEvents = new WebhookEventLog(db.kysely);
  metrics.countOpenContradictionsWith(() => webhookEvents.countOpen('contradiction'));
  const vapidKeys = new VapidKeyStore(db, config.push.vapid);
  const pixAutomatic = new PixAutomaticService(
    db,
    pixProvider,
    config.pix.automatic.enabled,
    config.driverCalls,
    new RateLimitStore(db.kysely),
    log,
    overrides.now,
  );
  return {
    readiness: new ReadinessCheck(db),
    balance: new BalanceService(db.kysely),
    statement,
    reads,
    receipts: new ReceiptService(db.kysely, pixProvider.name),
    attention: new AttentionService(db.kysely, statement, clock),
    settings: new SettingsService(db.kysely),
    driverData: new DriverDataService(db.kysely, db.dialect, clock),
    profile: new ProfileService(db.kysely, db.dialect, confirmation, pixProvider, log, clock),
    accountClosure: new AccountClosureService(db, confirmation, pixAutomatic, tags, log, clock),
    catalogue,
    tagOperator,
    tags,
    vehicles: new VehicleService(db, tags),
    billing: new BillingService(db, fees, tagOperator, log, metrics),
    sessions,
    fleetAccess: new FleetAccess(db.kysely),
    vehicleGuard: new VehicleGuard(db.kysely),
    audit,
    members: new MemberService(db, audit),
    costCentres: new CostCentres(db, audit, reads),
    vehicleBudgets: new VehicleBudgets(db),
    budgetBlocker: new BudgetBlocker(db, tagOperator, log),
    auth,
    terms,
    pixProvider,
    charges: new ChargeService(db.kysely, db.dialect, pixProvider, config.driverCalls, new RateLimitStore(db.kysely), log),
    settlement,
    webhook: new AsaasWebhookHandler(
      settlement,
      { withdrawals: outcomes, automatic: new AutomaticEvents(db, pixProvider, log, overrides.now) },
      pixProvider,
      webhookEvents,
      new ChargeExpiry(db.kysely, pixProvider, log),
      log,
    ),
    eligibility,
    withdrawals,
    withdrawalApprovals: new WithdrawalApprovals(db, withdrawals, payoutGuard),
    transferValidator: new TransferValidator(outcomes, log),
    partners: new PartnerService(db),
    vpos,
    vpoPushes: new VpoPushes(db, vpos, pushes),
    ledgerPushes: new LedgerPushes(db, pushes, config.duplicatePassageMinutes, metrics),
    payoutGuard,
    payouts: new PayoutService(db.kysely, payoutGuard, log),
    contests,
    freeFlow,
    // One SigningKeys per process: the free-flow module's, which signs the proofs' codes too.
    proofs: new ProofService(db, freeFlow.keys, clock, catalogue),
    pixAutomatic,
    pixAutomaticCycles: new CycleScheduler(db, pixProvider, log, overrides.now),
    pushSubscriptions: new PushSubscriptionService(db.kysely, vapidKeys, config.push),
    pushDispatcher: new PushDispatcher(
      db,
      vapidKeys,
      new PushSender(config.push.subject, config.push.timeoutMs),
      config.push,
      metrics,
      log,
    ),
    retention: new RetentionService(db, config.retention, metrics, log),
  };
}
