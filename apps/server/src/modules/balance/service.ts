import { centsToReais } from '@portal/domain';
import type { Kysely } from 'kysely';
import { compileOnce } from '../../db/compiled-query.js';
import type { Database } from '../../db/schema.js';

export type DriverBalance = (driverId: number) => Promise<{ Saldo: number; SaldoTerceiro: number }>;

/**
 * Saldo (own account) and SaldoTerceiro (balance held on other platforms), in reais. The same
 * query as the ledger's balances(), compiled once: the balance call is the app's most frequent.
 */
export function driverBalanceReader(db: Kysely<Database>): DriverBalance {
  const accounts = compileOnce(db, (param: (name: 'driverId') => never) =>
    db.selectFrom('accounts').select(['kind', 'balance_cents']).where('driver_id', '=', param('driverId')),
  );
  return async (driverId) => {
    const cents = { own: 0, third: 0 };
    for (const row of await accounts({ driverId })) cents[row.kind] = Number(row.balance_cents);
    return { Saldo: centsToReais(cents.own), SaldoTerceiro: centsToReais(cents.third) };
  };
}
