import type { PartnerTollRequest } from '@portal/contract';
import type { Refusal } from '@portal/domain';
import { freeFlowMessages, reaisToCents, refuse, serverMessages } from '@portal/domain';
import { freeFlowDueDay } from '@portal/domain/free-flow-deadline';
import { sql } from 'kysely';
import type { Db, Trx } from '../../../db/connection.js';
import { nowIso } from '../../../db/connection.js';
import { canonicalJson } from '../../../db/request-hash.js';
import type { SigningKeys } from '../../../db/signing-keys.js';
import type { NotificationOf } from '../../notifications/outbox.js';
import { enqueueNotifications } from '../../notifications/outbox.js';
import { flagsOf, tagAt } from './moment.js';
import { moveTotals } from './totals.js';

/** A push's answer as the partner calls store and replay it (partners/pushes.ts's PushAnswer). */
export interface TollAnswer {
  status: 202;
  body: { Sucesso: true; Mensagem: string; id: string };
  replayed: boolean;
}

export type TollOutcome = { result: 'ACEITA' | 'REPETIDA'; answer: TollAnswer } | { result: 'RECUSADA'; refusal: Refusal };

/** A toll kept for an opted-in plate whose toggle 'Pagar automaticamente' is on: the caller pays it after the commit. */
export interface AutoPayable {
  driverId: number;
  tollId: number;
}

const CHUNK = 100;
const ATTEMPTS = 3;
/** A deadlock, a serialization failure, a twin's push committed first (23505 once it commits): the chunk runs again and replays it. */
const RETRYABLE = new Set(['40P01', '40001', '23505', 'SQLITE_BUSY_SNAPSHOT']);

interface Prepared {
  index: number;
  externalId: string;
  hash: string;
  answerId: string;
  toll: PartnerTollRequest & { cents: number; dueDay: string; occurredIso: string; kmMilli: number };
}

/**
 * Decision 76: a concessionaire's tolls, in chunks of CHUNK per transaction, each idempotent on its
 * externalId exactly as the other partner pushes (the same request again: its first answer; another
 * with that externalId: 409). A plate no driver opted in keeps nothing but the push's keyed hash and
 * answer, and gets the same answer (202, an id signed from the externalId): the concessionaire
 * learns nothing of who uses the portal. A toll for an opted-in plate is kept with its deadline, its
 * flag, and a notice; those of plates that pay automatically are returned for the caller to pay.
 */
export class TollPushes {
  constructor(
    private readonly db: Db,
    private readonly keys: SigningKeys,
    private readonly now: () => Date,
  ) {}

  async record(partnerId: number, inputs: readonly PartnerTollRequest[]): Promise<{ outcomes: TollOutcome[]; autoPay: AutoPayable[] }> {
    const prepared = await Promise.all(inputs.map((toll, index) => this.prepare(partnerId, toll, index)));
    const outcomes = new Array<TollOutcome>(inputs.length);
    const autoPay: AutoPayable[] = [];
    for (let start = 0; start < prepared.length; start += CHUNK) {
      autoPay.push(...(await this.chunk(partnerId, prepared.slice(start, start + CHUNK), outcomes)));
    }
    return { outcomes, autoPay };
  }

  private async prepare(partnerId: number, toll: PartnerTollRequest, index: number): Promise<Prepared> {
    const occurred = new Date(toll.occurredAt);
    const cents = reaisToCents(toll.valor);
    const dueDay = toll.vencimento ?? freeFlowDueDay(occurred);
    const kmMilli = Math.round(toll.km * 1000);
    // What "the same request" compares, hashed under the portal's key: a plate is not kept in the clear.
    const request = {
      placa: toll.placa,
      portico: toll.portico,
      rodovia: toll.rodovia,
      km: kmMilli,
      sentido: toll.sentido,
      eixos: toll.eixos,
      valor: cents,
      occurredAt: occurred.toISOString(),
      vencimento: toll.vencimento ?? null,
    };
    return {
      index,
      externalId: toll.externalId,
      hash: await this.keys.sign('toll-request', canonicalJson(request), 64),
      answerId: `LP-${await this.keys.sign('toll-id', `${partnerId}:${toll.externalId}`, 22)}`,
      toll: { ...toll, cents, dueDay, occurredIso: occurred.toISOString(), kmMilli },
    };
  }

  private async chunk(partnerId: number, items: readonly Prepared[], outcomes: TollOutcome[]): Promise<AutoPayable[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.db.kysely.transaction().execute((trx) => this.inTransaction(trx, partnerId, items, outcomes));
      } catch (error) {
        const code = typeof error === 'object' && error !== null ? String((error as { code?: unknown }).code) : '';
        if (!RETRYABLE.has(code) || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  private async inTransaction(trx: Trx, partnerId: number, items: readonly Prepared[], outcomes: TollOutcome[]): Promise<AutoPayable[]> {
    // SQLite: the write lock first (the chunk reads before it writes), as passage batches do.
    if (this.db.dialect === 'sqlite') await sql`delete from partner_pushes where 1 = 0`.execute(trx);
    const stored = await trx
      .selectFrom('partner_pushes')
      .select(['external_id', 'request_hash', 'status_code', 'response'])
      .where('partner_id', '=', partnerId)
      .where('kind', '=', 'toll')
      .where('external_id', 'in', [...new Set(items.map((i) => i.externalId))])
      .execute();
    const seen = new Map(stored.map((r) => [r.external_id, { hash: r.request_hash, body: JSON.parse(r.response) as TollAnswer['body'] }]));
    const fresh: Prepared[] = [];
    for (const item of items) {
      const before = seen.get(item.externalId);
      if (before) {
        outcomes[item.index] =
          before.hash === item.hash
            ? { result: 'REPETIDA', answer: { status: 202, body: before.body, replayed: true } }
            : { result: 'RECUSADA', refusal: refuse.conflict(serverMessages.partner.externalIdConflict) };
        continue;
      }
      const body = { Sucesso: true as const, Mensagem: freeFlowMessages.received, id: item.answerId };
      seen.set(item.externalId, { hash: item.hash, body });
      outcomes[item.index] = { result: 'ACEITA', answer: { status: 202, body, replayed: false } };
      fresh.push(item);
    }
    if (fresh.length === 0) return [];

    const now = this.now();
    const createdAt = nowIso();
    await trx
      .insertInto('partner_pushes')
      .values(
        fresh.map((item) => ({
          partner_id: partnerId,
          kind: 'toll' as const,
          external_id: item.externalId,
          request_hash: item.hash,
          status_code: 202,
          response: JSON.stringify({ Sucesso: true, Mensagem: freeFlowMessages.received, id: item.answerId }),
          created_at: createdAt,
        })),
      )
      .execute();

    const vehicles = await trx
      .selectFrom('vehicles')
      .select(['id', 'driver_id', 'license_plate', 'free_flow_auto_pay'])
      .where('license_plate', 'in', [...new Set(fresh.map((i) => i.toll.placa))])
      .where('deleted_at', 'is', null)
      .where('free_flow_consent_at', 'is not', null)
      .execute();
    if (vehicles.length === 0) return [];
    const byPlate = new Map(vehicles.map((v) => [v.license_plate, v]));
    const kept = fresh.filter((i) => byPlate.has(i.toll.placa));
    const tags = await tagAt(
      trx,
      vehicles.map((v) => v.id),
      Number.POSITIVE_INFINITY,
    );
    const flags = await flagsOf(
      trx,
      kept.map((item) => {
        const vehicle = byPlate.get(item.toll.placa)!;
        const tag = tags.get(vehicle.id);
        const at = Date.parse(item.toll.occurredIso);
        return {
          driverId: vehicle.driver_id,
          gantry: item.toll.portico,
          occurredAt: item.toll.occurredIso,
          cents: item.toll.cents,
          tag: tag && { ...tag, activeThen: tag.activeThen && tag.activatedAt !== null && Date.parse(tag.activatedAt) <= at },
        };
      }),
    );
    const rows = [];
    for (const [k, item] of kept.entries()) {
      const vehicle = byPlate.get(item.toll.placa);
      if (!vehicle) continue;
      const flag = flags[k];
      rows.push({
        item,
        vehicle,
        values: {
          partner_id: partnerId,
          external_id: item.externalId,
          driver_id: vehicle.driver_id,
          vehicle_id: vehicle.id,
          plate: item.toll.placa,
          gantry: item.toll.portico,
          highway: item.toll.rodovia,
          km_milli: item.toll.kmMilli,
          direction: item.toll.sentido,
          axles: item.toll.eixos,
          amount_cents: item.toll.cents,
          occurred_at: item.toll.occurredIso,
          due_day: item.toll.dueDay,
          created_at: createdAt,
          flag: flag?.flag ?? null,
          flag_passage_id: flag?.passageId ?? null,
        },
      });
    }
    const inserted = await trx
      .insertInto('free_flow_tolls')
      .values(rows.map((r) => r.values))
      .returning(['id', 'external_id'])
      .execute();
    const idOf = new Map(inserted.map((r) => [r.external_id, r.id]));
    await moveTotals(
      trx,
      rows.map(({ values }) => ({
        driverId: values.driver_id,
        tolls: 1,
        openTolls: 1,
        openCents: values.amount_cents,
        openFlagged: values.flag === null ? 0 : 1,
      })),
    );
    const notices: NotificationOf[] = [];
    const autoPay: AutoPayable[] = [];
    for (const { item, vehicle, values } of rows) {
      const tollId = idOf.get(item.externalId);
      if (tollId === undefined) continue;
      const pays = vehicle.free_flow_auto_pay === 1 && values.flag === null;
      if (pays) autoPay.push({ driverId: vehicle.driver_id, tollId });
      else {
        notices.push({
          driverId: vehicle.driver_id,
          notification: {
            kind: 'freeFlowToll',
            tollId,
            event: 'new',
            plate: values.plate,
            gantry: values.gantry,
            amountCents: values.amount_cents,
            dueDay: values.due_day,
          },
        });
      }
    }
    await enqueueNotifications(trx, notices, now);
    return autoPay;
  }
}
