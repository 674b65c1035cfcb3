import { maskCpfCnpj, messages, toBrazilianE164 } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { isUniqueViolation, nowIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { fieldError, HttpError } from '../../http/errors.js';
import { openAccounts } from '../ledger/ledger.js';
import type { PasswordHasher } from './passwords.js';
import type { SessionStore } from './sessions.js';
import type { LoginThrottle } from './throttle.js';

export interface DriverSummary {
  id: number;
  name: string;
  cpfCnpj: string;
}

export interface Registration {
  name: string;
  cpfCnpj: string;
  phoneNumber: string;
  password: string;
}

export class AuthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: SessionStore,
    private readonly passwords: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** cpfCnpj already stripped by the contract. Unknown document and wrong password fail alike. */
  async login(cpfCnpj: string, password: string, ip: string): Promise<{ token: string; driver: DriverSummary }> {
    if (await this.throttle.isBlocked(cpfCnpj, ip)) {
      this.log.warn({ cpfCnpj: maskCpfCnpj(cpfCnpj) }, 'login bloqueado por excesso de tentativas');
      throw new HttpError(429, messages.login.throttled);
    }
    const row = await this.db
      .selectFrom('drivers')
      .select(['id', 'name', 'cpf_cnpj', 'password_hash'])
      .where('cpf_cnpj', '=', cpfCnpj)
      .executeTakeFirst();
    const ok = row ? await this.passwords.verify(row.password_hash, password) : await this.passwords.verifyDummy(password);
    if (!row || !ok) {
      await this.throttle.recordFailure(cpfCnpj, ip);
      this.log.info({ cpfCnpj: maskCpfCnpj(cpfCnpj) }, 'login recusado');
      throw new HttpError(401, messages.login.invalidCredentials);
    }
    await this.throttle.clear(cpfCnpj);
    const token = await this.sessions.create(this.db, row.id);
    return { token, driver: { id: row.id, name: row.name, cpfCnpj: row.cpf_cnpj } };
  }

  /** Driver, both ledger accounts and the first session in one transaction. */
  async register(input: Registration): Promise<{ token: string; driver: DriverSummary & { phoneNumber: string } }> {
    const taken = () => fieldError('cpfCnpj', messages.registration.cpfCnpjTaken);
    const exists = await this.db.selectFrom('drivers').select('id').where('cpf_cnpj', '=', input.cpfCnpj).executeTakeFirst();
    if (exists) throw taken();
    const passwordHash = await this.passwords.hash(input.password);
    const phoneNumber = toBrazilianE164(input.phoneNumber);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const driver = await trx
          .insertInto('drivers')
          .values({
            name: input.name,
            cpf_cnpj: input.cpfCnpj,
            phone_number: phoneNumber,
            password_hash: passwordHash,
            created_at: nowIso(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await openAccounts(trx, driver.id);
        const token = await this.sessions.create(trx, driver.id);
        this.log.info({ driverId: driver.id, cpfCnpj: maskCpfCnpj(input.cpfCnpj) }, 'motorista cadastrado');
        return { token, driver: { id: driver.id, name: input.name, cpfCnpj: input.cpfCnpj, phoneNumber } };
      });
    } catch (error) {
      // Two sign-ups with the same document at once: the unique constraint decides.
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  async logout(sessionId: number): Promise<void> {
    await this.sessions.revoke(sessionId);
  }
}
