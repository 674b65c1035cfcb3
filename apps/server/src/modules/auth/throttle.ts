import { Refusal, serverMessages } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Pace, Take, WindowRef } from '../../db/rate-limit-store.js';
import { RateLimitStore } from '../../db/rate-limit-store.js';

export interface LoginLimits {
  /** Window of the per-CPF+address and per-address buckets. */
  windowMinutes: number;
  maxPerDocumentAddress: number;
  maxPerAddress: number;
  /** Attempts a day on one CPF/CNPJ from addresses it never signed in from, before the delay. */
  documentFreeAttempts: number;
  documentMaxDelaySeconds: number;
  /** How long an address where the driver signed in skips that delay. */
  knownAddressDays: number;
}

export type LoginBucket = 'document+address' | 'address' | 'document';

const SCOPE = { pair: 'login:document+address', address: 'login:address', document: 'login:document', known: 'login:known' };
const DOCUMENT_WINDOW_MS = 24 * 3_600_000;
const FIRST_DELAY_MS = 1000;

/** 429 with Retry-After; `bucket` says which limit refused, for the log. */
export class LoginThrottled extends Refusal {
  constructor(
    readonly bucket: LoginBucket,
    retryAfterSeconds: number,
  ) {
    super('too-many', serverMessages.login.throttled, { retryAfterSeconds });
  }
}

/** What one admitted attempt counted, to be given back when it succeeds. */
export interface LoginTicket {
  pairKey: string;
  counted: WindowRef[];
}

/**
 * Sign-in limits (docs/decisions.md, "Sign-in and request limits"). An attempt is counted in the
 * database before its password is checked, and refused with 429 when a bucket is full:
 * - per CPF/CNPJ + address: a few attempts a window; a success clears it;
 * - per address: many more, for carriers that put many drivers behind one address;
 * - per CPF/CNPJ, from addresses where it never signed in: a growing delay rather than a
 *   lockout, so strangers can slow an account but not shut the driver out of the address
 *   they use (which skips the delay).
 */
export class LoginThrottle {
  private readonly store: RateLimitStore;
  private readonly windowMs: number;
  private readonly pace: Pace;

  constructor(
    db: Kysely<Database>,
    private readonly limits: LoginLimits,
  ) {
    this.store = new RateLimitStore(db);
    this.windowMs = limits.windowMinutes * 60_000;
    this.pace = {
      windowMs: DOCUMENT_WINDOW_MS,
      free: limits.documentFreeAttempts,
      baseDelayMs: FIRST_DELAY_MS,
      maxDelayMs: limits.documentMaxDelaySeconds * 1000,
    };
  }

  /** Counts the attempt in every bucket, or throws LoginThrottled having counted nothing. */
  async admit(document: string, address: string): Promise<LoginTicket> {
    const pairKey = `${document}|${address}`;
    const counted: WindowRef[] = [];
    const need = (bucket: LoginBucket, take: Take): void => {
      if (!take.allowed) throw new LoginThrottled(bucket, Math.ceil(take.retryAfterMs / 1000));
      counted.push(take.window);
    };
    try {
      need('document+address', await this.store.take(SCOPE.pair, pairKey, this.limits.maxPerDocumentAddress, this.windowMs));
      need('address', await this.store.take(SCOPE.address, address, this.limits.maxPerAddress, this.windowMs));
      if (!(await this.store.isMarked(SCOPE.known, pairKey))) {
        need('document', await this.store.pace(SCOPE.document, document, this.pace));
      }
    } catch (error) {
      // Refused by a later bucket: the earlier ones did not see a password check.
      await Promise.all(counted.map((w) => this.store.giveBack(w)));
      throw error;
    }
    return { pairKey, counted };
  }

  /** The right password: only failures stay counted, and this address skips the delay from now on. */
  async succeeded(ticket: LoginTicket): Promise<void> {
    await this.store.clear(SCOPE.pair, ticket.pairKey);
    await Promise.all(ticket.counted.filter((w) => w.scope !== SCOPE.pair).map((w) => this.store.giveBack(w)));
    await this.remember(ticket.pairKey);
  }

  /** A driver who just registered from this address is at home there too. */
  async registered(document: string, address: string): Promise<void> {
    await this.remember(`${document}|${address}`);
  }

  private remember(pairKey: string): Promise<void> {
    return this.store.mark(SCOPE.known, pairKey, this.limits.knownAddressDays * 24 * 3_600_000);
  }
}

/**
 * Decision 70: the sign-in throttle's rows that name a document (its pace, its known addresses),
 * deleted when its account is closed: the document belongs to no account any more.
 */
export async function forgetDocument(db: Kysely<Database>, document: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('scope', '=', SCOPE.document).where('key', '=', document).execute();
  await db.deleteFrom('rate_limits').where('scope', 'in', [SCOPE.pair, SCOPE.known]).where('key', 'like', `${document}|%`).execute();
}
