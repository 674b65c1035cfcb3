import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

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
}

export interface SessionsTable {
  id: Generated<number>;
  driver_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export type LoginFailureScope = 'document' | 'ip';

export interface LoginFailuresTable {
  id: Generated<number>;
  scope: LoginFailureScope;
  key: string;
  created_at: Timestamp;
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

export type AccountKind = 'own' | 'third';

export interface AccountsTable {
  id: Generated<number>;
  driver_id: number;
  kind: AccountKind;
  balance_cents: number;
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
}

export interface Database {
  drivers: DriversTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  terms: TermsTable;
  term_decisions: TermDecisionsTable;
  accounts: AccountsTable;
  ledger_entries: LedgerEntriesTable;
}

export type DriverRow = Selectable<DriversTable>;
export type NewLedgerEntry = Insertable<LedgerEntriesTable>;
