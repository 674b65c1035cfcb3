import type { DriverProfile } from '@portal/contract';
import type { ProfileField } from '@portal/domain';
import { PROFILE_FIELDS, profileMessages, toBrazilianE164 } from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { PixProvider } from '../../adapters/pix/port.js';
import type { Dialect } from '../../db/connection.js';
import { lockDriver } from '../../db/lock.js';
import type { Database } from '../../db/schema.js';
import type { PasswordConfirmation } from '../auth/confirmation.js';
import { enqueueNotification } from '../notifications/outbox.js';
import { readProfile } from './queries.js';

export interface ProfileCorrection {
  nome: string;
  /** The 11 national digits. */
  telefone: string;
  senha: string;
}

/**
 * Issue 35 (LGPD art. 18, III): the driver reads and corrects their name and phone. The password
 * confirms; each correction is recorded (which fields, when) and told to the driver's devices in the
 * same transaction; the CPF/CNPJ is the identity and never changes here.
 */
export class ProfileService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly confirmation: PasswordConfirmation,
    private readonly pix: Pick<PixProvider, 'updateCustomerName'>,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  read(driverId: number): Promise<DriverProfile> {
    return readProfile(this.db, driverId);
  }

  /** Saves what differs (nothing when nothing does) once the password is right; `changed` names the fields. */
  async correct(driverId: number, input: ProfileCorrection): Promise<{ profile: DriverProfile; changed: ProfileField[] }> {
    await this.confirmation.check(driverId, input.senha, { message: profileMessages.passwordRequired, field: 'senha' });
    const phone = toBrazilianE164(input.telefone);
    const changed = await this.db.transaction().execute(async (trx) => {
      await lockDriver(trx, this.dialect, driverId);
      const before = await trx.selectFrom('drivers').select(['name', 'phone_number']).where('id', '=', driverId).executeTakeFirstOrThrow();
      const fields = PROFILE_FIELDS.filter((f) => (f === 'nome' ? before.name !== input.nome : before.phone_number !== phone));
      if (fields.length === 0) return fields;
      await trx.updateTable('drivers').set({ name: input.nome, phone_number: phone }).where('id', '=', driverId).execute();
      const now = this.now();
      const change = await trx
        .insertInto('profile_changes')
        .values({ driver_id: driverId, fields: fields.join(','), changed_at: now.toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await enqueueNotification(trx, driverId, { kind: 'profileChanged', changeId: Number(change.id), fields }, now);
      return fields;
    });
    if (changed.length > 0) this.log.info({ driverId, fields: changed }, 'dados do motorista corrigidos');
    const profile = await this.read(driverId);
    if (changed.includes('nome')) await this.tellProvider(driverId, profile);
    return { profile, changed };
  }

  /**
   * LGPD art. 18, § 6: the Pix provider, which holds the name as its customer's, is told at once. If it
   * cannot be reached the correction stands (the provider is told again before the next purchase).
   */
  private async tellProvider(driverId: number, profile: DriverProfile): Promise<void> {
    try {
      await this.pix.updateCustomerName({ name: profile.nome, cpfCnpj: profile.cpfCnpj });
    } catch (error) {
      this.log.warn({ driverId, err: error }, 'nome corrigido não enviado ao provedor Pix; vai na próxima compra');
    }
  }
}
