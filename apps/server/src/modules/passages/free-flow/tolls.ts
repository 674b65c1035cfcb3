import type { FreeFlowSummary, FreeFlowToll, FreeFlowTollsQuery } from '@portal/contract';
import type { FreeFlowState } from '@portal/domain';
import { centsToReais, daysLeft, freeFlowState, saoPauloDay } from '@portal/domain';
import type { Kysely, Selectable } from 'kysely';
import { toIso } from '../../../db/connection.js';
import type { Trx } from '../../../db/connection.js';
import type { Database } from '../../../db/schema.js';
import { withinScope } from '../../../db/vehicle-scope.js';
import type { VehicleScope } from '../../../db/vehicle-scope.js';
import { closedOpen, moveTotals } from './totals.js';

const FREE_FLOW_PAGE_SIZE = 10;

/** A toll with its concessionaire's name and its newest contest, as every read of the driver's side needs it. */
export function tollsWithPartner(db: Kysely<Database>) {
  return (
    db
      .selectFrom('free_flow_tolls as t')
      .innerJoin('partners', 'partners.id', 't.partner_id')
      // The newest contest of the toll, if any (contests_toll_idx: toll_id, id).
      .leftJoin('contests as c', (join) =>
        join.on((eb) =>
          eb(
            'c.id',
            '=',
            eb
              .selectFrom('contests as newest')
              .select((x) => x.fn.max('newest.id').as('id'))
              .whereRef('newest.toll_id', '=', 't.id'),
          ),
        ),
      )
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
        'c.id as contest_id',
        'c.state as contest_state',
      ])
      .select((eb) => [
        eb
          .selectFrom('free_flow_payments as p')
          .select((x) => x.fn.sum<number | string | null>('p.paid_cents').as('n'))
          .whereRef('p.toll_id', '=', 't.id')
          .where('p.account', '=', 'vpo')
          .as('vpo_cents'),
      ])
  );
}

export type TollRow = Awaited<ReturnType<ReturnType<typeof tollsWithPartner>['executeTakeFirstOrThrow']>>;

/** Who paid a toll: its VPO, Saldo, or both (a VPO that ran short). */
function payerOf(r: TollRow): FreeFlowToll['pagoPor'] {
  if (r.paid_at === null) return null;
  const vpo = Number(r.vpo_cents ?? 0);
  if (vpo === 0) return 'SALDO';
  return vpo >= Number(r.amount_cents) ? 'VPO' : 'VPO_E_SALDO';
}

function stateOf(r: Pick<TollRow, 'paid_at' | 'cancelled_at' | 'due_day'>, now: Date): FreeFlowState {
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
    contestacao: r.contest_id === null || r.contest_state === null ? null : { id: Number(r.contest_id), estado: r.contest_state },
  };
}

/** 'Em aberto' and 'Vencido' by deadline, the nearest (or oldest) first; the others newest first. */
function byDeadline(estado: FreeFlowTollsQuery['estado']): boolean {
  return estado === 'EM_ABERTO' || estado === 'VENCIDO';
}

/**
 * The ids of the driver's tolls in the page's order, from an index alone: all of them newest first;
 * by plate; 'Em aberto' by deadline, the nearest first, and 'Vencido' the oldest deadline first (the
 * driver's open tolls' partial index); 'Pago' and 'Cancelado' newest first (their partial indexes).
 */
function pageIds(db: Kysely<Database>, driverId: number, query: FreeFlowTollsQuery, today: string, scope: VehicleScope) {
  let q = db.selectFrom('free_flow_tolls').select('id').where('driver_id', '=', driverId);
  q = q.where(withinScope(scope, 'vehicle_id'));
  if (query.placa) q = q.where('plate', '=', query.placa);
  if (byDeadline(query.estado)) {
    return q
      .where('paid_at', 'is', null)
      .where('cancelled_at', 'is', null)
      .where('due_day', query.estado === 'VENCIDO' ? '<' : '>=', today)
      .orderBy('due_day')
      .orderBy('id');
  }
  if (query.estado === 'PAGO') q = q.where('paid_at', 'is not', null).where('cancelled_at', 'is', null);
  if (query.estado === 'CANCELADO') q = q.where('cancelled_at', 'is not', null);
  return q.orderBy('occurred_at', 'desc').orderBy('id', 'desc');
}

/**
 * A page of 10 of the driver's tolls: the ids from an index (pageIds), then those 10 read whole. The
 * page count comes from the driver's totals when nothing filters the list, else from a count of the
 * same index range.
 */
export async function driverTolls(
  db: Kysely<Database>,
  driverId: number,
  query: FreeFlowTollsQuery,
  now: Date,
  totals: DriverTotals,
  scope: VehicleScope = null,
): Promise<{ tolls: FreeFlowToll[]; totalPages: number }> {
  const today = saoPauloDay(now);
  const counted = async (q: FreeFlowTollsQuery) =>
    Number(
      (
        await pageIds(db, driverId, q, today, scope)
          .clearSelect()
          .clearOrderBy()
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
  let count: number;
  // A Motorista's vehicles (decision 77): counted, the account's totals are of every vehicle.
  if (scope !== null) count = await counted(query);
  else if (query.placa === undefined && query.estado === undefined) count = Number(totals.tolls);
  // The open ones are many, the overdue ones few: 'Em aberto' is the open total less the overdue.
  else if (query.placa === undefined && query.estado === 'EM_ABERTO')
    count = Number(totals.open_tolls) - (await counted({ ...query, estado: 'VENCIDO' }));
  else count = await counted(query);
  const totalPages = Math.ceil(count / FREE_FLOW_PAGE_SIZE);
  if (query.page > totalPages) return { tolls: [], totalPages };
  // One statement: the page's ids from the index, then those 10 read whole, in the same order.
  const page = pageIds(db, driverId, query, today, scope)
    .limit(FREE_FLOW_PAGE_SIZE)
    .offset(FREE_FLOW_PAGE_SIZE * (query.page - 1));
  const rows = tollsWithPartner(db).where('t.id', 'in', page);
  const ordered = byDeadline(query.estado)
    ? rows.orderBy('t.due_day').orderBy('t.id')
    : rows.orderBy('t.occurred_at', 'desc').orderBy('t.id', 'desc');
  return { tolls: (await ordered.execute()).map((r) => tollView(r, now)), totalPages };
}

export type DriverTotals = Selectable<Database['free_flow_driver_totals']>;

/** The driver's running totals of tolls (totals.ts moves them with the tolls); none yet, zeros. */
export async function totalsOf(db: Kysely<Database>, driverId: number): Promise<DriverTotals> {
  const row = await db.selectFrom('free_flow_driver_totals').selectAll().where('driver_id', '=', driverId).executeTakeFirst();
  return row ?? { driver_id: driverId, tolls: 0, open_tolls: 0, open_cents: 0, open_flagged: 0 };
}

/**
 * What is owed now: the open tolls, their sum and the flagged ones from the driver's totals; the
 * overdue ones and the nearest deadline from the open tolls' index; the plates opted in.
 */
export async function driverSummary(
  db: Kysely<Database>,
  driverId: number,
  now: Date,
  totals: DriverTotals,
  scope: VehicleScope = null,
): Promise<FreeFlowSummary> {
  const today = saoPauloDay(now);
  const open = () =>
    db
      .selectFrom('free_flow_tolls')
      .where('driver_id', '=', driverId)
      .where('paid_at', 'is', null)
      .where('cancelled_at', 'is', null)
      .where(withinScope(scope, 'vehicle_id'));
  // A Motorista's vehicles (decision 77): what their open tolls add up to, not the account's totals.
  if (scope !== null) {
    const own = await open()
      .select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.sum<number | string>('amount_cents').as('cents'),
        eb.fn.sum<number | string>(eb.case().when('flag', 'is not', null).then(1).else(0).end()).as('flagged'),
      ])
      .executeTakeFirstOrThrow();
    totals = { ...totals, open_tolls: Number(own.n), open_cents: Number(own.cents ?? 0), open_flagged: Number(own.flagged ?? 0) };
  }
  // One statement of three scalar reads (a round trip each would be most of the list's time on PostgreSQL).
  const row = await db
    .selectNoFrom((eb) => [
      open().where('due_day', '<', today).select(eb.fn.countAll<number | string>().as('n')).as('overdue'),
      open().select('due_day').orderBy('due_day').orderBy('id').limit(1).as('nearest'),
      eb
        .selectFrom('vehicles')
        .select(eb.fn.countAll<number | string>().as('n'))
        .where('driver_id', '=', driverId)
        .where('deleted_at', 'is', null)
        .where('free_flow_consent_at', 'is not', null)
        .where(withinScope(scope, 'id'))
        .as('plates'),
    ])
    .executeTakeFirstOrThrow();
  return {
    emAberto: Number(totals.open_tolls),
    valorEmAberto: centsToReais(Number(totals.open_cents)),
    vencidos: Number(row.overdue ?? 0),
    proximoVencimento: row.nearest ?? null,
    sinalizados: Number(totals.open_flagged),
    placasAtivas: Number(row.plates ?? 0),
  };
}

/**
 * The unpaid tolls of a vehicle (its plate's consent withdrawn) or of a driver (the account closed),
 * with their contests: what the consent let the portal keep. A paid one is a ledger record and stays.
 */
export async function forgetUnpaidTolls(trx: Trx, owner: { column: 'vehicle_id' | 'driver_id'; id: number }): Promise<void> {
  const unpaid = trx.selectFrom('free_flow_tolls').select('id').where(owner.column, '=', owner.id).where('paid_at', 'is', null);
  const gone = await trx
    .selectFrom('free_flow_tolls')
    .select(['driver_id', 'amount_cents', 'flag', 'cancelled_at'])
    .where(owner.column, '=', owner.id)
    .where('paid_at', 'is', null)
    .execute();
  await moveTotals(
    trx,
    gone.map((t) => (t.cancelled_at === null ? { ...closedOpen(t), tolls: -1 } : { driverId: t.driver_id, tolls: -1 })),
  );
  await trx.deleteFrom('contests').where('toll_id', 'in', unpaid).execute();
  await trx.deleteFrom('free_flow_tolls').where(owner.column, '=', owner.id).where('paid_at', 'is', null).execute();
}
