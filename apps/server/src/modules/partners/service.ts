import { createHash } from 'node:crypto';
import type {
  PartnerMovementRequest,
  PartnerPassageRequest,
  PartnerPushResponse,
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
  TAG_STATUS,
} from '@portal/domain';
import type { Db } from '../../db/connection.js';
import { nowIso, toIso } from '../../db/connection.js';
import type { Kysely } from 'kysely';
import type { Database, PartnerPushKind } from '../../db/schema.js';
import { fieldError, forbidden, HttpError, notFound } from '../../http/errors.js';
import type { Trx } from '../ledger/ledger.js';
import { accountId, post } from '../ledger/ledger.js';
import type { Partner } from './keys.js';
import { newKey } from './keys.js';

/** Answer of PATCH /api/parceiro/vpos/:externalId. */
export interface PushResult {
  id: string;
  duplicate: boolean;
}

/** The answer of a push: the first one again (replayed) when the same request comes back. */
export interface PushAnswer {
  status: 200 | 201;
  body: PartnerPushResponse;
  replayed: boolean;
}

export interface PartnerListing {
  id: number;
  kind: PartnerKind;
  name: string;
  operatorCnpj: string | null;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface VpoPage {
  vpos: Vpo[];
  totalPages: number;
}

export type ScopeOutcome = 'scoped' | 'not-found' | 'not-operator' | 'already-scoped';

const SORT_COLUMNS = { valor: 'value_cents', placa: 'plate', data: 'created_at' } as const;

/** A concurrent twin stored its answer first: this transaction rolls back and replays it. */
class TwinFirst extends Error {}

/** sha256 of the request as stored (keys sorted, values normalised): what "the same request" means. */
function requestHash(request: Record<string, string | number | boolean | null>): string {
  const canonical = JSON.stringify(request, Object.keys(request).sort());
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

const tagNotActive = () => new HttpError(409, messages.partner.tagNotActive);

/**
 * What partners push (ARCHITECTURE 5): shippers' VPOs, operators' passages, platforms' third-party
 * movements. Decision 24: an operator key charges only its operator's active tags; a VPO needs an
 * active tag and the plate of its vehicle. Every push is remembered with its request's hash and
 * its first answer, in the transaction of its effect.
 */
export class PartnerService {
  constructor(private readonly db: Db) {}

  /** An operator key needs its operator's CNPJ (and only operator keys have one). */
  async create(kind: PartnerKind, name: string, operatorCnpj: string | null = null): Promise<{ id: number; key: string }> {
    if ((kind === 'operator') !== (operatorCnpj !== null)) throw new Error('operator_cnpj é obrigatório para operadoras e só para elas');
    const { key, hash, prefix } = newKey();
    const row = await this.db.kysely
      .insertInto('partners')
      .values({ kind, name, api_key_hash: hash, api_key_prefix: prefix, created_at: nowIso(), revoked_at: null, operator_cnpj: operatorCnpj })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, key };
  }

  /** The partner of that kind and name, created (with a key nobody sees) when missing, scoped when unscoped: demo data. */
  async ensure(kind: PartnerKind, name: string, operatorCnpj: string | null = null): Promise<Partner> {
    const found = await this.db.kysely
      .selectFrom('partners')
      .select('id')
      .where('kind', '=', kind)
      .where('name', '=', name)
      .orderBy('id')
      .executeTakeFirst();
    const id = found?.id ?? (await this.create(kind, name, operatorCnpj)).id;
    if (found && operatorCnpj !== null) await this.scope(found.id, operatorCnpj);
    const partner = await this.byId(id);
    if (!partner) throw new Error(`parceiro ${id} sumiu`);
    return partner;
  }

  /** Binds an operator key created before keys were scoped to its operator; a scoped key keeps its operator. */
  async scope(id: number, operatorCnpj: string): Promise<ScopeOutcome> {
    const partner = await this.byId(id);
    if (!partner) return 'not-found';
    if (partner.kind !== 'operator') return 'not-operator';
    if (partner.operatorCnpj !== null) return partner.operatorCnpj === operatorCnpj ? 'scoped' : 'already-scoped';
    await this.db.kysely
      .updateTable('partners')
      .set({ operator_cnpj: operatorCnpj })
      .where('id', '=', id)
      .where('operator_cnpj', 'is', null)
      .execute();
    const after = await this.byId(id);
    return after?.operatorCnpj === operatorCnpj ? 'scoped' : 'already-scoped';
  }

  async list(): Promise<PartnerListing[]> {
    const rows = await this.db.kysely.selectFrom('partners').selectAll().orderBy('id').execute();
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      name: r.name,
      operatorCnpj: r.operator_cnpj,
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
    const row = await this.db.kysely
      .selectFrom('partners')
      .select(['id', 'kind', 'name', 'operator_cnpj'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? { id: row.id, kind: row.kind, name: row.name, operatorCnpj: row.operator_cnpj } : null;
  }

  /** A shipper issues a VPO for the active tag of that plate's vehicle. */
  async issueVpo(partner: Partner, input: PartnerVpoRequest): Promise<PushAnswer> {
    const values = {
      serial_number: normalizeSerial(input.serialNumber),
      plate: normalizePlate(input.PlacaVeiculo),
      shipper_document: stripDocument(input.CpfCnpjEmbarcador),
      value_cents: reaisToCents(input.ValorTotalVP),
      status: input.Status ?? 'EMITIDO',
      origin: input.origem ?? null,
      destination: input.destino ?? null,
    };
    return this.push(partner, 'vpo', input.externalId, values, async (trx) => {
      const tag = await this.liveTag(trx, values.serial_number);
      if (!tag) throw fieldError('serialNumber', messages.partner.serialUnknown);
      // The plate first: only who knows both the serial and the plate learns the tag's state.
      if (tag.plate !== values.plate) throw fieldError('PlacaVeiculo', messages.partner.plateMismatch);
      if (tag.status !== TAG_STATUS.active) throw tagNotActive();
      const now = nowIso();
      const row = await trx
        .insertInto('vpos')
        .values({ driver_id: tag.driverId, partner_id: partner.id, external_id: input.externalId, ...values, created_at: now, updated_at: now })
        .onConflict((oc) => oc.columns(['partner_id', 'external_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) {
        // Stored before pushes were remembered (migration 006): answered as it was then.
        const existing = await this.vpoOf(trx, partner, input.externalId);
        if (!existing) throw new Error('VPO duplicado não encontrado');
        return { status: 200, body: { Sucesso: true, Mensagem: messages.partner.duplicate, id: String(existing.id), duplicate: true } };
      }
      await trx
        .insertInto('driver_vpo_counters')
        .values({ driver_id: tag.driverId, vpo_count: 1 })
        .onConflict((oc) => oc.column('driver_id').doUpdateSet((eb) => ({ vpo_count: eb('driver_vpo_counters.vpo_count', '+', 1) })))
        .execute();
      return { status: 201, body: { Sucesso: true, Mensagem: messages.partner.vpoIssued, id: String(row.id), duplicate: false } };
    });
  }

  /** Only the partner's own VPO: another partner's externalId is a 404. */
  async updateVpoStatus(partner: Partner, externalId: string, status: VpoStatus): Promise<PushResult> {
    const existing = await this.vpoOf(this.db.kysely, partner, externalId);
    if (!existing) throw notFound(messages.partner.vpoNotFound);
    if (existing.status === status) return { id: String(existing.id), duplicate: true };
    await this.db.kysely.updateTable('vpos').set({ status, updated_at: nowIso() }).where('id', '=', existing.id).execute();
    return { id: String(existing.id), duplicate: false };
  }

  /**
   * A toll passage debits the driver's own account (or the third account), without a balance
   * guard, for an active tag of the key's own operator. An unknown serial and another operator's
   * tag get the same answer: an operator learns nothing about the others' tags.
   */
  async recordPassage(partner: Partner, input: PartnerPassageRequest): Promise<PushAnswer> {
    const operatorCnpj = partner.operatorCnpj;
    if (partner.kind !== 'operator' || operatorCnpj === null) throw forbidden(messages.partner.operatorUnscoped);
    const request = {
      serial_number: normalizeSerial(input.serialNumber),
      place_name: input.placeName,
      amount_cents: -reaisToCents(input.value),
      is_third: input.is_third,
      created_at: new Date(input.occurredAt).toISOString(),
    };
    return this.push(partner, 'passage', input.externalId, request, async (trx) => {
      const tag = await this.liveTag(trx, request.serial_number);
      if (!tag || tag.operatorCnpj !== operatorCnpj) throw fieldError('serialNumber', messages.partner.operatorTagNotFound);
      if (tag.status !== TAG_STATUS.active) throw tagNotActive();
      return this.postEntry(trx, partner, 'passage', input.externalId, tag.driverId, messages.partner.passageRecorded, {
        kind: request.is_third ? 'third' : 'own',
        amountCents: request.amount_cents,
        origin: STATEMENT_ORIGINS.passage,
        placeName: request.place_name,
        isThird: request.is_third,
        createdAt: request.created_at,
      });
    });
  }

  /** A third-party platform credits or debits the driver's third account (SaldoTerceiro). */
  async recordThirdPartyMovement(partner: Partner, input: PartnerMovementRequest): Promise<PushAnswer> {
    const cents = reaisToCents(input.value);
    const credit = input.origin === STATEMENT_ORIGINS.thirdPartyCredit;
    const request = {
      cpf_cnpj: stripDocument(input.cpfCnpj),
      origin: input.origin,
      amount_cents: credit ? cents : -cents,
      place_name: input.placeName ?? (credit ? 'Crédito de terceiro' : 'Débito de terceiro'),
      created_at: new Date(input.occurredAt).toISOString(),
    };
    return this.push(partner, 'movement', input.externalId, request, async (trx) => {
      const driver = await trx.selectFrom('drivers').select('id').where('cpf_cnpj', '=', request.cpf_cnpj).executeTakeFirst();
      if (!driver) throw notFound(messages.partner.driverUnknown);
      return this.postEntry(trx, partner, 'movement', input.externalId, driver.id, messages.partner.movementRecorded, {
        kind: 'third',
        amountCents: request.amount_cents,
        origin: request.origin,
        placeName: request.place_name,
        isThird: true,
        createdAt: request.created_at,
      });
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

  /**
   * Idempotency on the partner's externalId (point 8 of issue 8): the same request again gets the
   * first answer; another request with that externalId is a 409 and changes nothing. The push row
   * is claimed first in the effect's transaction, so a concurrent twin waits for it (PostgreSQL)
   * or runs after it (SQLite), then replays its answer. A refusal stores nothing.
   */
  private async push(
    partner: Partner,
    kind: PartnerPushKind,
    externalId: string,
    request: Record<string, string | number | boolean | null>,
    effect: (trx: Trx) => Promise<Omit<PushAnswer, 'replayed'>>,
  ): Promise<PushAnswer> {
    const hash = requestHash(request);
    const stored = await this.storedAnswer(partner, kind, externalId, hash);
    if (stored) return stored;
    try {
      return await this.db.kysely.transaction().execute(async (trx) => {
        const claimed = await trx
          .insertInto('partner_pushes')
          .values({ partner_id: partner.id, kind, external_id: externalId, request_hash: hash, status_code: 0, response: '', created_at: nowIso() })
          .onConflict((oc) => oc.columns(['partner_id', 'kind', 'external_id']).doNothing())
          .returning('partner_id')
          .executeTakeFirst();
        if (!claimed) throw new TwinFirst();
        const answer = await effect(trx);
        await trx
          .updateTable('partner_pushes')
          .set({ status_code: answer.status, response: JSON.stringify(answer.body) })
          .where('partner_id', '=', partner.id)
          .where('kind', '=', kind)
          .where('external_id', '=', externalId)
          .execute();
        return { ...answer, replayed: false };
      });
    } catch (error) {
      if (!(error instanceof TwinFirst)) throw error;
    }
    const twin = await this.storedAnswer(partner, kind, externalId, hash);
    if (!twin) throw new Error('push concorrente sem resposta guardada');
    return twin;
  }

  private async storedAnswer(partner: Partner, kind: PartnerPushKind, externalId: string, hash: string): Promise<PushAnswer | null> {
    const row = await this.db.kysely
      .selectFrom('partner_pushes')
      .select(['request_hash', 'status_code', 'response'])
      .where('partner_id', '=', partner.id)
      .where('kind', '=', kind)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    if (!row) return null;
    if (row.request_hash !== hash) throw new HttpError(409, messages.partner.externalIdConflict);
    return { status: Number(row.status_code) === 201 ? 201 : 200, body: JSON.parse(row.response) as PartnerPushResponse, replayed: true };
  }

  private async postEntry(
    trx: Trx,
    partner: Partner,
    what: 'passage' | 'movement',
    externalId: string,
    driverId: number,
    recorded: string,
    entry: { kind: 'own' | 'third'; amountCents: number; origin: string; placeName: string; isThird: boolean; createdAt: string },
  ): Promise<Omit<PushAnswer, 'replayed'>> {
    const result = await post(trx, {
      accountId: await accountId(trx, driverId, entry.kind),
      amountCents: entry.amountCents,
      origin: entry.origin,
      placeName: entry.placeName,
      isThird: entry.isThird,
      reference: `partner:${partner.id}`,
      idempotencyKey: `partner:${partner.id}:${what}:${externalId}`,
      createdAt: entry.createdAt,
    });
    const duplicate = result.status === 'duplicate';
    return { status: 200, body: { Sucesso: true, Mensagem: duplicate ? messages.partner.duplicate : recorded, id: String(result.entryId), duplicate } };
  }

  /** The registration that holds the serial (live and not released), with its vehicle's plate. */
  private async liveTag(trx: Trx, serial: string) {
    const row = await trx
      .selectFrom('tags')
      .innerJoin('vehicles', 'vehicles.id', 'tags.vehicle_id')
      .select(['tags.driver_id', 'tags.operator_cnpj', 'tags.status_code', 'vehicles.license_plate'])
      .where('tags.serial_number', '=', serial)
      .where('tags.deleted_at', 'is', null)
      .where('tags.released_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    return {
      driverId: row.driver_id,
      operatorCnpj: row.operator_cnpj,
      status: row.status_code === null ? null : Number(row.status_code),
      plate: row.license_plate,
    };
  }

  private async vpoOf(db: Kysely<Database>, partner: Partner, externalId: string) {
    return db
      .selectFrom('vpos')
      .select(['id', 'status'])
      .where('partner_id', '=', partner.id)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
  }
}
