import type { PartnerVpoRequest, Vpo, VposQuery } from '@portal/contract';
import type { Refusal, VpoStatus } from '@portal/domain';
import {
  centsToReais,
  isVpoStatus,
  normalizePlate,
  normalizeSerial,
  PAGE_SIZE,
  reaisToCents,
  refuse,
  serverMessages,
  stripDocument,
  VPO_INITIAL_STATUS,
  vpoTransitionRefusal,
} from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connection.js';
import { nowIso, toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import type { Partner } from '../partners/keys.js';
import type { PushAnswer } from '../partners/pushes.js';
import { PartnerPushes } from '../partners/pushes.js';
import { provenActiveTag } from '../partners/tag-proof.js';

/** Answer of PATCH /api/parceiro/vpos/:externalId. */
export interface PushResult {
  id: string;
  duplicate: boolean;
}

export interface VpoPage {
  vpos: Vpo[];
  totalPages: number;
}

const SORT_COLUMNS = { valor: 'value_cents', placa: 'plate', data: 'created_at' } as const;

/** An unknown serial and a known one with another plate: one answer, on both fields. */
function vpoTagNotFound(): Refusal {
  return refuse.invalid(serverMessages.partner.vpoTagNotFound, 'serialNumber', 'PlacaVeiculo');
}

/**
 * VPOs (spec §2 /vpos/listar): shippers issue them for an active tag and the plate of its vehicle
 * (founding decision 24), idempotently on their externalId; the driver lists them, sorted by the server.
 */
export class VpoService {
  constructor(
    private readonly db: Db,
    private readonly pushes: PartnerPushes = new PartnerPushes(db),
  ) {}

  async issue(partner: Partner, input: PartnerVpoRequest): Promise<PushAnswer> {
    const values = {
      serial_number: normalizeSerial(input.serialNumber),
      plate: normalizePlate(input.PlacaVeiculo),
      shipper_document: stripDocument(input.CpfCnpjEmbarcador),
      value_cents: reaisToCents(input.ValorTotalVP),
      status: VPO_INITIAL_STATUS,
      origin: input.origem ?? null,
      destination: input.destino ?? null,
    };
    return this.pushes.push(partner, 'vpo', input.externalId, values, async (trx) => {
      // Only who knows both the serial and its vehicle's plate learns that the tag exists, and its state.
      const tag = await provenActiveTag(trx, values.serial_number, (held) => held.plate === values.plate, vpoTagNotFound);
      const now = nowIso();
      const row = await trx
        .insertInto('vpos')
        .values({
          driver_id: tag.driverId,
          partner_id: partner.id,
          external_id: input.externalId,
          ...values,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['partner_id', 'external_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) {
        // Stored before pushes were remembered (migration 006): answered as it was then.
        const existing = await this.vpoOf(trx, partner, input.externalId);
        if (!existing) throw new Error('VPO duplicado não encontrado');
        return {
          status: 200,
          body: { Sucesso: true, Mensagem: serverMessages.partner.duplicate, id: String(existing.id), duplicate: true },
        };
      }
      await trx
        .insertInto('driver_vpo_counters')
        .values({ driver_id: tag.driverId, vpo_count: 1 })
        .onConflict((oc) => oc.column('driver_id').doUpdateSet((eb) => ({ vpo_count: eb('driver_vpo_counters.vpo_count', '+', 1) })))
        .execute();
      return { status: 201, body: { Sucesso: true, Mensagem: serverMessages.partner.vpoIssued, id: String(row.id), duplicate: false } };
    });
  }

  /**
   * Moves the partner's own VPO (another partner's externalId is a 404) along the domain's state
   * machine: the same status again changes nothing (duplicate: true, a retry's answer), a move the
   * machine refuses is a 409. The update is conditional on the status it was checked against, so
   * of two concurrent moves only one passes; the other is checked again against what it lost to.
   */
  async updateStatus(partner: Partner, externalId: string, status: VpoStatus): Promise<PushResult> {
    // Ends: every lost update means the status moved forward, and the machine has no cycle.
    for (;;) {
      const existing = await this.vpoOf(this.db.kysely, partner, externalId);
      if (!existing) throw refuse.notFound(serverMessages.partner.vpoNotFound);
      const id = String(existing.id);
      if (existing.status === status) return { id, duplicate: true };
      if (!isVpoStatus(existing.status)) throw new Error(`VPO ${id} com status desconhecido: ${existing.status}`);
      const refusal = vpoTransitionRefusal(existing.status, status);
      if (refusal) throw refuse.conflict(refusal);
      const moved = await this.db.kysely
        .updateTable('vpos')
        .set({ status, updated_at: nowIso() })
        .where('id', '=', existing.id)
        .where('status', '=', existing.status)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 1) return { id, duplicate: false };
    }
  }

  /**
   * The signed-in driver's VPOs, sorted by the server across all pages (tie-break by id). The
   * page's ids come from the (driver_id, column, id) index alone (an index-only scan); pages past
   * the middle are read from the other end, so no page skips more than half the list.
   */
  async forDriver(driverId: number, query: VposQuery): Promise<VpoPage> {
    const column = SORT_COLUMNS[query.sort];
    const counter = await this.db.kysely
      .selectFrom('driver_vpo_counters')
      .select('vpo_count')
      .where('driver_id', '=', driverId)
      .executeTakeFirst();
    const total = counter?.vpo_count ?? 0;
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
            ValorTotalVP: centsToReais(r.value_cents),
            created_at: toIso(r.created_at),
            Status: r.status,
          },
        ];
      }),
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
