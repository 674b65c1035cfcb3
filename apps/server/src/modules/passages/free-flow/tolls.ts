import type { FreeFlowSummary, FreeFlowToll, FreeFlowTollsQuery } from '@portal/contract';
import type { FreeFlowState } from '@portal/domain';
import { centsToReais, daysLeft, freeFlowState, saoPauloDay } from '@portal/domain';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { toIso } from '../../../db/connection.js';
import type { Database } from '../../../db/schema.js';

export const FREE_FLOW_PAGE_SIZE = 10;

/** A toll with its concessionaire's name and its newest contest, as every read of the driver's side needs it. */
export function tollsWithPartner(db: Kysely<Database>) {
  return db
    .selectFrom('free_flow_tolls as t')
    .innerJoin('partners', 'partners.id', 't.partner_id')
    .select([
      't.id',
      't.driver_id',
      't.vehicle_id',
      't.partner_id',
      't.external_id',
      't.plate',
      't.gantry',
      't.highway',
      't.km_milli',
      't.direction',
      't.axles',
      't.amount_cents',
      't.occurred_at',
      't.due_day',
      't.paid_at',
      't.paid_cents',
      't.authentication',
      't.cancelled_at',
      't.flag',
      't.flag_passage_id',
      't.awaiting_balance',
      't.notices',
      'partners.name as partner_name',
    ])
    .select((eb) => [
      eb
        .selectFrom('contests')
        .select('contests.id')
        .whereRef('contests.toll_id', '=', 't.id')
        .orderBy('contests.id', 'desc')
        .limit(1)
        .as('contest_id'),
      eb
        .selectFrom('contests')
        .select('contests.state')
        .whereRef('contests.toll_id', '=', 't.id')
        .orderBy('contests.id', 'desc')
        .limit(1)
        .as('contest_state'),
      eb
        .selectFrom('free_flow_payments as p')
        .select((x) => x.fn.sum<number | string | null>('p.paid_cents').as('n'))
        .whereRef('p.toll_id', '=', 't.id')
        .where('p.account', '=', 'vpo')
        .as('vpo_cents'),
    ]);
}

export type TollRow = Awaited<ReturnType<ReturnType<typeof tollsWithPartner>['executeTakeFirstOrThrow']>>;

/** Who paid a toll: its VPO, Saldo, or both (a VPO that ran short). */
function payerOf(r: TollRow): FreeFlowToll['pagoPor'] {
  if (r.paid_at === null) return null;
  const vpo = Number(r.vpo_cents ?? 0);
  if (vpo === 0) return 'SALDO';
  return vpo >= Number(r.amount_cents) ? 'VPO' : 'VPO_E_SALDO';
}

export function stateOf(r: Pick<TollRow, 'paid_at' | 'cancelled_at' | 'due_day'>, now: Date): FreeFlowState {
  return freeFlowState(
    {
      paidAt: r.paid_at === null ? null : toIso(r.paid_at),
      cancelledAt: r.cancelled_at === null ? null : toIso(r.cancelled_at),
      dueDay: r.due_day,
    },
    now,
  );
}

export function tollView(r: TollRow, now: Date): FreeFlowToll {
  return {
    id: r.id,
    placa: r.plate,
    concessionaria: r.partner_name,
    portico: r.gantry,
    rodovia: r.highway,
    km: Number(r.km_milli) / 1000,
    sentido: r.direction,
    eixos: r.axles,
    valor: centsToReais(Number(r.amount_cents)),
    dataPassagem: toIso(r.occurred_at),
    vencimento: r.due_day,
    diasRestantes: daysLeft(r.due_day, now),
    estado: stateOf(r, now),
    pagoEm: r.paid_at === null ? null : toIso(r.paid_at),
    pagoPor: payerOf(r),
    autenticacao: r.authentication,
    sinalizacao: r.flag,
    aguardandoSaldo: r.awaiting_balance === 1 && r.paid_at === null && r.cancelled_at === null,
    contestacao: r.contest_id === null || r.contest_id === undefined ? null : { id: Number(r.contest_id), estado: String(r.contest_state) },
  };
}

/** The driver's tolls, newest first, by plate and state, a page of 10; the state is the clock's, so it is a condition on the dates. */
export async function driverTolls(
  db: Kysely<Database>,
  driverId: number,
  query: FreeFlowTollsQuery,
  now: Date,
): Promise<{ tolls: FreeFlowToll[]; totalPages: number }> {
  const today = saoPauloDay(now);
  const filtered = <Q extends ReturnType<typeof tollsWithPartner>>(q: Q): Q => {
    let r = q.where('t.driver_id', '=', driverId);
    if (query.placa) r = r.where('t.plate', '=', query.placa);
    if (query.estado === 'CANCELADO') r = r.where('t.cancelled_at', 'is not', null);
    if (query.estado === 'PAGO') r = r.where('t.cancelled_at', 'is', null).where('t.paid_at', 'is not', null);
    if (query.estado === 'EM_ABERTO' || query.estado === 'VENCIDO') {
      r = r
        .where('t.cancelled_at', 'is', null)
        .where('t.paid_at', 'is', null)
        .where('t.due_day', query.estado === 'VENCIDO' ? '<' : '>=', today);
    }
    return r as Q;
  };
  const counted = await filtered(tollsWithPartner(db))
    .clearSelect()
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  const totalPages = Math.ceil(Number(counted?.n ?? 0) / FREE_FLOW_PAGE_SIZE);
  if (query.page > totalPages) return { tolls: [], totalPages };
  const rows = await filtered(tollsWithPartner(db))
    .orderBy('t.occurred_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(FREE_FLOW_PAGE_SIZE)
    .offset(FREE_FLOW_PAGE_SIZE * (query.page - 1))
    .execute();
  return { tolls: rows.map((r) => tollView(r, now)), totalPages };
}

/** What is owed now: open tolls, their sum, the overdue ones, the nearest deadline, the flagged ones, the plates opted in. */
export async function driverSummary(db: Kysely<Database>, driverId: number, now: Date): Promise<FreeFlowSummary> {
  const today = saoPauloDay(now);
  const open = await db
    .selectFrom('free_flow_tolls')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string | null>('amount_cents').as('cents'),
      eb.fn.min<string | null>('due_day').as('nearest'),
      eb.fn.sum<number | string | null>(sql<number>`case when due_day < ${today} then 1 else 0 end`).as('overdue'),
      eb.fn.sum<number | string | null>(sql<number>`case when flag is not null then 1 else 0 end`).as('flagged'),
    ])
    .where('driver_id', '=', driverId)
    .where('paid_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .executeTakeFirst();
  const plates = await db
    .selectFrom('vehicles')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('driver_id', '=', driverId)
    .where('deleted_at', 'is', null)
    .where('free_flow_consent_at', 'is not', null)
    .executeTakeFirst();
  return {
    emAberto: Number(open?.n ?? 0),
    valorEmAberto: centsToReais(Number(open?.cents ?? 0)),
    vencidos: Number(open?.overdue ?? 0),
    proximoVencimento: open?.nearest ?? null,
    sinalizados: Number(open?.flagged ?? 0),
    placasAtivas: Number(plates?.n ?? 0),
  };
}
