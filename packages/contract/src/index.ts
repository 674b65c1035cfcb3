/**
 * The API's shapes (spec §3, 7). Every schema the contract exports or an endpoint names is a z.lazy,
 * built at first use: a phone evaluating the contract at load built all of them in one long task
 * (test/lazy.test.ts keeps it so; decision 42). Derive from one with `.unwrap()` inside a z.lazy.
 */
export * from './common.js';
export * from './endpoint.js';
export * from './idempotency.js';
export * from './auth.js';
export * from './terms.js';
export * from './balance.js';
export * from './health.js';
export * from './support.js';
export * from './credit.js';
export * from './withdrawal.js';
export * from './statement.js';
export * from './vehicles.js';
export * from './tags.js';
export * from './vpos.js';
export * from './passages.js';
export * from './receipts.js';
export * from './attention.js';
export * from './payouts.js';
export * from './contests.js';
export * from './pix-automatic.js';
export * from './notifications.js';
export * from './profile.js';
export * from './driver-data.js';
export * from './account-closure.js';
export * from './privacy.js';
export * from './free-flow.js';
export * from './fleet.js';
export * from './vehicle-budgets.js';

import { authApi } from './auth.js';
import { balanceApi } from './balance.js';
import { creditApi } from './credit.js';
import { healthApi } from './health.js';
import { statementApi } from './statement.js';
import { supportApi } from './support.js';
import { tagsApi } from './tags.js';
import { termsApi } from './terms.js';
import { vehiclesApi } from './vehicles.js';
import { vposApi } from './vpos.js';
import { passagesApi } from './passages.js';
import { receiptsApi } from './receipts.js';
import { attentionApi } from './attention.js';
import { withdrawalApi } from './withdrawal.js';
import { payoutsApi } from './payouts.js';
import { contestsApi } from './contests.js';
import { pixAutomaticApi } from './pix-automatic.js';
import { notificationsApi } from './notifications.js';
import { profileApi } from './profile.js';
import { driverDataApi } from './driver-data.js';
import { accountClosureApi } from './account-closure.js';
import { privacyApi } from './privacy.js';
import { freeFlowApi } from './free-flow.js';
import { fleetApi } from './fleet.js';
import { vehicleBudgetsApi } from './vehicle-budgets.js';

/** Every call of the API, by name. */
export const api = {
  ...authApi,
  ...termsApi,
  ...balanceApi,
  ...healthApi,
  ...supportApi,
  ...creditApi,
  ...withdrawalApi,
  ...payoutsApi,
  ...statementApi,
  ...tagsApi,
  ...vehiclesApi,
  ...vposApi,
  ...passagesApi,
  ...receiptsApi,
  ...attentionApi,
  ...contestsApi,
  ...pixAutomaticApi,
  ...notificationsApi,
  ...profileApi,
  ...driverDataApi,
  ...privacyApi,
  ...freeFlowApi,
  ...accountClosureApi,
  ...fleetApi,
  ...vehicleBudgetsApi,
};
