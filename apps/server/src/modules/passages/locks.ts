import { sql } from 'kysely';
import type { Trx } from '../../db/connection.js';

/**
 * PostgreSQL: the row locks a call of recordPassages will take, before the first passage runs, each kind
 * sorted: the drivers (FOR NO KEY UPDATE, as lockDriver), the tags (FOR KEY SHARE, what a month's
 * first passage takes through its usage row), the drivers' accounts (FOR NO KEY UPDATE, as the
 * ledger's UPDATE; whatever the ledger writes after an account, it writes holding that account).
 * A transaction that locks one driver, or a tag and then its account (the billing, an
 * activation), meets them in the same order. Only the operator's own tags: the others are
 * refused without touching anything.
 */
export async function lockPassageHolders(trx: Trx, operatorCnpj: string, serials: string[]): Promise<void> {
  const tags = await trx
    .selectFrom('tags')
    .select(['id', 'driver_id'])
    .where('serial_number', 'in', [...new Set(serials)])
    .where('operator_cnpj', '=', operatorCnpj)
    .where('deleted_at', 'is', null)
    .where('released_at', 'is', null)
    .execute();
  if (tags.length === 0) return;
  const drivers = [...new Set(tags.map((t) => t.driver_id))].sort((a, b) => a - b);
  const tagIds = [...new Set(tags.map((t) => t.id))].sort((a, b) => a - b);
  await sql`select id from drivers where id in (${sql.join(drivers)}) order by id for no key update`.execute(trx);
  await sql`select id from tags where id in (${sql.join(tagIds)}) order by id for key share`.execute(trx);
  await sql`select id from accounts where driver_id in (${sql.join(drivers)}) order by id for no key update`.execute(trx);
}
