import type { Kysely } from 'kysely';
import { nowIso } from '../../db/connection.js';
import type { Database, LoginFailureScope } from '../../db/schema.js';

export interface ThrottleLimits {
  maxFailuresPerDocument: number;
  maxFailuresPerIp: number;
  windowMinutes: number;
}

/**
 * Failed sign-ins counted in the database, so every server instance sees the same counters:
 * a sliding window per CPF/CNPJ and, much looser, per IP address.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly limits: ThrottleLimits,
  ) {}

  async isBlocked(document: string, ip: string): Promise<boolean> {
    const [byDocument, byIp] = await Promise.all([this.count('document', document), this.count('ip', ip)]);
    return byDocument >= this.limits.maxFailuresPerDocument || byIp >= this.limits.maxFailuresPerIp;
  }

  async recordFailure(document: string, ip: string): Promise<void> {
    const now = nowIso();
    await this.db
      .insertInto('login_failures')
      .values([
        { scope: 'document', key: document, created_at: now },
        { scope: 'ip', key: ip, created_at: now },
      ])
      .execute();
    // Old rows no longer count; dropping them here keeps the table small without a job.
    await this.db.deleteFrom('login_failures').where('created_at', '<', this.windowStart()).execute();
  }

  async clear(document: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('scope', '=', 'document').where('key', '=', document).execute();
  }

  private async count(scope: LoginFailureScope, key: string): Promise<number> {
    const row = await this.db
      .selectFrom('login_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('created_at', '>', this.windowStart())
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private windowStart(): string {
    return new Date(Date.now() - this.limits.windowMinutes * 60_000).toISOString();
  }
}
