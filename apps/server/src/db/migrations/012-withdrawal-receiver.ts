import type { Kysely, Migration } from 'kysely';

/**
 * Issue 21: a withdrawal's receipt names the receiver as the provider reports it (the holder of
 * the account the Pix key leads to), never the driver by assumption. NULL: not reported (the local
 * provider, a transfer that failed before the key was resolved): the receipt says so. Nullable
 * columns without a default rewrite nothing on either database.
 */
export function withdrawalReceiver(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('withdrawals').addColumn('receiver_name', 'text').execute();
      await db.schema.alterTable('withdrawals').addColumn('receiver_document', 'text').execute();
    },
  };
}
