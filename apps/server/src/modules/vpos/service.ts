import type { PartnerPushResponse, PartnerVpoRequest, Vpo, VpoDetails, VposQuery } from '@portal/contract';
import type { Refusal, VpoStatus } from '@portal/domain';
import {
  isVpoOpenStatus,
  isVpoStatus,
  normalizePlate,
  normalizeRntrc,
  normalizeSerial,
  PAGE_SIZE,
  reaisToCents,
  refuse,
  serverMessages,
  stripDocument,
  VPO_INITIAL_STATUS,
  vpoTransitionRefusal,
  vpoTripWindow,
} from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Db, Trx } from '../../db/connection.js';
import type { ReadRouter } from '../../db/read-replica.js';
import { nowIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { provenTag } from '../tags/proof.js';
import { lockDriver } from '../../db/lock.js';
import { isClosedAccount } from '../auth/closed.js';
import { enqueueNotification } from '../notifications/outbox.js';
import { holdVpoMoney, refundVpoMoney } from './money.js';
import type { VehicleScope } from '../../db/vehicle-scope.js';
import { withinScope } from '../../db/vehicle-scope.js';
import { notOfClosedAccount, vpoDetails, vposByIds } from './queries.js';

/** Answer of PATCH /api/parceiro/vpos/:externalId. */
export interface PushResult {
  id: string;
  duplicate: boolean;
}

/** The shipper a VPO belongs to: its partner id and the name the driver reads. */
export interface Shipper {
  id: number;
  name: string;
}

/** The answer to an issued VPO, as the shipper's push stores it. */
export interface IssueAnswer {
  status: 200 | 201;
  body: PartnerPushResponse;
}

/** A VPO to issue, normalised once: what its push's hash compares (issueRequest) and the trip window it gets. */
export type VpoIssue = ReturnType<typeof vpoIssue>;

/** The shipper's request, normalised; the trip window computed once (its default starts now). */
export function vpoIssue(input: PartnerVpoRequest) {
  const tripWindow = vpoTripWindow(input);
  const values = {
    serial_number: normalizeSerial(input.serialNumber),
    plate: normalizePlate(input.PlacaVeiculo),
    shipper_document: stripDocument(input.CpfCnpjEmbarcador),
    value_cents: reaisToCents(input.ValorTotalVP),
    status: VPO_INITIAL_STATUS,
    origin: input.origem ?? null,
    destination: input.destino ?? null,
  };
  // The trip fields as sent, only those sent: a push stored before them hashes as it did, and a
  // retry hashes the same (the default window is computed from now).
  const trip = definedOnly({
    trip_start: input.inicioViagem,
    trip_end: input.fimViagem,
    antt_id: input.idVpoAntt,
    rntrc: input.rntrc === undefined ? undefined : normalizeRntrc(input.rntrc),
    axles: input.eixos,
  });
  return { input, tripWindow, values, trip };
}

/** What "the same request" compares for an issued VPO. */
export function issueRequest(issue: VpoIssue): Record<string, string | number | null> {
  return { ...issue.values, ...issue.trip };
}

export interface VpoPage {
  vpos: Vpo[];
  totalPages: number;
}

const SORT_COLUMNS = { valor: 'value_cents', placa: 'plate', data: 'created_at' } as const;

/** The members that are set: what a partner sent, for its push's hash. */
function definedOnly<T extends Record<string, string | number | undefined>>(record: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

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
    /** Decision 81: a shipper's read of its VPO may read a replica (none: the primary). */
    private readonly reads: Pick<ReadRouter, 'tolerant'> = { tolerant: (read) => read(db.kysely) },
    /** The server's clock: whether a passage of the VPO can still be contested. */
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Issues the VPO, in the transaction of the shipper's push (idempotent on its externalId): for an
   * active tag whose vehicle has the plate sent, its value held in the driver's VPO account.
   */
  async issue(trx: Trx, shipper: Shipper, { input, tripWindow, values, trip }: VpoIssue): Promise<IssueAnswer> {
    // Only who knows both the serial and its vehicle's plate learns that the tag exists, and its state.
    // A tag blocked for an unpaid fee still takes VPOs (decision 52, Ofício Circular ANTT 117/2025).
    const tag = await provenTag(trx, values.serial_number, (held) => held.plate === values.plate, vpoTagNotFound, 'accepted');
    if (trip.rntrc !== undefined && trip.rntrc !== normalizeRntrc(tag.rntrc)) {
      throw refuse.invalid(serverMessages.partner.rntrcMismatch, 'rntrc');
    }
    await lockDriver(trx, this.db.dialect, tag.driverId);
    // Decision 70: the account was closed after the tag was read: the unknown serial's answer.
    if (await isClosedAccount(trx, tag.driverId)) throw vpoTagNotFound();
    const now = nowIso();
    const row = await trx
      .insertInto('vpos')
      .values({
        driver_id: tag.driverId,
        partner_id: shipper.id,
        external_id: input.externalId,
        ...values,
        trip_start: tripWindow.start.toISOString(),
        trip_end: tripWindow.end.toISOString(),
        antt_id: input.idVpoAntt ?? null,
        rntrc: trip.rntrc ?? null,
        axles: input.eixos ?? null,
        held_cents: values.value_cents,
        left_cents: values.value_cents,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['partner_id', 'external_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) {
      // Stored before pushes were remembered (migration 006): answered as it was then.
      const existing = await this.vpoOf(trx, shipper, input.externalId);
      if (!existing) throw new Error('VPO duplicado não encontrado');
      return {
        status: 200,
        body: { Sucesso: true, Mensagem: serverMessages.partner.duplicate, id: String(existing.id), duplicate: true },
      };
    }
    await holdVpoMoney(trx, {
      id: row.id,
      driverId: tag.driverId,
      valueCents: values.value_cents,
      shipperName: shipper.name,
      tripStart: tripWindow.start,
    });
    const notice = { kind: 'vpoReceived', vpoId: row.id, shipper: shipper.name, amountCents: values.value_cents } as const;
    await enqueueNotification(trx, tag.driverId, notice);
    await trx
      .insertInto('driver_vpo_counters')
      .values({ driver_id: tag.driverId, vpo_count: 1 })
      .onConflict((oc) => oc.column('driver_id').doUpdateSet((eb) => ({ vpo_count: eb('driver_vpo_counters.vpo_count', '+', 1) })))
      .execute();
    return { status: 201, body: { Sucesso: true, Mensagem: serverMessages.partner.vpoIssued, id: String(row.id), duplicate: false } };
  }

  /**
   * Moves the partner's own VPO (another partner's externalId is a 404) along the domain's state
   * machine: the same status again changes nothing (duplicate: true, a retry's answer), a move the
   * machine refuses is a 409. The update is conditional on the status it was checked against, so
   * of two concurrent moves only one passes; the other is checked again against what it lost to.
   */
  async updateStatus(shipper: Shipper, externalId: string, status: VpoStatus): Promise<PushResult> {
    // Ends: every lost update means the status moved forward, and the machine has no cycle.
    for (;;) {
      const existing = await this.vpoOf(this.db.kysely, shipper, externalId);
      if (!existing) throw refuse.notFound(serverMessages.partner.vpoNotFound);
      const id = String(existing.id);
      if (existing.status === status) return { id, duplicate: true };
      if (!isVpoStatus(existing.status)) throw new Error(`VPO ${id} com status desconhecido: ${existing.status}`);
      const refusal = vpoTransitionRefusal(existing.status, status);
      if (refusal) throw refuse.conflict(refusal);
      const moved = await this.db.kysely.transaction().execute(async (trx) => {
        // The driver's lock: a passage paying from this VPO runs wholly before or after the close.
        await lockDriver(trx, this.db.dialect, existing.driver_id);
        const closing = !isVpoOpenStatus(status);
        const now = nowIso();
        const result = await trx
          .updateTable('vpos')
          .set({ status, updated_at: now, ...(closing ? { closed_at: now } : {}) })
          .where('id', '=', existing.id)
          .where('status', '=', existing.status)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        // Decision 52: what is left goes back to the shipper, never to Saldo.
        if (closing) await refundVpoMoney(trx, { id: existing.id, driverId: existing.driver_id, shipperName: shipper.name });
        return true;
      });
      if (moved) return { id, duplicate: false };
    }
  }

  /**
   * The signed-in driver's VPOs, sorted by the server across all pages (tie-break by id). The
   * page's ids come from the (driver_id, column, id) index alone (an index-only scan); pages past
   * the middle are read from the other end, so no page skips more than half the list.
   */
  async forDriver(driverId: number, query: VposQuery, scope: VehicleScope = null): Promise<VpoPage> {
    const column = SORT_COLUMNS[query.sort];
    if (scope !== null) return this.forVehicles(driverId, query, scope);
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
    return { totalPages, vpos: await vposByIds(this.db.kysely, order) };
  }

  /**
   * Decision 77: a Motorista's VPOs, the ones of the plates assigned to them (a few vehicles' trips:
   * counted and paged by OFFSET, where the whole account's list reads its counter).
   */
  private async forVehicles(driverId: number, query: VposQuery, scope: readonly number[]): Promise<VpoPage> {
    const column = SORT_COLUMNS[query.sort];
    const base = this.db.kysely
      .selectFrom('vpos')
      .where('driver_id', '=', driverId)
      .where('plate', 'in', (eb) => eb.selectFrom('vehicles').select('license_plate').where(withinScope(scope, 'vehicles.id')));
    const [count, ids] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      base
        .select('id')
        .orderBy(column, query.direction)
        .orderBy('id', query.direction)
        .limit(PAGE_SIZE)
        .offset(PAGE_SIZE * (query.page - 1))
        .execute(),
    ]);
    return {
      totalPages: Math.ceil(Number(count.n) / PAGE_SIZE),
      vpos: await vposByIds(
        this.db.kysely,
        ids.map((r) => r.id),
      ),
    };
  }

  /** The driver's own VPO with its trip's passages; another driver's is not found. */
  async forDriverOne(driverId: number, id: number): Promise<VpoDetails> {
    const found = await vpoDetails(this.db.kysely, { driverId, id }, this.now());
    if (!found) throw refuse.notFound(serverMessages.vpo.notFound);
    return found;
  }

  /** The shipper's own VPO (its externalId); another shipper's is not found. */
  async forShipper(shipper: Shipper, externalId: string): Promise<VpoDetails> {
    const found = await this.reads.tolerant(
      (db) => vpoDetails(db, { partnerId: shipper.id, externalId }, this.now()),
      (details) => details === null,
    );
    if (!found) throw refuse.notFound(serverMessages.partner.vpoNotFound);
    return found;
  }

  private async vpoOf(db: Kysely<Database>, shipper: Shipper, externalId: string) {
    return db
      .selectFrom('vpos')
      .select(['id', 'status', 'driver_id'])
      .where('partner_id', '=', shipper.id)
      .where('external_id', '=', externalId)
      .where(notOfClosedAccount)
      .executeTakeFirst();
  }
}
