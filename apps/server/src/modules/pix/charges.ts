import { centsToReais, PIX_CHARGE_TTL_MINUTES, Refusal, refuse, serverMessages } from '@portal/domain';
import type { PixCharge } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import type { PixProvider } from '../../adapters/pix/port.js';
import { toIso } from '../../db/connection.js';
import { newId } from '../../db/ids.js';
import type { Database, PixChargeRow, PixChargesTable } from '../../db/schema.js';
import type { Dialect } from '../../db/connection.js';
import { lockDriver } from '../../db/lock.js';
import type { RateLimitStore } from '../../db/rate-limit-store.js';
import type { DriverCallLimits } from '../payouts/guard.js';
import { minutesUntil } from '../auth/confirmation.js';
import { isClosedAccount } from '../auth/closed.js';

const CHARGES_SCOPE = 'driver-pix-charges';
const HOUR_MS = 3_600_000;
import { ChargeExpiry } from './expiry.js';

export function chargeView(row: PixChargeRow): PixCharge {
  return {
    id: row.id,
    payload: row.payload,
    valor: centsToReais(row.amount_cents),
    status: row.status,
    expiresAt: toIso(row.expires_at),
    createdAt: toIso(row.created_at),
  };
}

/** Buying credit: a Pix charge made by the provider and kept with its status (settled by the webhook). */
export class ChargeService {
  private readonly expiry: ChargeExpiry;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly provider: PixProvider,
    private readonly limits: DriverCallLimits,
    private readonly counters: RateLimitStore,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.expiry = new ChargeExpiry(db, provider, log);
  }

  /**
   * Amount already checked (purchaseAmountError). Provider failure -> 502, nothing stored. Each
   * driver has CHARGES_PENDING waiting at once and CHARGES_PER_HOUR (issue 21, point 4): the hour's
   * count is taken atomically before the provider is asked, the pending count again when storing.
   */
  async create(driverId: number, amountCents: number): Promise<PixChargeRow> {
    await this.refuseIfPendingFull(this.db, driverId);
    const hourly = await this.counters.take(CHARGES_SCOPE, String(driverId), this.limits.chargesPerHour, HOUR_MS, this.now().getTime());
    if (!hourly.allowed) {
      throw refuse.tooMany(serverMessages.payouts.tooManyCharges(minutesUntil(hourly.retryAfterMs)), Math.ceil(hourly.retryAfterMs / 1000));
    }
    const driver = await this.db.selectFrom('drivers').select(['name', 'cpf_cnpj']).where('id', '=', driverId).executeTakeFirstOrThrow();
    const id = newId('chg');
    const createdAt = this.now();
    const expiresAt = new Date(createdAt.getTime() + PIX_CHARGE_TTL_MINUTES * 60_000);
    let created;
    try {
      created = await this.provider.createCharge({
        chargeId: id,
        amountCents,
        driver: { name: driver.name, cpfCnpj: driver.cpf_cnpj },
        expiresAt,
      });
    } catch (error) {
      this.log.error({ err: error, chargeId: id, provider: this.provider.name }, 'falha ao gerar cobrança Pix');
      throw refuse.providerFailed(serverMessages.pix.providerUnavailable);
    }
    const row: Insertable<PixChargesTable> & PixChargeRow = {
      id,
      driver_id: driverId,
      provider: this.provider.name,
      provider_charge_id: created.providerChargeId,
      amount_cents: amountCents,
      payload: created.payload,
      encoded_image: created.encodedImage,
      status: 'PENDING' as const,
      expires_at: created.expiresAt.toISOString(),
      created_at: createdAt.toISOString(),
      received_at: null,
      refunded_at: null,
      refunded_cents: 0,
      provider_cancelled_at: null,
    };
    try {
      await this.db.transaction().execute(async (trx) => {
        await lockDriver(trx, this.dialect, driverId);
        // Decision 70: the account was closed while the provider made the charge.
        if (await isClosedAccount(trx, driverId)) throw refuse.unauthenticated(serverMessages.session.unauthorized);
        await this.refuseIfPendingFull(trx, driverId);
        await trx.insertInto('pix_charges').values(row).execute();
      });
    } catch (error) {
      // Concurrent purchases filled the driver's pending charges meanwhile, or the account was
      // closed: this one must not be payable.
      if (error instanceof Refusal && (error.kind === 'too-many' || error.kind === 'unauthenticated'))
        await this.expiry.cancelAtProvider(row);
      throw error;
    }
    this.log.info({ chargeId: id, driverId, amountCents, provider: this.provider.name }, 'cobrança Pix criada');
    return row;
  }

  private async refuseIfPendingFull(db: Kysely<Database>, driverId: number): Promise<void> {
    const row = await db
      .selectFrom('pix_charges')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('driver_id', '=', driverId)
      .where('status', '=', 'PENDING')
      .where('expires_at', '>', this.now().toISOString())
      // Decision 58: a Pix Automático cycle waits for the bank's debit, not for the driver.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom('pix_automatic_cycles').select('charge_id').whereRef('pix_automatic_cycles.charge_id', '=', 'pix_charges.id')),
        ),
      )
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= this.limits.chargesPending) {
      throw refuse.tooMany(serverMessages.payouts.tooManyPending(this.limits.chargesPending), PIX_CHARGE_TTL_MINUTES * 60);
    }
  }

  /**
   * The driver's own charge (another driver's reads as unknown). A PENDING charge past its time
   * becomes OVERDUE and is cancelled at the provider (once: only the request that changed it).
   */
  async forDriver(driverId: number, id: string): Promise<PixChargeRow> {
    const row = await this.db
      .selectFrom('pix_charges')
      .selectAll()
      .where('id', '=', id)
      .where('driver_id', '=', driverId)
      .executeTakeFirst();
    if (!row) throw refuse.notFound(serverMessages.pix.chargeNotFound);
    if (row.status === 'PENDING' && new Date(row.expires_at).getTime() <= this.now().getTime()) {
      const changed = await this.db
        .updateTable('pix_charges')
        .set({ status: 'OVERDUE' })
        .where('id', '=', id)
        .where('status', '=', 'PENDING')
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) > 0) await this.expiry.cancelAtProvider(row);
      return { ...row, status: 'OVERDUE' };
    }
    return row;
  }
}
