import type { Trx } from '../../db/connection.js';
import { lockTagHolders } from '../../db/lock.js';

/**
 * PostgreSQL: the row locks a call of recordPassages will take, before the first passage runs
 * (lockTagHolders' order; a tag FOR KEY SHARE, what a month's first passage takes through its
 * usage row). Only the operator's own tags: the others are refused without touching anything.
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
  await lockTagHolders(trx, tags, 'key share');
}
