import { maskCpfCnpj, messages, refuse, serverMessages, toBrazilianE164 } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { isUniqueViolation, nowIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import type { Metrics } from '../../metrics.js';
import { openAccounts } from '../ledger/ledger.js';
import type { PasswordHasher } from './passwords.js';
import { recordAccess } from './access-records.js';
import type { SessionStore } from './sessions.js';
import type { LoginThrottle, LoginTicket } from './throttle.js';
import { LoginThrottled } from './throttle.js';

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
    private readonly metrics: Metrics,
  ) {}

  /**
   * cpfCnpj already stripped by the contract. Unknown document and wrong password fail alike.
   * The attempt is counted before the password is checked (LoginThrottle): a burst of guesses
   * gets at most the limit of checks, the rest 429.
   */
  async login(cpfCnpj: string, password: string, ip: string): Promise<{ token: string; driver: DriverSummary }> {
    let ticket: LoginTicket;
    try {
      ticket = await this.throttle.admit(cpfCnpj, ip);
    } catch (error) {
      if (error instanceof LoginThrottled) {
        this.metrics.loginRefused('throttled');
        this.log.warn(
          { cpfCnpj: maskCpfCnpj(cpfCnpj), limit: error.bucket, remoteAddress: ip },
          'login bloqueado por excesso de tentativas',
        );
      }
      throw error;
    }
    const row = await this.db
      .selectFrom('drivers')
      .select(['id', 'name', 'cpf_cnpj', 'password_hash'])
      .where('cpf_cnpj', '=', cpfCnpj)
      .executeTakeFirst();
    const ok = row ? await this.passwords.verify(row.password_hash, password) : await this.passwords.verifyDummy(password);
    if (!row || !ok) {
      this.log.info({ cpfCnpj: maskCpfCnpj(cpfCnpj) }, 'login recusado');
      this.metrics.loginRefused('invalid_credentials');
      throw refuse.unauthenticated(messages.login.invalidCredentials);
    }
    await this.throttle.succeeded(ticket);
    const token = await this.db.transaction().execute(async (trx) => {
      await recordAccess(trx, row.id, 'entrada', ip);
      return this.sessions.create(trx, row.id);
    });
    return { token, driver: { id: row.id, name: row.name, cpfCnpj: row.cpf_cnpj } };
  }

  /** Driver, both ledger accounts and the first session in one transaction; `ip` is then a known address. */
  async register(input: Registration, ip?: string): Promise<{ token: string; driver: DriverSummary & { phoneNumber: string } }> {
    const taken = () => refuse.invalid(serverMessages.registration.cpfCnpjTaken, 'cpfCnpj');
    const exists = await this.db.selectFrom('drivers').select('id').where('cpf_cnpj', '=', input.cpfCnpj).executeTakeFirst();
    if (exists) throw taken();
    const passwordHash = await this.passwords.hash(input.password);
    const phoneNumber = toBrazilianE164(input.phoneNumber);
    let created: { token: string; driver: DriverSummary & { phoneNumber: string } };
    try {
      created = await this.db.transaction().execute(async (trx) => {
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
        if (ip) await recordAccess(trx, driver.id, 'cadastro', ip);
        this.log.info({ driverId: driver.id, cpfCnpj: maskCpfCnpj(input.cpfCnpj) }, 'motorista cadastrado');
        return { token, driver: { id: driver.id, name: input.name, cpfCnpj: input.cpfCnpj, phoneNumber } };
      });
    } catch (error) {
      // Two sign-ups with the same document at once: the unique constraint decides.
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
    if (ip) {
      // The account exists: a failure here only costs the driver the known-address shortcut.
      await this.throttle
        .registered(input.cpfCnpj, ip)
        .catch((err: unknown) => this.log.warn({ err }, 'endereço do cadastro não registrado'));
    }
    return created;
  }

  async logout(sessionId: number): Promise<void> {
    await this.sessions.revoke(sessionId);
  }
}
