// The set-up the offline and safe-retry tests share: the screens they open loaded once, retries
// without waiting, and nothing kept on the phone from one test to the next.
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { retryPolicy } from '../../src/lib/idempotency';
import { forgetKeptData } from './keptData';
import { connection, ok } from './utils';
import { vehicle } from './vehicle';

/** GET /api/veiculo/detail/ABC1D23's answer for a vehicle carrying `tag`. */
export const vehicleDetail = (tag: unknown) =>
  ok({
    Dados: { ...vehicle, modelo: 'm', tag },
  });

/** Retries without waiting, in the tests that count them. */
export const fastRetries = [0, 0, 0];

/** Registers the shared hooks in the calling test file. */
export function registerOfflineAppHooks(): void {
  beforeAll(async () => {
    await Promise.all([
      import('../../src/app/AuthenticatedShell'),
      import('../../src/app/routes/DashboardRoute'),
      import('../../src/features/withdrawal/WithdrawPage'),
      import('../../src/features/credit/BuyBalancePage'),
      import('../../src/features/tags/TagsListPage'),
      import('../../src/features/tags/TagDetailPage'),
      import('../../src/features/vehicles/VehiclesListPage'),
      import('../../src/features/statement/StatementPage'),
    ]);
  });

  const realRetries = retryPolicy.delaysMs;
  beforeEach(() => {
    retryPolicy.delaysMs = fastRetries;
  });
  afterEach(async () => {
    retryPolicy.delaysMs = realRetries;
    if (!connection.online) connection.set(true);
    await forgetKeptData();
  });
}
