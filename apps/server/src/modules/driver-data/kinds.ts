import type { DriverDataKind } from '@portal/domain';
import type { Database } from '../../db/schema.js';
import { ACCOUNT_KINDS } from './account-kinds.js';
import { FLEET_KINDS } from './fleet-kinds.js';
import { MONEY_KINDS } from './money-kinds.js';
import type { DataKindReader } from './pages.js';
import { TRIP_KINDS } from './trip-kinds.js';
import { VEHICLE_KINDS } from './vehicle-kinds.js';

/**
 * Tables that hold a driver's rows but are not a file of their own, and why. Columns left out of
 * an exported table are named in its reader (the password hash, a session's token hash, a push
 * subscription's keys).
 */
export const TABLES_NOT_EXPORTED: Readonly<Partial<Record<keyof Database, string>>> = {
  accounts: 'the balances are in cadastro.json; the accounts themselves are ids',
  ledger_entry_counts: 'sums per month, day and hour derived from movimentacoes.json',
  ledger_scope_counts: 'the same sums per vehicle and cost centre, derived from movimentacoes.json',
  driver_vpo_counters: 'a count derived from vpos.json',
  idempotency_keys: "copies of the portal's own answers to a repeated request, kept a day",
  closed_accounts: 'rows of a closed account, which no longer signs in (its closing receipt tells what is kept)',
  closure_tag_cancellations: 'rows of a closed account, which no longer signs in (its closing receipt tells what is kept)',
  free_flow_driver_totals: 'counts and sums derived from pedagios-sem-cancela.json',
  free_flow_payments: "which account paid each free-flow toll: the entries of movimentacoes.json, each naming its toll ('toll:<id>')",
};

/** Every kind of the ZIP; the keys are DRIVER_DATA_KINDS', which names the files (a kind left out does not compile). */
export const DATA_KINDS: Readonly<Record<DriverDataKind, DataKindReader>> = {
  ...ACCOUNT_KINDS,
  ...VEHICLE_KINDS,
  ...MONEY_KINDS,
  ...TRIP_KINDS,
  ...FLEET_KINDS,
};
