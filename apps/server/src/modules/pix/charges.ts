import { centsToReais, PIX_CHARGE_TTL_MINUTES, serverMessages } from '@portal/domain';
import type { PixCharge } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import type { PixProvider } from '../../adapters/pix/port.js';
import { toIso } from '../../db/connection.js';
import { newId } from '../../db/ids.js';
import type { Database, PixChargeRow, PixChargesTable } from '../../db/schema.js';
import { HttpError, notFound } from '../../http/errors.js';
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
    private readonly provider: PixProvider,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.expiry = new ChargeExpiry(db, provider, log);
  }

  /** Amount already checked (purchaseAmountError). Provider failure -> 502, nothing stored. */
  async create(driverId: number, amountCents: number): Promise<PixChargeRow> {
    const driver = await this.db
      .selectFrom('drivers')
      .select(['name', 'cpf_cnpj'])
      .where('id', '=', driverId)
      .executeTakeFirstOrThrow();
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
      throw new HttpError(502, serverMessages.pix.providerUnavailable);
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
    await this.db.insertInto('pix_charges').values(row).execute();
    this.log.info({ chargeId: id, driverId, amountCents, provider: this.provider.name }, 'cobrança Pix criada');
    return row;
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
    if (!row) throw notFound(serverMessages.pix.chargeNotFound);
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

