import type { PixAutomaticAuthorization } from '@portal/contract';
import type { PixAutomaticFrequency } from '@portal/domain';
import {
  PIX_AUTOMATIC_QR_TTL_MINUTES,
  pixAutomaticMessages,
  pixAutomaticStateLabels,
  refuse,
  saoPauloDay,
  serverMessages,
} from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { PixProvider } from '../../adapters/pix/port.js';
import type { Db } from '../../db/connection.js';
import { isUniqueViolation } from '../../db/connection.js';
import { newId } from '../../db/ids.js';
import { lockDriver } from '../../db/lock.js';
import type { RateLimitStore } from '../../db/rate-limit-store.js';
import type { Insertable } from 'kysely';
import type { PixAutomaticAuthorizationsTable, PixAutomaticEndReason, PixAutomaticRow } from '../../db/schema.js';
import type { DriverCallLimits } from '../payouts/guard.js';
import { minutesUntil } from '../auth/confirmation.js';
import { isClosedAccount } from '../auth/closed.js';
import { endAuthorization } from './authorization-end.js';
import { authorizationById, authorizationView, isLive, liveAuthorization, newestAuthorization } from './queries.js';

/** The same hourly count as a purchase's Pix (issue 21, point 4): each authorization is a QR Code to pay. */
const CHARGES_SCOPE = 'driver-pix-charges';
const HOUR_MS = 3_600_000;

const STATE_OF = { CREATED: 'AGUARDANDO', ACTIVE: 'ATIVA', REFUSED: 'RECUSADA', CANCELLED: 'CANCELADA', EXPIRED: 'EXPIRADA' } as const;

/** What replaces the authorization being opened: the one waiting (a new QR Code) or the one whose value changes. */
interface Replacing {
  row: PixAutomaticRow;
  reason: Extract<PixAutomaticEndReason, 'replaced' | 'valueChanged'>;
}

/**
 * Decision 58: the driver's recurring top-up by Pix Automático. One authorization waiting or active
 * per driver (pix_automatic_one_live_idx). The provider is asked first and the rows written after, as
 * a purchase's charge is: a provider that fails leaves nothing changed (502). A new value is a new
 * authorization (the provider has no call to change one): the current one is cancelled there first.
 */
export class PixAutomaticService {
  constructor(
    private readonly db: Db,
    private readonly provider: PixProvider,
    private readonly enabled: boolean,
    private readonly limits: DriverCallLimits,
    private readonly counters: RateLimitStore,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** False until the operator says the provider offers it (Asaas enables Pix Automático on request). */
  get available(): boolean {
    return this.enabled;
  }

  /** The one waiting or active, else the last that ended; null: never had one. A QR Code past its time is refused here. */
  async current(driverId: number): Promise<PixAutomaticAuthorization | null> {
    let row = (await liveAuthorization(this.db.kysely, driverId)) ?? (await newestAuthorization(this.db.kysely, driverId));
    if (row?.status === 'CREATED' && new Date(row.qr_expires_at).getTime() <= this.now().getTime()) {
      const expired = row;
      const changed = await this.db.kysely
        .transaction()
        .execute((trx) => endAuthorization(trx, expired.id, 'REFUSED', 'qrExpired', this.now(), ['CREATED']));
      // Only the request that changed it stops the QR Code at the provider.
      if (changed) await this.cancelQuietly(expired.provider_authorization_id);
      row = await authorizationById(this.db.kysely, expired.id);
    }
    return row ? authorizationView(this.db.kysely, row) : null;
  }

  /** A new authorization; one still waiting for its first Pix is replaced (its QR Code stops), an active one refuses. */
  async create(driverId: number, amountCents: number, frequency: PixAutomaticFrequency): Promise<PixAutomaticAuthorization> {
    this.requireAvailable();
    const live = await liveAuthorization(this.db.kysely, driverId);
    if (live?.status === 'ACTIVE') throw refuse.conflict(pixAutomaticMessages.alreadyActive);
    return this.open(driverId, amountCents, frequency, live ? { row: live, reason: 'replaced' } : null);
  }

  /** Decision 58: a new value is a new authorization and a new QR Code to pay; the current one is cancelled. */
  async changeValue(driverId: number, id: string, amountCents: number): Promise<PixAutomaticAuthorization> {
    this.requireAvailable();
    const row = await this.own(driverId, id);
    if (!isLive(row.status)) throw ended(row);
    if (Number(row.amount_cents) === amountCents) throw refuse.invalid(pixAutomaticMessages.sameValue, 'valor');
    return this.open(driverId, amountCents, row.frequency, { row, reason: 'valueChanged' });
  }

  /** Cancelled at the provider, then here (always possible, even without the terms accepted or the feature on). */
  async cancel(driverId: number, id: string): Promise<PixAutomaticAuthorization> {
    const row = await this.own(driverId, id);
    if (!isLive(row.status)) throw ended(row);
    try {
      const cancelled = await this.provider.cancelAutomaticAuthorization(row.provider_authorization_id);
      // Refused there: already ended at the bank (its event may still be on its way).
      if (!cancelled) this.log.info({ authorizationId: row.id }, 'provedor recusou cancelar a autorização (já encerrada lá?)');
    } catch (error) {
      this.log.error({ err: error, authorizationId: row.id, provider: this.provider.name }, 'falha ao cancelar o Pix Automático');
      throw refuse.providerFailed(pixAutomaticMessages.providerUnavailable);
    }
    await this.db.kysely.transaction().execute((trx) => endAuthorization(trx, row.id, 'CANCELLED', 'driver', this.now()));
    this.log.info({ authorizationId: row.id, driverId }, 'Pix Automático cancelado pelo motorista');
    return authorizationView(this.db.kysely, (await authorizationById(this.db.kysely, row.id)) ?? row);
  }

  private async open(
    driverId: number,
    amountCents: number,
    frequency: PixAutomaticFrequency,
    replacing: Replacing | null,
  ): Promise<PixAutomaticAuthorization> {
    const hourly = await this.counters.take(CHARGES_SCOPE, String(driverId), this.limits.chargesPerHour, HOUR_MS, this.now().getTime());
    if (!hourly.allowed) {
      throw refuse.tooMany(serverMessages.payouts.tooManyCharges(minutesUntil(hourly.retryAfterMs)), Math.ceil(hourly.retryAfterMs / 1000));
    }
    const driver = await this.db.kysely
      .selectFrom('drivers')
      .select(['name', 'cpf_cnpj'])
      .where('id', '=', driverId)
      .executeTakeFirstOrThrow();
    const id = newId('pxa');
    const createdAt = this.now();
    const qrExpiresAt = new Date(createdAt.getTime() + PIX_AUTOMATIC_QR_TTL_MINUTES * 60_000);
    let created;
    try {
      created = await this.provider.createAutomaticAuthorization({
        authorizationId: id,
        amountCents,
        frequency,
        startDate: saoPauloDay(createdAt),
        driver: { name: driver.name, cpfCnpj: driver.cpf_cnpj },
        qrExpiresAt,
      });
    } catch (error) {
      this.log.error({ err: error, authorizationId: id, provider: this.provider.name }, 'falha ao criar a autorização do Pix Automático');
      throw refuse.providerFailed(pixAutomaticMessages.providerUnavailable);
    }
    if (replacing) {
      try {
        await this.provider.cancelAutomaticAuthorization(replacing.row.provider_authorization_id);
      } catch (error) {
        this.log.error({ err: error, authorizationId: replacing.row.id }, 'falha ao cancelar a autorização substituída do Pix Automático');
        await this.cancelQuietly(created.providerAuthorizationId);
        throw refuse.providerFailed(pixAutomaticMessages.providerUnavailable);
      }
    }
    const row: Insertable<PixAutomaticAuthorizationsTable> & PixAutomaticRow = {
      id,
      driver_id: driverId,
      provider: this.provider.name,
      provider_authorization_id: created.providerAuthorizationId,
      conciliation_id: created.conciliationId,
      status: 'CREATED',
      frequency,
      amount_cents: amountCents,
      payload: created.payload,
      qr_expires_at: created.qrExpiresAt.toISOString(),
      next_due_date: null,
      anchor_day: null,
      created_at: createdAt.toISOString(),
      activated_at: null,
      ended_at: null,
      end_reason: null,
      replaces_id: replacing?.row.id ?? null,
    };
    try {
      await this.db.kysely.transaction().execute(async (trx) => {
        await lockDriver(trx, this.db.dialect, driverId);
        // Decision 70: the account was closed while the provider made the authorization.
        if (await isClosedAccount(trx, driverId)) throw refuse.unauthenticated(serverMessages.session.unauthorized);
        if (replacing && !(await endAuthorization(trx, replacing.row.id, 'CANCELLED', replacing.reason, createdAt, [replacing.row.status])))
          throw refuse.conflict(pixAutomaticMessages.alreadyEnded.replace('{state}', 'por outra operação'));
        await trx.insertInto('pix_automatic_authorizations').values(row).execute();
      });
    } catch (error) {
      // Another authorization of this driver was created or ended meanwhile: this one must not be payable.
      await this.cancelQuietly(created.providerAuthorizationId);
      if (isUniqueViolation(error)) throw refuse.conflict(pixAutomaticMessages.alreadyActive);
      throw error;
    }
    this.log.info({ authorizationId: id, driverId, amountCents, frequency, provider: this.provider.name }, 'Pix Automático criado');
    return authorizationView(this.db.kysely, row);
  }

  /** The driver's own authorization (another driver's reads as unknown). */
  private async own(driverId: number, id: string): Promise<PixAutomaticRow> {
    const row = await authorizationById(this.db.kysely, id);
    if (!row || row.driver_id !== driverId) throw refuse.notFound(pixAutomaticMessages.notFound);
    return row;
  }

  private requireAvailable(): void {
    if (!this.enabled) throw refuse.conflict(pixAutomaticMessages.unavailable);
  }

  private async cancelQuietly(providerAuthorizationId: string): Promise<void> {
    try {
      await this.provider.cancelAutomaticAuthorization(providerAuthorizationId);
    } catch (error) {
      this.log.warn({ err: error, providerAuthorizationId }, 'falha ao cancelar no provedor uma autorização do Pix Automático');
    }
  }
}

function ended(row: PixAutomaticRow) {
  return refuse.conflict(pixAutomaticMessages.alreadyEnded.replace('{state}', pixAutomaticStateLabels[STATE_OF[row.status]].toLowerCase()));
}
