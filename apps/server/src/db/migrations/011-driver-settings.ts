import type { Kysely, Migration } from 'kysely';

/**
 * Issue 12: the driver's balance alert level (the dashboard warns below it), in centavos. A
 * nullable column of drivers, not a settings table: one preference, one row per driver already
 * there, read by the same primary-key lookup. NULL = never chosen: the default of the day
 * (domain DEFAULT_BALANCE_ALERT_CENTS) applies, so changing the default reaches those drivers.
 * Adding a nullable column without a default rewrites nothing on either database.
 */
export function driverSettings(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('drivers').addColumn('balance_alert_cents', 'integer').execute();
    },
  };
}
