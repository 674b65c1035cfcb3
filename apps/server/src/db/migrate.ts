import { Migrator } from 'kysely';
import type { Migration, MigrationProvider, MigrationResultSet } from 'kysely';
import { ADVISORY_LOCKS, withAdvisoryLock } from './advisory-lock.js';
import type { Db } from './connection.js';
import { initial } from './migrations/001-initial.js';
import { pix } from './migrations/002-pix.js';
import { tags } from './migrations/003-tags.js';
import { partners } from './migrations/004-partners.js';
import { rateLimits } from './migrations/005-rate-limits.js';
import { partnerScope } from './migrations/006-partner-scope.js';
import { webhookEvents } from './migrations/007-webhook-events.js';
import { statementOrder } from './migrations/008-statement-order.js';
import { idempotencyKeys } from './migrations/009-idempotency-keys.js';
import { statementFilters } from './migrations/010-statement-filters.js';
import { driverSettings } from './migrations/011-driver-settings.js';
import { withdrawalReceiver } from './migrations/012-withdrawal-receiver.js';
import { payoutProtection } from './migrations/013-payout-protection.js';
import { vpoMoney } from './migrations/014-vpo-money.js';
import { statementBuckets } from './migrations/015-statement-buckets.js';
import { contests } from './migrations/016-contests.js';
import { pushNotifications } from './migrations/017-push-notifications.js';
import { pixAutomatic } from './migrations/018-pix-automatic.js';
import { emailKeysOneSpelling } from './migrations/019-email-keys-one-spelling.js';
import { statementAccountSums } from './migrations/020-statement-account-sums.js';
import { profileChanges } from './migrations/021-profile-changes.js';
import { driverData } from './migrations/022-driver-data.js';
import { accountClosure } from './migrations/023-account-closure.js';
import { freeFlow } from './migrations/024-free-flow.js';
import { fleet } from './migrations/025-fleet.js';
import { vehicleBudgets } from './migrations/026-vehicle-budgets.js';
import { entryVehicles } from './migrations/027-entry-vehicles.js';
import { monthlyPartitions } from './migrations/028-monthly-partitions.js';
import { contestCounts } from './migrations/029-contest-counts.js';
import { columnTypes } from './migrations/types.js';

/** Ordered by name; never edit a released migration, add a new one. */
function migrations(db: Db): Record<string, Migration> {
  const t = columnTypes(db.dialect);
  return {
    '001-initial': initial(t),
    '002-pix': pix(t, db.dialect),
    '003-tags': tags(t),
    '004-partners': partners(t),
    '005-rate-limits': rateLimits(),
    '006-partner-scope': partnerScope(t),
    '007-webhook-events': webhookEvents(t),
    '008-statement-order': statementOrder(),
    '009-idempotency-keys': idempotencyKeys(t),
    '010-statement-filters': statementFilters(),
    '011-driver-settings': driverSettings(),
    '012-withdrawal-receiver': withdrawalReceiver(),
    '013-payout-protection': payoutProtection(t),
    '014-vpo-money': vpoMoney(t, db.dialect),
    '015-statement-buckets': statementBuckets(t, db.dialect),
    '016-contests': contests(t),
    '017-push-notifications': pushNotifications(t),
    '018-pix-automatic': pixAutomatic(t),
    '019-email-keys-one-spelling': emailKeysOneSpelling(),
    '020-statement-account-sums': statementAccountSums(db.dialect),
    '021-profile-changes': profileChanges(t),
    '022-driver-data': driverData(t),
    '023-account-closure': accountClosure(t),
    '024-free-flow': freeFlow(t, db.dialect),
    '025-fleet': fleet(t, db.dialect),
    '026-vehicle-budgets': vehicleBudgets(t),
    '027-entry-vehicles': entryVehicles(t, db.dialect),
    '028-monthly-partitions': monthlyPartitions(t, db.dialect),
    '029-contest-counts': contestCounts(db.dialect),
  };
}

/** The migrations this build knows that the database has not applied yet (GET /api/ready). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const all = await migratorOf(db).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  return run(db, (m) => m.migrateToLatest());
}

/** Up (or down) to one named migration: tests of a migration's data backfill. */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  return run(db, (m) => m.migrateTo(name));
}

/**
 * Kysely locks the migrations themselves, but creates its bookkeeping tables before taking that
 * lock: two instances migrating a new PostgreSQL database at once collide there. Our lock covers both.
 */
async function run(db: Db, step: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  return withAdvisoryLock(db, ADVISORY_LOCKS.migrations, (locked) => runUnlocked(locked, step));
}

async function runUnlocked(db: Db, step: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  const { error, results } = await step(migratorOf(db));
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

function migratorOf(db: Db): Migrator {
  const provider: MigrationProvider = { getMigrations: async () => migrations(db) };
  return new Migrator({ db: db.kysely, provider });
}
