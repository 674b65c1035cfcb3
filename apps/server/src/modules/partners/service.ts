import type {
  PartnerMovementRequest,
  PartnerPassageRequest,
  PartnerVpoRequest,
  Vpo,
  VposQuery,
} from '@portal/contract';
import type { PartnerKind, VpoStatus } from '@portal/domain';
import {
  centsToReais,
  normalizePlate,
  normalizeSerial,
  PAGE_SIZE,
  STATEMENT_ORIGINS,
  stripDocument,
  messages,
  reaisToCents,
} from '@portal/domain';
import type { Db } from '../../db/connection.js';
import { nowIso, toIso } from '../../db/connection.js';
import { fieldError, notFound } from '../../http/errors.js';
import { accountId, post } from '../ledger/ledger.js';
import type { Partner } from './keys.js';
import { newKey } from './keys.js';

export interface PushResult {
  id: string;
  duplicate: boolean;
}

export interface PartnerListing {
  id: number;
  kind: PartnerKind;
  name: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface VpoPage {
  vpos: Vpo[];
  totalPages: number;
}

const SORT_COLUMNS = { valor: 'value_cents', placa: 'plate', data: 'created_at' } as const;

/** What partners push (ARCHITECTURE 5): shippers' VPOs, operators' passages, platforms' third-party movements. */
export class PartnerService {
  constructor(private readonly db: Db) {}

  async create(kind: PartnerKind, name: string): Promise<{ id: number; key: string }> {
    const { key, hash, prefix } = newKey();
    const row = await this.db.kysely
      .insertInto('partners')
      .values({ kind, name, api_key_hash: hash, api_key_prefix: prefix, created_at: nowIso(), revoked_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, key };
  }

  /** The partner of that kind and name, created (with a key nobody sees) when missing: demo data. */
  async ensure(kind: PartnerKind, name: string): Promise<Partner> {
    const found = await this.db.kysely
      .selectFrom('partners')
      .select(['id', 'kind', 'name'])
      .where('kind', '=', kind)
      .where('name', '=', name)
      .orderBy('id')
      .executeTakeFirst();
    if (found) return found;
    const { id } = await this.create(kind, name);
    return { id, kind, name };
  }

  async list(): Promise<PartnerListing[]> {
    const rows = await this.db.kysely.selectFrom('partners').selectAll().orderBy('id').execute();
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      name: r.name,
      prefix: r.api_key_prefix,
      createdAt: toIso(r.created_at),
      revokedAt: r.revoked_at === null ? null : toIso(r.revoked_at),
    }));
  }

  /** false when there is no such partner; revoking twice keeps the first date. */
  async revoke(id: number): Promise<boolean> {
    const exists = await this.db.kysely.selectFrom('partners').select('id').where('id', '=', id).executeTakeFirst();
    if (!exists) return false;
    await this.db.kysely.updateTable('partners').set({ revoked_at: nowIso() }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    return true;
  }

  async byId(id: number): Promise<Partner | null> {
    const row = await this.db.kysely.selectFrom('partners').select(['id', 'kind', 'name']).where('id', '=', id).executeTakeFirst();
    return row ?? null;
  }

  /** A shipper issues a VPO for the driver of the tag; the same externalId again changes nothing. */
  async issueVpo(partner: Partner, input: PartnerVpoRequest): Promise<PushResult> {
    const serial = normalizeSerial(input.serialNumber);
    const driverId = await this.driverOfSerial(serial);
    const now = nowIso();
    const inserted = await this.db.kysely.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('vpos')
        .values({
          driver_id: driverId,
          partner_id: partner.id,
          external_id: input.externalId,
          serial_number: serial,
          plate: normalizePlate(input.PlacaVeiculo),
          shipper_document: stripDocument(input.CpfCnpjEmbarcador),
          value_cents: reaisToCents(input.ValorTotalVP),
          status: input.Status ?? 'EMITIDO',
          origin: input.origem ?? null,
          destination: input.destino ?? null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['partner_id', 'external_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (row) {
        await trx
          .insertInto('driver_vpo_counters')
          .values({ driver_id: driverId, vpo_count: 1 })
          .onConflict((oc) => oc.column('driver_id').doUpdateSet((eb) => ({ vpo_count: eb('driver_vpo_counters.vpo_count', '+', 1) })))
          .execute();
      }
      return row;
    });
    if (inserted) return { id: String(inserted.id), duplicate: false };
    const existing = await this.vpoOf(partner, input.externalId);
    if (!existing) throw new Error('VPO duplicado não encontrado');
    return { id: String(existing.id), duplicate: true };
  }

  /** Only the partner's own VPO: another partner's externalId is a 404. */
  async updateVpoStatus(partner: Partner, externalId: string, status: VpoStatus): Promise<PushResult> {
    const existing = await this.vpoOf(partner, externalId);
    if (!existing) throw notFound(messages.partner.vpoNotFound);
    if (existing.status === status) return { id: String(existing.id), duplicate: true };
    await this.db.kysely.updateTable('vpos').set({ status, updated_at: nowIso() }).where('id', '=', existing.id).execute();
    return { id: String(existing.id), duplicate: false };
  }

  /** A toll passage debits the driver's own account (or the third account), without a balance guard. */
  async recordPassage(partner: Partner, input: PartnerPassageRequest): Promise<PushResult> {
    const driverId = await this.driverOfSerial(normalizeSerial(input.serialNumber));
    return this.postEntry(partner, 'passage', input.externalId, driverId, {
      kind: input.is_third ? 'third' : 'own',
      amountCents: -reaisToCents(input.value),
      origin: STATEMENT_ORIGINS.passage,
      placeName: input.placeName,
      isThird: input.is_third,
      createdAt: new Date(input.occurredAt).toISOString(),
    });
  }

  /** A third-party platform credits or debits the driver's third account (SaldoTerceiro). */
  async recordThirdPartyMovement(partner: Partner, input: PartnerMovementRequest): Promise<PushResult> {
    const driver = await this.db.kysely
      .selectFrom('drivers')
      .select('id')
      .where('cpf_cnpj', '=', stripDocument(input.cpfCnpj))
      .executeTakeFirst();
    if (!driver) throw notFound(messages.partner.driverUnknown);
    const cents = reaisToCents(input.value);
    const credit = input.origin === STATEMENT_ORIGINS.thirdPartyCredit;
    return this.postEntry(partner, 'movement', input.externalId, driver.id, {
      kind: 'third',
      amountCents: credit ? cents : -cents,
      origin: input.origin,
      placeName: input.placeName ?? (credit ? 'Crédito de terceiro' : 'Débito de terceiro'),
      isThird: true,
      createdAt: new Date(input.occurredAt).toISOString(),
    });
  }

  /**
   * The signed-in driver's VPOs, sorted by the server across all pages (tie-break by id). The
   * page's ids come from the (driver_id, column, id) index alone (an index-only scan); pages past
   * the middle are read from the other end, so no page skips more than half the list.
   */
  async driverVpos(driverId: number, query: VposQuery): Promise<VpoPage> {
    const column = SORT_COLUMNS[query.sort];
    const counter = await this.db.kysely
      .selectFrom('driver_vpo_counters')
      .select('vpo_count')
      .where('driver_id', '=', driverId)
      .executeTakeFirst();
    const total = Number(counter?.vpo_count ?? 0);
    const totalPages = Math.ceil(total / PAGE_SIZE);
    const start = PAGE_SIZE * (query.page - 1);
    if (start >= total) return { totalPages, vpos: [] };
    const end = Math.min(start + PAGE_SIZE, total);
    const fromEnd = start > total - end;
    const direction = fromEnd ? (query.direction === 'asc' ? 'desc' : 'asc') : query.direction;
    const ids = await this.db.kysely
      .selectFrom('vpos')
      .select('id')
      .where('driver_id', '=', driverId)
      .orderBy(column, direction)
      .orderBy('id', direction)
      .limit(end - start)
      .offset(fromEnd ? total - end : start)
      .execute();
    const order = ids.map((r) => r.id);
    if (fromEnd) order.reverse();
    const rows = await this.db.kysely
      .selectFrom('vpos')
      .select(['id', 'serial_number', 'plate', 'shipper_document', 'value_cents', 'created_at', 'status'])
      .where('id', 'in', order)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      totalPages,
      vpos: order.flatMap((id) => {
        const r = byId.get(id);
        if (!r) return [];
        return [
          {
            IdTransacao: String(r.id),
            serialNumber: r.serial_number,
            PlacaVeiculo: r.plate,
            CpfCnpjEmbarcador: r.shipper_document,
            ValorTotalVP: centsToReais(Number(r.value_cents)),
            created_at: toIso(r.created_at),
            Status: r.status,
          },
        ];
      }),
    };
  }

  private async postEntry(
    partner: Partner,
    what: 'passage' | 'movement',
    externalId: string,
    driverId: number,
    entry: { kind: 'own' | 'third'; amountCents: number; origin: string; placeName: string; isThird: boolean; createdAt: string },
  ): Promise<PushResult> {
    const account = await accountId(this.db.kysely, driverId, entry.kind);
    const result = await this.db.kysely.transaction().execute((trx) =>
      post(trx, {
        accountId: account,
        amountCents: entry.amountCents,
        origin: entry.origin,
        placeName: entry.placeName,
        isThird: entry.isThird,
        reference: `partner:${partner.id}`,
        idempotencyKey: `partner:${partner.id}:${what}:${externalId}`,
        createdAt: entry.createdAt,
      }),
    );
    return { id: String(result.entryId), duplicate: result.status === 'duplicate' };
  }

  private async driverOfSerial(serial: string): Promise<number> {
    const tag = await this.db.kysely
      .selectFrom('tags')
      .select('driver_id')
      .where('serial_number', '=', serial)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!tag) throw fieldError('serialNumber', messages.partner.serialUnknown);
    return tag.driver_id;
  }

  private async vpoOf(partner: Partner, externalId: string) {
    return this.db.kysely
      .selectFrom('vpos')
      .select(['id', 'status'])
      .where('partner_id', '=', partner.id)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
  }
}

