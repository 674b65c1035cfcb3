import { centsToReais } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { balances } from '../ledger/ledger.js';

/** Saldo (own account) and SaldoTerceiro (balance held on other platforms), in reais. */
export async function driverBalance(db: Kysely<Database>, driverId: number): Promise<{ Saldo: number; SaldoTerceiro: number }> {
  const b = await balances(db, driverId);
  return { Saldo: centsToReais(b.own), SaldoTerceiro: centsToReais(b.third) };
}
