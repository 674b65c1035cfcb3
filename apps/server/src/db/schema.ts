import type {
  ContestReason,
  ContestState,
  FleetRole,
  MemberState,
  PayoutLimitKind,
  PixAutomaticFrequency,
  PixKeyType,
} from '@portal/domain';
import type { ColumnType, Generated, Selectable } from 'kysely';

/** Written as ISO 8601 strings; read back as Date (PostgreSQL timestamptz) or string (SQLite text). */
export type Timestamp = ColumnType<Date | string, string, string>;
/** 0 or 1 on both dialects, so queries stay identical. */
export type Flag = 0 | 1;

export interface DriversTable {
  id: Generated<number>;
  name: string;
  cpf_cnpj: string;
  phone_number: string;
  password_hash: string;
  created_at: Timestamp;
  /** The dashboard's balance alert level in centavos; null until the driver chooses (migration 011). */
  balance_alert_cents: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SessionsTable {
  id: Generated<number>;
  driver_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** One fixed window of one limit bucket (migration 005); times in epoch milliseconds. */
export interface RateLimitsTable {
  scope: string;
  key: string;
  window_start: number;
  hits: number;
  /** The growing delay: no attempt of this bucket before this time. */
  next_at: ColumnType<number, number | undefined, number>;
  expires_at: number;
}

export interface TermsTable {
  id: Generated<number>;
  version: number;
  file_name: string;
  pdf: Buffer;
  sha256: string;
  published_at: Timestamp;
}

export type TermDecisionAction = 'aceite' | 'rejeite';

export interface TermDecisionsTable {
  id: Generated<number>;
  driver_id: number;
  term_id: number;
  action: TermDecisionAction;
  decided_at: Timestamp;
}

/** Saldo, SaldoTerceiro, and the money of the driver's VPOs (decision 52: never Saldo, never withdrawable). */
export type AccountKind = 'own' | 'third' | 'vpo';

export interface AccountsTable {
  id: Generated<number>;
  driver_id: number;
  kind: AccountKind;
  balance_cents: number;
  /** Decision 81: when its balance last moved (null before migration 028); a driver's last minute reads the primary. */
  moved_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  account_id: number;
  /** Copied from the account so a driver's statement is one index range. */
  driver_id: number;
  amount_cents: number;
  origin: string;
  event: string | null;
  place_name: string;
  is_third: Flag;
  reference: string | null;
  idempotency_key: string;
  created_at: Timestamp;
  /** The VPO whose money this entry moved, or that ran short for this passage (migration 014). */
  vpo_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Decision 79: the vehicle the entry was for, and the cost centre it was in when posted (migration 027). */
  vehicle_id: ColumnType<number | null, number | null | undefined, number | null>;
  cost_centre_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/**
 * Decision 80: an entry's idempotency key, unique across every month, claimed before the entry is
 * written; created_at is the entry's (its month on PostgreSQL, migration 028).
 */
export interface LedgerEntryKeysTable {
  idempotency_key: string;
  created_at: Timestamp;
}

/** Decision 80: a partner's passage id, unique across every month; created_at is the passage's. */
export interface PassageKeysTable {
  partner_id: number;
  external_id: string;
  created_at: Timestamp;
}

/** Decision 80: a month of a partitioned table detached and archived to a compressed file (PostgreSQL only). */
export interface PartitionArchivesTable {
  partition_name: string;
  table_name: string;
  month: Timestamp;
  file: string;
  rows: number;
  sha256: string;
  archived_at: Timestamp;
}

/**
 * A driver's number of ledger entries dated in one UTC month, day or hour (migration 015, decision
 * 54); bucket is its first instant, in created_at's form. The statement sums them to find places.
 */
export interface LedgerEntryCountsTable {
  driver_id: number;
  unit: 'month' | 'day' | 'hour';
  bucket: Timestamp;
  entries: number;
  /** What each account moved in the bucket, in centavos (migration 020). */
  own_cents: Generated<number>;
  third_cents: Generated<number>;
  vpo_cents: Generated<number>;
}

/** Decision 79: a driver's entries counted per vehicle and per cost centre, as ledger_entry_counts per driver. */
export interface LedgerScopeCountsTable extends LedgerEntryCountsTable {
  scope: 'vehicle' | 'centre';
  scope_id: number;
}

export type PixProviderName = 'local' | 'asaas';
export type PixChargeStatus = 'PENDING' | 'RECEIVED' | 'OVERDUE' | 'REFUNDED';

export interface PixChargesTable {
  id: string;
  driver_id: number;
  provider: PixProviderName;
  provider_charge_id: string;
  amount_cents: number;
  payload: string;
  encoded_image: string | null;
  status: PixChargeStatus;
  expires_at: Timestamp;
  created_at: Timestamp;
  received_at: Timestamp | null;
  refunded_at: Timestamp | null;
  /** What the provider gave back so far (partial refunds); the ledger took exactly this back. */
  refunded_cents: ColumnType<number, number | undefined, number>;
  /** When the charge was cancelled at the provider after expiring here (founding decision 14). */
  provider_cancelled_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

export type WebhookEventStatus = 'open' | 'resolved';

/** An authenticated provider event that could not be applied: answered 200, kept for the operator. */
export interface WebhookEventsTable {
  id: Generated<number>;
  dedupe_key: string;
  event: string;
  provider_ref: string | null;
  reason_code: string;
  reason: string;
  excerpt: string;
  status: WebhookEventStatus;
  note: string | null;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
}

export type WithdrawalStatus = 'PROCESSING' | 'DONE' | 'FAILED';

export interface WithdrawalsTable {
  id: string;
  driver_id: number;
  amount_cents: number;
  pix_key_type: PixKeyType;
  pix_key: string;
  description: string;
  status: WithdrawalStatus;
  provider_transfer_id: string | null;
  failure_reason: string | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  /** The receiving account's holder as the provider reported it; null: not reported (migration 012). */
  receiver_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Their CPF/CNPJ as a receipt prints it (a CPF masked); null: not reported. */
  receiver_document: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A Pix key the driver saved for withdrawals (migration 013). */
export interface PixKeysTable {
  id: Generated<number>;
  driver_id: number;
  key_type: PixKeyType;
  key: string;
  created_at: Timestamp;
}

/** A correction of the driver's name or phone: which fields, when (migration 021). */
export interface ProfileChangesTable {
  id: Generated<number>;
  driver_id: number;
  fields: string;
  changed_at: Timestamp;
}

export type AccessAction = 'entrada' | 'cadastro' | 'dados-baixados';

/** An access to the account from an address (migration 022, Marco Civil art. 15): kept 6 months. */
export interface AccessRecordsTable {
  id: Generated<number>;
  driver_id: number;
  action: AccessAction;
  ip_address: string;
  occurred_at: Timestamp;
}

/** A closed account (migration 023, decision 70): its document kept apart until keep_until (5 years). */
export interface ClosedAccountsTable {
  driver_id: number;
  cpf_cnpj: string;
  closed_at: Timestamp;
  keep_until: Timestamp;
  /** sha256 of the closing receipt's one-time link token; null once the retention job clears it. */
  receipt_token_hash: string | null;
  receipt_expires_at: Timestamp | null;
}

/** A closed account's tag the operator gateway still has to cancel (migration 023). */
export interface ClosureTagCancellationsTable {
  tag_id: number;
  driver_id: number;
  created_at: Timestamp;
  cancelled_at: Timestamp | null;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
}

/** A withdrawal limit the driver changed; a raise waits in pending_* until pending_at (migration 013). */
export interface PayoutLimitsTable {
  driver_id: number;
  kind: PayoutLimitKind;
  value_cents: number;
  pending_cents: number | null;
  pending_at: Timestamp | null;
}

export interface VehiclesTable {
  id: Generated<number>;
  driver_id: number;
  license_plate: string;
  cpf_cnpj_antt: string;
  rntrc_antt: string;
  axles: number;
  vehicle_type: number;
  model_id: string;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
  /** Decision 76: when the driver opted this plate in to free-flow tolls; null: none is kept (migration 024). */
  free_flow_consent_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** Decision 76: each new toll of the plate paid on arrival when Saldo covers it. */
  free_flow_auto_pay: ColumnType<Flag, Flag | undefined, Flag>;
  /** Decision 77: the company's cost centre the vehicle is in (migration 025). */
  cost_centre_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export type TagOwnership = 'own' | 'operator';

export interface TagsTable {
  id: Generated<number>;
  driver_id: number;
  vehicle_id: number;
  serial_number: string;
  operator_cnpj: string;
  ownership_type: TagOwnership;
  status_code: number | null;
  activated_at: Timestamp | null;
  /** Last billing period paid, 'YYYY-MM'. */
  paid_through: string | null;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
  /** Cancelled before it was ever activated: the serial went back to the operator (migration 006). */
  released_at: Timestamp | null;
}

export type TagFeeStatus = 'paid' | 'unpaid';

export interface TagFeeChargesTable {
  id: Generated<number>;
  tag_id: number;
  period: string;
  amount_cents: number;
  status: TagFeeStatus;
  created_at: Timestamp;
  paid_at: Timestamp | null;
  /** Decision 53: the month the tag was used only through VPO; not owed, and refunded when it was paid (migration 014). */
  waived_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

/** A tag's passages of one month (São Paulo), paid by a VPO or not (migration 014, decision 53). */
export interface TagMonthUsageTable {
  tag_id: number;
  period: string;
  vpo_passages: ColumnType<number, number | undefined, number>;
  other_passages: ColumnType<number, number | undefined, number>;
}

export interface OperatorTagsTable {
  serial_number: string;
  operator_cnpj: string;
  status_code: number | null;
  license_plate: string | null;
  holder_document: string | null;
  updated_at: Timestamp;
}

export type PartnerKindDb = 'shipper' | 'operator' | 'platform' | 'concessionaire';

export interface PartnersTable {
  id: Generated<number>;
  kind: PartnerKindDb;
  name: string;
  /** sha256 of the key, base64url: the key itself is never stored. */
  api_key_hash: string;
  /** The first characters of the key, for listing. */
  api_key_prefix: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  /** Operator keys: the CNPJ of the one operator whose tags they may charge (migration 006). */
  operator_cnpj: string | null;
}

export type PartnerPushKind = 'vpo' | 'passage' | 'movement' | 'toll';

/** The first answer to each partner push (partner, kind, externalId) and the hash of its request. */
export interface PartnerPushesTable {
  partner_id: number;
  kind: PartnerPushKind;
  external_id: string;
  request_hash: string;
  status_code: number;
  /** The JSON body answered the first time. */
  response: string;
  created_at: Timestamp;
}

/**
 * A driver's Idempotency-Key (migration 009): the hash of the first request and, once it
 * answered, that answer byte for byte. status_code 0: claimed, no answer stored yet.
 */
export interface IdempotencyKeysTable {
  driver_id: number;
  key: string;
  request_hash: string;
  status_code: number;
  content_type: string;
  /** The body answered the first time, as sent. */
  response: string;
  created_at: Timestamp;
  answered_at: Timestamp | null;
  expires_at: Timestamp;
}

export interface VposTable {
  id: Generated<number>;
  driver_id: number;
  partner_id: number;
  external_id: string;
  serial_number: string;
  plate: string;
  shipper_document: string;
  value_cents: number;
  status: string;
  origin: string | null;
  destination: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The trip's window: passages inside it, while the VPO is open, are paid by it (migration 014). Null: issued before. */
  trip_start: ColumnType<Date | string | null, string | null | undefined, string | null>;
  trip_end: ColumnType<Date | string | null, string | null | undefined, string | null>;
  closed_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  antt_id: ColumnType<string | null, string | null | undefined, string | null>;
  rntrc: ColumnType<string | null, string | null | undefined, string | null>;
  axles: ColumnType<number | null, number | null | undefined, number | null>;
  /** The money: held = used + left + refunded (decision 52); short: what passages took from Saldo when it ran out. */
  held_cents: ColumnType<number, number | undefined, number>;
  used_cents: ColumnType<number, number | undefined, number>;
  left_cents: ColumnType<number, number | undefined, number>;
  refunded_cents: ColumnType<number, number | undefined, number>;
  short_cents: ColumnType<number, number | undefined, number>;
}

/** Decision 56: a toll passage as the operator sent it (migration 016). */
export interface PassagesTable {
  id: Generated<number>;
  partner_id: number;
  external_id: string;
  operator_cnpj: string;
  driver_id: number;
  tag_id: number;
  serial_number: string;
  place_name: string;
  occurred_at: Timestamp;
  amount_cents: number;
  is_third: Flag;
  /** An earlier passage of the tag at the plaza, close enough to be a possible double charge. */
  duplicate_of: number | null;
  created_at: Timestamp;
}

/** What one account paid of a passage (one ledger entry) and what contests gave back of it. */
export interface PassagePaymentsTable {
  id: Generated<number>;
  passage_id: number;
  entry_id: number;
  account: 'own' | 'third' | 'vpo';
  vpo_id: number | null;
  paid_cents: number;
  refunded_cents: ColumnType<number, number | undefined, number>;
}

export interface ContestsTable {
  id: Generated<number>;
  /** The passage contested, or null when it is a free-flow toll (toll_id, migration 024). */
  passage_id: number | null;
  toll_id: ColumnType<number | null, number | null | undefined, number | null>;
  driver_id: number;
  operator_cnpj: string;
  reason: ContestReason;
  description: string | null;
  state: ColumnType<ContestState, ContestState | undefined, ContestState>;
  opened_at: Timestamp;
  due_at: Timestamp;
  answered_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  answer: string | null;
  refund_cents: number | null;
  answered_by: string | null;
}

/** Decision 85: how many contests each operator has in each state, kept by triggers (migration 029). */
export interface ContestCountsTable {
  operator_cnpj: string;
  state: ContestState;
  contests: ColumnType<number | string, never, never>;
}

export type PixAutomaticStatus = 'CREATED' | 'ACTIVE' | 'REFUSED' | 'CANCELLED' | 'EXPIRED';
/** Why an authorization ended (domain pixAutomaticMessages.endReasons). */
export type PixAutomaticEndReason = 'driver' | 'bank' | 'replaced' | 'valueChanged' | 'qrExpired' | 'refused' | 'expired';

/** Decision 58: a driver's consent to a recurring top-up by Pix Automático (migration 018). */
/** Decision 76: a toll a plate owes on a free-flow highway, as its concessionaire sent it (migration 024). */
export interface FreeFlowTollsTable {
  id: Generated<number>;
  partner_id: number;
  external_id: string;
  driver_id: number;
  vehicle_id: number;
  plate: string;
  gantry: string;
  highway: string;
  km_milli: number;
  direction: string;
  axles: number;
  amount_cents: number;
  occurred_at: Timestamp;
  /** 'AAAA-MM-DD' in São Paulo: the last day to pay. */
  due_day: string;
  created_at: Timestamp;
  paid_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  paid_cents: ColumnType<number, number | undefined, number>;
  authentication: ColumnType<string | null, string | null | undefined, string | null>;
  cancelled_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  flag: ColumnType<FreeFlowFlag | null, FreeFlowFlag | null | undefined, FreeFlowFlag | null>;
  flag_passage_id: ColumnType<number | null, number | null | undefined, number | null>;
  awaiting_balance: ColumnType<Flag, Flag | undefined, Flag>;
  notices: ColumnType<string, string | undefined, string>;
}

export type FreeFlowFlag = 'TAG_ATIVA' | 'TAG_PAGOU';

/** A driver's free-flow tolls kept, and the open ones: count, sum, flagged (moved with every toll's change). */
export interface FreeFlowDriverTotalsTable {
  driver_id: number;
  tolls: ColumnType<number, number | undefined, number>;
  open_tolls: ColumnType<number, number | undefined, number>;
  open_cents: ColumnType<number, number | undefined, number>;
  open_flagged: ColumnType<number, number | undefined, number>;
}

/** What one account paid of a free-flow toll (one ledger entry) and what was given back of it. */
export interface FreeFlowPaymentsTable {
  id: Generated<number>;
  toll_id: number;
  entry_id: number;
  account: 'own' | 'vpo';
  vpo_id: number | null;
  paid_cents: number;
  refunded_cents: ColumnType<number, number | undefined, number>;
}

export interface PixAutomaticAuthorizationsTable {
  id: string;
  driver_id: number;
  provider: PixProviderName;
  provider_authorization_id: string;
  conciliation_id: string | null;
  status: PixAutomaticStatus;
  frequency: PixAutomaticFrequency;
  amount_cents: number;
  payload: string;
  qr_expires_at: Timestamp;
  next_due_date: string | null;
  anchor_day: number | null;
  created_at: Timestamp;
  activated_at: Timestamp | null;
  ended_at: Timestamp | null;
  end_reason: PixAutomaticEndReason | null;
  replaces_id: string | null;
}

export type PixAutomaticCycleStatus = 'SCHEDULED' | 'PAID' | 'REFUSED' | 'CANCELLED';

/** One cycle's debit: its Pix charge (charge_id) and what the payer's bank did with it. */
export interface PixAutomaticCyclesTable {
  charge_id: string;
  authorization_id: string;
  number: number;
  due_date: string;
  instruction_id: string | null;
  status: PixAutomaticCycleStatus;
  failure_reason: string | null;
  failed_at: Timestamp | null;
  created_at: Timestamp;
}

export interface DriverVpoCountersTable {
  driver_id: number;
  vpo_count: number;
}

/** A driver's device subscribed to Web Push (migration 017); `session_id`: the sign-in that made it ('Sair' removes it). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  driver_id: number;
  session_id: number | null;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: Timestamp;
  last_success_at: Timestamp | null;
}

/** A notification waiting to be sent (migration 017, decision 57): written in its event's transaction. */
export interface NotificationOutboxTable {
  id: Generated<number>;
  driver_id: number;
  kind: string;
  /** The DriverNotification as JSON. */
  payload: string;
  dedupe_key: string;
  created_at: Timestamp;
  /** Not sent before this time: the grouping wait of a passage, or a retry's backoff. */
  due_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  sent_at: Timestamp | null;
  gave_up_at: Timestamp | null;
  last_error: string | null;
  /** JSON array of the subscription ids already reached (or gone): a retry skips them. */
  delivered: string | null;
}

/** Decision 76: a secret the portal made for itself (base64url), by use: 'proof' signs the proofs' codes. */
export interface SigningKeysTable {
  name: string;
  secret: string;
  created_at: Timestamp;
}

/** The server's VAPID key pair when the environment gives none (development; one row). */
export interface VapidKeysTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: Timestamp;
}

/** Decision 77: a person (CPF) invited to a company's account (CNPJ), with a role (migration 025). */
export interface CompanyMembersTable {
  id: Generated<number>;
  company_id: number;
  cpf: string;
  person_id: number | null;
  role: FleetRole;
  state: MemberState;
  invited_by: number;
  invited_at: Timestamp;
  accepted_at: Timestamp | null;
  ended_at: Timestamp | null;
}

/** A company's cost centre: a name and a code (decision 77). */
export interface CostCentresTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  code: string;
  created_at: Timestamp;
}

/** A vehicle of a company assigned to one of its Motoristas. */
export interface VehicleDriversTable {
  vehicle_id: number;
  member_id: number;
}

/** A company's dual-control threshold (null: off); a raise or turning it off waits (pending_*). */
export interface ApprovalThresholdsTable {
  company_id: number;
  value_cents: number | null;
  pending_cents: number | null;
  pending_off: ColumnType<Flag, Flag | undefined, Flag>;
  pending_at: Timestamp | null;
}

export type WithdrawalApprovalState = 'PENDENTE' | 'APROVADO' | 'RECUSADO';

/** A company's withdrawal above its threshold, waiting for a second Gestor (decision 77). */
export interface WithdrawalApprovalsTable {
  id: Generated<number>;
  company_id: number;
  requested_by: number;
  amount_cents: number;
  pix_key_type: PixKeyType;
  pix_key: string;
  description: string;
  state: WithdrawalApprovalState;
  created_at: Timestamp;
  expires_at: Timestamp;
  decided_by: number | null;
  decided_at: Timestamp | null;
  withdrawal_id: string | null;
}

/** One action on a company's account, append-only (the database refuses updates and deletes). */
export interface AuditEventsTable {
  id: Generated<number>;
  company_id: number;
  actor_id: number;
  actor_member_id: number | null;
  actor_name: string;
  actor_document: string;
  actor_role: string;
  action: string;
  outcome: 'ok' | 'negado';
  address: string;
  before_json: string | null;
  after_json: string | null;
  created_at: Timestamp;
}

/** Decision 78: a company vehicle's monthly toll budget (migration 026). */
export interface VehicleBudgetsTable {
  vehicle_id: number;
  company_id: number;
  monthly_cents: number;
  block_at_limit: ColumnType<Flag, Flag | undefined, Flag>;
  updated_at: Timestamp;
}

/** What the company's balances paid for a vehicle's passages in a São Paulo month. */
export interface VehicleMonthSpendTable {
  vehicle_id: number;
  period: string;
  spent_cents: ColumnType<number, number | undefined, number>;
}

/** A budget's 80 % or 100 % reached in a month: the notice is sent once. */
export interface VehicleBudgetAlertsTable {
  vehicle_id: number;
  period: string;
  percent: number;
  spent_cents: number;
  budget_cents: number;
  created_at: Timestamp;
}

export type BudgetBlockState = 'pendente' | 'bloqueada' | 'liberada' | 'ignorada';

/** A tag blocked (or to be blocked) at its vehicle's budget through its operator; released only by a Gestor. */
export interface BudgetBlocksTable {
  id: Generated<number>;
  vehicle_id: number;
  tag_id: number;
  period: string;
  state: BudgetBlockState;
  created_at: Timestamp;
  blocked_at: Timestamp | null;
  released_at: Timestamp | null;
  released_by: number | null;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
}

export interface Database {
  drivers: DriversTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  terms: TermsTable;
  term_decisions: TermDecisionsTable;
  accounts: AccountsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_entry_keys: LedgerEntryKeysTable;
  ledger_entry_counts: LedgerEntryCountsTable;
  ledger_scope_counts: LedgerScopeCountsTable;
  pix_charges: PixChargesTable;
  withdrawals: WithdrawalsTable;
  vehicles: VehiclesTable;
  tags: TagsTable;
  tag_fee_charges: TagFeeChargesTable;
  tag_month_usage: TagMonthUsageTable;
  operator_tags: OperatorTagsTable;
  partners: PartnersTable;
  vpos: VposTable;
  driver_vpo_counters: DriverVpoCountersTable;
  partner_pushes: PartnerPushesTable;
  webhook_events: WebhookEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  pix_keys: PixKeysTable;
  profile_changes: ProfileChangesTable;
  access_records: AccessRecordsTable;
  closed_accounts: ClosedAccountsTable;
  closure_tag_cancellations: ClosureTagCancellationsTable;
  payout_limits: PayoutLimitsTable;
  passages: PassagesTable;
  passage_keys: PassageKeysTable;
  partition_archives: PartitionArchivesTable;
  passage_payments: PassagePaymentsTable;
  contests: ContestsTable;
  contest_counts: ContestCountsTable;
  free_flow_tolls: FreeFlowTollsTable;
  free_flow_payments: FreeFlowPaymentsTable;
  free_flow_driver_totals: FreeFlowDriverTotalsTable;
  signing_keys: SigningKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  notification_outbox: NotificationOutboxTable;
  vapid_keys: VapidKeysTable;
  pix_automatic_authorizations: PixAutomaticAuthorizationsTable;
  pix_automatic_cycles: PixAutomaticCyclesTable;
  company_members: CompanyMembersTable;
  cost_centres: CostCentresTable;
  vehicle_drivers: VehicleDriversTable;
  audit_events: AuditEventsTable;
  approval_thresholds: ApprovalThresholdsTable;
  withdrawal_approvals: WithdrawalApprovalsTable;
  vehicle_budgets: VehicleBudgetsTable;
  vehicle_month_spend: VehicleMonthSpendTable;
  vehicle_budget_alerts: VehicleBudgetAlertsTable;
  budget_blocks: BudgetBlocksTable;
}

export type PixChargeRow = Selectable<PixChargesTable>;
export type WithdrawalRow = Selectable<WithdrawalsTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type PixAutomaticRow = Selectable<PixAutomaticAuthorizationsTable>;
export type PixAutomaticCycleRow = Selectable<PixAutomaticCyclesTable>;
export type VehicleRow = Selectable<VehiclesTable>;
export type AuditEventRow = Selectable<AuditEventsTable>;
export type TagRowDb = Selectable<TagsTable>;
