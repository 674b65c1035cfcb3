import { centsToReais } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { liveSessionQuery, sessionLookup } from '../auth/sessions.js';
import type { SessionDriver, SessionLookup } from '../auth/sessions.js';

export interface DriverWithBalances extends SessionDriver {
  ownCents: number | null;
  thirdCents: number | null;
}

/**
 * The balance call's session lookup: the driver of the token and both balances in one statement
 * (the app's most frequent call; a second read cost it about a fifth of its time). The balances
 * are the same rows the ledger's balances() reads.
 */
function sessionWithBalances(db: Kysely<Database>): SessionLookup<DriverWithBalances> {
  return sessionLookup(db, (tokenHash, now) =>
    liveSessionQuery(db, tokenHash, now).select((eb) => [
      eb
        .selectFrom('accounts')
        .select('balance_cents')
        .whereRef('accounts.driver_id', '=', 'drivers.id')
        .where('accounts.kind', '=', 'own')
        .as('ownCents'),
      eb
        .selectFrom('accounts')
        .select('balance_cents')
        .whereRef('accounts.driver_id', '=', 'drivers.id')
        .where('accounts.kind', '=', 'third')
        .as('thirdCents'),
    ]),
  );
}

/** Saldo (own account) and SaldoTerceiro (balance held on other platforms), in reais. */
export function balancesInReais(driver: DriverWithBalances): { Saldo: number; SaldoTerceiro: number } {
  return { Saldo: centsToReais(driver.ownCents ?? 0), SaldoTerceiro: centsToReais(driver.thirdCents ?? 0) };
}

/** The balance call's reads, built once in services.ts. */
export class BalanceService {
  /** The session lookup the balance call authenticates with: the driver and both balances in one statement. */
  readonly session: SessionLookup<DriverWithBalances>;

  constructor(private readonly db: Kysely<Database>) {
    this.session = sessionWithBalances(db);
  }

  /** The balances of another account than the session's person (a company's, decision 77). */
  async of(driver: SessionDriver): Promise<DriverWithBalances> {
    const rows = await this.db
      .selectFrom('accounts')
      .select(['kind', 'balance_cents'])
      .where('driver_id', '=', driver.id)
      .where('kind', 'in', ['own', 'third'])
      .execute();
    const cents = (kind: string) => rows.find((r) => r.kind === kind)?.balance_cents ?? null;
    return { ...driver, ownCents: cents('own'), thirdCents: cents('third') };
  }
}
