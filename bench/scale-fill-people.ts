import { billingPeriod, TAG_STATUS } from '@portal/domain';
import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../apps/server/src/db/schema.js';
import { CITIES, DRAW, SCALE_OPERATORS } from './scale-shape.js';
import type { ScaleShape } from './scale-shape.js';
import { affected, at, h, n, scalar } from './scale-steps.js';
import type { Steps } from './scale-steps.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** What every step of the fill reads: the database, the sizes, the year's instants, the partners. */
export interface FillContext {
  db: Kysely<Database>;
  shape: ScaleShape;
  steps: Steps;
  /** The build's now (kept across a resumed build); the year runs from startMs to nowMs. */
  nowMs: number;
  startMs: number;
  operators: { op: number; id: number; cnpj: string }[];
  shippers: { id: number; name: string; cnpj: string }[];
  platformId: number;
  concessionaireId: number;
  passwordHash: string;
  termId: number;
}

/** A table's ids run without a gap from min(id): its n-th row (1-based) is `offset + n`. */
export async function offsetOf(db: Kysely<Database>, table: 'drivers' | 'accounts' | 'vehicles' | 'tags' | 'vpos'): Promise<number> {
  const { rows } = await sql<{
    lo: string | null;
    hi: string | null;
    n: string;
  }>`select min(id) as lo, max(id) as hi, count(*) as n from ${sql.table(table)}`.execute(db);
  const row = rows[0];
  const lo = Number(row?.lo ?? 0);
  const hi = Number(row?.hi ?? -1);
  if (hi - lo + 1 !== Number(row?.n ?? 0)) throw new Error(`os ids de ${table} não são contíguos`);
  return lo - 1;
}

/** The draws of a tag's plan (scale_tags), by its number t. */
const tagDraw = (salt: number) => h(sql`t`, salt);

/**
 * The plan of the year, in two tables the steps read (dropped at the end): scale_carriers, each
 * carrier's first tag and number of tags (tags in proportion to c^-0.7: a few large fleets); and
 * scale_tags, per tag its owner, when it was activated (the portal grew: start + 0.9 * span *
 * sqrt(u)), its operator, axles, free-flow opt-in, and its passages (a weight: a carrier's truck
 * 15, a driver's own 1, times a heavy tail u^-0.6 capped at 40, times the share of the year it was
 * active; then the year's passages shared by weight, rounded by a draw).
 */
export async function planYear(ctx: FillContext): Promise<void> {
  const { shape, steps } = ctx;
  const spanMs = ctx.nowMs - ctx.startMs;
  await steps.run('plan: carriers', async (trx) => {
    await sql`create table scale_carriers (n integer primary key, first_tag integer not null, tags integer not null)`.execute(trx);
    const carriers = await affected(
      trx,
      sql`insert into scale_carriers (n, first_tag, tags)
      with w as (select c, power(c, ${n(-DRAW.carrierExponent)}) as w from generate_series(1, ${n(shape.carriers)}) c),
      k as (select c, 1 + floor(w / sum(w) over () * ${n(shape.carrierTags - shape.carriers)})::int as tags from w),
      fixed as (select c, tags + case when c = 1 then ${n(shape.carrierTags)} - sum(tags) over () else 0 end as tags from k)
      select c, sum(tags) over (order by c) - tags + 1, tags from fixed`,
    );
    // Each tag finds its carrier by this (the last first_tag at or before it): without it the
    // plan's tags scanned every carrier, carriers × tags, 100 times the work for 10 times the year.
    await sql`create unique index scale_carriers_first_tag on scale_carriers (first_tag)`.execute(trx);
    await sql`analyze scale_carriers`.execute(trx);
    return carriers;
  });
  await steps.run('plan: tags', async (trx) => {
    await sql`create table scale_tags (t integer primary key, owner integer not null, carrier boolean not null,
      activated_ms bigint not null, op smallint not null, axles smallint not null, weight double precision not null,
      passages integer not null default 0, first_passage bigint not null default 0, ff boolean not null, auto_pay boolean not null)`.execute(
      trx,
    );
    const ct = n(shape.carrierTags);
    const ops = SCALE_OPERATORS.map((o) => o.share);
    const opOf = sql`case when ${tagDraw(2)} < ${n(ops[0] ?? 1)} then 1 when ${tagDraw(2)} < ${n((ops[0] ?? 1) + (ops[1] ?? 0))} then 2 else 3 end`;
    const rows = await affected(
      trx,
      sql`insert into scale_tags (t, owner, carrier, activated_ms, op, axles, weight, ff, auto_pay)
      select t, case when t <= ${ct} then c.n else ${n(shape.carriers)} + (t - ${ct}) end, t <= ${ct},
        ${n(ctx.startMs)} + floor(${n(spanMs * DRAW.activation)} * sqrt(${tagDraw(1)}))::bigint,
        ${opOf},
        case when t <= ${ct} then 5 + floor(${tagDraw(3)} * 5) else 2 + floor(${tagDraw(3)} * 4) end,
        0, (${tagDraw(5)} < ${n(DRAW.freeFlowShare)} or t = 1), ${tagDraw(6)} < ${n(DRAW.autoPayShare)}
      from generate_series(1, ${n(shape.tags)}) t
      left join lateral (select n from scale_carriers where first_tag <= t order by first_tag desc limit 1) c on t <= ${ct}`,
    );
    const weight = sql`case when carrier then ${n(DRAW.carrierTagWeight)} else ${n(DRAW.individualTagWeight)} end
      * least(${n(DRAW.tailCap)}, power(${tagDraw(4)} + 1e-9, ${n(-DRAW.tail)}))
      * (${n(ctx.nowMs)} - activated_ms)::double precision / ${n(spanMs)}`;
    await sql`update scale_tags set weight = ${weight}`.execute(trx);
    await sql`update scale_tags s set passages = x.passages, first_passage = x.first
      from (select t, passages, sum(passages) over (order by t) - passages + 1 as first
        from (select t, floor(${n(shape.passages)} * weight / w.total + ${tagDraw(7)})::int as passages
          from scale_tags, (select sum(weight) as total from scale_tags) w) a) x
      where s.t = x.t`.execute(trx);
    return rows;
  });
}

/** The drivers' plates: Mercosul (AAA0A00), one per tag, unique across the portal. */
function plateOf(t: RawBuilder<unknown>): RawBuilder<string> {
  const q = sql`((${t} - 1) / 26000)`;
  const r = sql`((${t} - 1) % 26000)`;
  const letter = (v: RawBuilder<unknown>) => sql`chr(65 + (${v})::int % 26)`;
  return sql<string>`${letter(sql`${q} / 676`)} || ${letter(sql`${q} / 26`)} || ${letter(q)} || ((${r} / 2600) % 10)::text
    || ${letter(sql`${r} / 100`)} || lpad((${r} % 100)::text, 2, '0')`;
}

/** A driver's document by its number: carriers a CNPJ (branch 0001), the others a CPF. */
function documentOf(ctx: FillContext, driver: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`case when ${driver} <= ${n(ctx.shape.carriers)}
    then scale_cnpj((30000000 + ${driver}::bigint) * 10000 + 1) else scale_cpf(200000000 + ${driver}::bigint) end`;
}

/**
 * The drivers (one password hash for all: any of them signs in), their three accounts, their
 * acceptance of the current terms; a vehicle and an active tag per tag of the plan (the tag's
 * operator holds it: operator_tags, as the local gateway keeps it), paid through this month.
 */
export async function fillPeople(ctx: FillContext): Promise<void> {
  const { shape, steps } = ctx;
  const ct = n(shape.carrierTags);
  const carriers = n(shape.carriers);
  await steps.run('drivers', (trx) =>
    affected(
      trx,
      sql`insert into drivers (name, cpf_cnpj, phone_number, password_hash, created_at)
      select case when d <= ${carriers} then 'Transportadora Scale ' || d || ' Ltda' else 'Motorista Scale ' || d end,
        ${documentOf(ctx, sql`d`)}, '+5511' || (900000000 + d % 99999999)::text, ${ctx.passwordHash},
        ${at(sql`case when d <= ${carriers} then ${n(ctx.startMs - 7 * DAY)} else st.activated_ms - ${n(DAY)} end`)}
      from generate_series(1, ${n(shape.drivers)}) d
      left join scale_tags st on d > ${carriers} and st.t = ${ct} + d - ${carriers}
      order by d`,
    ),
  );
  const driverOff = await offsetOf(ctx.db, 'drivers');
  await steps.run('accounts', (trx) =>
    affected(
      trx,
      sql`insert into accounts (driver_id, kind, balance_cents)
      select d.id, k.kind, 0 from drivers d cross join (values ('own', 1), ('third', 2), ('vpo', 3)) k(kind, o) order by d.id, k.o`,
    ),
  );
  const accountOff = await offsetOf(ctx.db, 'accounts');
  const misplaced = await scalar(
    ctx.db,
    sql`select count(*) from accounts where id <> ${n(accountOff + 1)} + 3 * (driver_id - ${n(driverOff + 1)})
      + case kind when 'own' then 0 when 'third' then 1 else 2 end`,
  );
  if (misplaced > 0) throw new Error(`${misplaced} contas fora da ordem (motorista, tipo)`);
  await steps.run('terms accepted', (trx) =>
    affected(
      trx,
      sql`insert into term_decisions (driver_id, term_id, action, decided_at)
      select id, ${n(ctx.termId)}, 'aceite', created_at + interval '1 minute' from drivers order by id`,
    ),
  );
  await steps.run('vehicles', (trx) =>
    affected(
      trx,
      sql`insert into vehicles (driver_id, license_plate, cpf_cnpj_antt, rntrc_antt, axles, vehicle_type, model_id, created_at,
        deleted_at, free_flow_consent_at, free_flow_auto_pay, cost_centre_id)
      select ${n(driverOff)} + st.owner, ${plateOf(sql`st.t`)}, ${documentOf(ctx, sql`st.owner`)},
        lpad((10000000 + st.owner % 89999999)::text, 8, '0'), st.axles, 2, 'scania-r-450', ${at(sql`st.activated_ms - ${n(HOUR)}`)},
        null, case when st.ff then ${at(sql`st.activated_ms + ${n(DAY)}`)} end, case when st.ff and st.auto_pay then 1 else 0 end, null
      from scale_tags st order by st.t`,
    ),
  );
  const vehicleOff = await offsetOf(ctx.db, 'vehicles');
  const cnpjOf = sql`case st.op ${sql.join(
    SCALE_OPERATORS.map((o, i) => sql`when ${n(i + 1)} then ${o.cnpj}`),
    sql` `,
  )} end`;
  // This month's fee was charged on its first day (the daily billing): every tag is paid through it.
  const paidThrough = billingPeriod(new Date(ctx.nowMs));
  await steps.run('tags', (trx) =>
    affected(
      trx,
      sql`insert into tags (driver_id, vehicle_id, serial_number, operator_cnpj, ownership_type, status_code, activated_at,
        paid_through, created_at, deleted_at, released_at)
      select ${n(driverOff)} + st.owner, ${n(vehicleOff)} + st.t, '7' || lpad(st.t::text, 15, '0'), ${cnpjOf}, 'own',
        ${n(TAG_STATUS.active)}, ${at(sql`st.activated_ms`)}, ${paidThrough}, ${at(sql`st.activated_ms - 1800000`)}, null, null
      from scale_tags st order by st.t`,
    ),
  );
  await offsetOf(ctx.db, 'tags');
  await steps.run('operator tags', (trx) =>
    affected(
      trx,
      sql`insert into operator_tags (serial_number, operator_cnpj, status_code, license_plate, holder_document, updated_at)
      select t.serial_number, t.operator_cnpj, t.status_code, v.license_plate, v.cpf_cnpj_antt, t.activated_at
      from tags t join vehicles v on v.id = t.vehicle_id order by t.id`,
    ),
  );
}

/** The first instant of the São Paulo month holding `ms` (UTC-3 since 2019: the months' edges are 03:00 UTC). */
export function startOfMonthMs(ms: number): number {
  const period = billingPeriod(new Date(ms));
  const [year, month] = period.split('-').map(Number) as [number, number];
  return Date.UTC(year, month - 1, 1, 3);
}

/**
 * The VPOs' plan (scale_vpos): VPO v on the carriers' tags in turn (a stride prime to their
 * number), its trip in a 12-day slot of the tag's active time, the j-th VPO of a tag in the slot
 * after the (j-1)-th (so a tag's trips do not overlap), 2 to 9 days long; slots run 10 days past
 * now (trips not started yet). Then the vpos rows (their money is set once their passages are).
 */
export async function fillVpos(ctx: FillContext, stride: number): Promise<void> {
  const { shape, steps } = ctx;
  const slotMs = 12 * DAY;
  await steps.run('plan: vpos', async (trx) => {
    await sql`create table scale_vpos (v integer primary key, t integer not null, start_ms bigint not null, end_ms bigint not null, shipper integer not null)`.execute(
      trx,
    );
    const rows = await affected(
      trx,
      sql`insert into scale_vpos (v, t, start_ms, end_ms, shipper)
      select a.v, a.t, w.start_ms, w.start_ms + ${n(2 * DAY)} + floor(${h(sql`a.v`, 9)} * ${n(7 * DAY)})::bigint,
        1 + floor(${h(sql`a.v`, 12)} * ${n(ctx.shippers.length)})::int
      from (select v, 1 + ((v - 1)::bigint * ${n(stride)}) % ${n(shape.carrierTags)} as t, (v - 1) / ${n(shape.carrierTags)} as j
        from generate_series(1, ${n(shape.vpos)}) v) a
      join scale_tags st on st.t = a.t
      cross join lateral (select greatest(1, floor((${n(ctx.nowMs + 10 * DAY)} - st.activated_ms) / ${n(slotMs)}))::int as slots) s
      cross join lateral (select st.activated_ms + ${n(HOUR)}
        + ((floor(${h(sql`a.t`, 8)} * s.slots)::int + a.j) % s.slots) * ${n(slotMs)}::bigint
        + floor(${h(sql`a.v`, 10)} * ${n(3 * DAY)})::bigint as start_ms) w`,
    );
    // A passage finds its trip by this: the tag's last trip started before it (trips of a tag do
    // not overlap). Ordered by v instead, the planner walked every VPO for each passage at 1/5.
    await sql`create index scale_vpos_tag on scale_vpos (t, start_ms)`.execute(trx);
    await sql`analyze scale_vpos`.execute(trx);
    return rows;
  });
  const driverOff = await offsetOf(ctx.db, 'drivers');
  const tagOff = await offsetOf(ctx.db, 'tags');
  const vehicleOff = await offsetOf(ctx.db, 'vehicles');
  const shipper = (field: 'id' | 'name' | 'cnpj') =>
    sql`case w.shipper ${sql.join(
      ctx.shippers.map((s, i) => sql`when ${n(i + 1)} then ${field === 'id' ? n(s.id) : s[field]}`),
      sql` `,
    )} end`;
  const now = n(ctx.nowMs);
  const city = (salt: number) =>
    sql`(array[${sql.join(CITIES.map((c) => sql`${c}`))}])[1 + floor(${h(sql`w.v`, salt)} * ${n(CITIES.length)})::int]`;
  // Issued a day before the trip (never before the tag, never in the future); closed 6 h after it ends.
  const issued = sql`least(${now} - ${n(HOUR)}, greatest(st.activated_ms + ${n(HOUR)}, w.start_ms - ${n(DAY)}))`;
  const status = sql`case when w.end_ms < ${now} then 'ENCERRADO' when w.start_ms > ${now} then 'EMITIDO' else 'EM_VIAGEM' end`;
  await steps.run('vpos', (trx) =>
    affected(
      trx,
      sql`insert into vpos (driver_id, partner_id, external_id, serial_number, plate, shipper_document, value_cents, status, origin,
        destination, created_at, updated_at, trip_start, trip_end, closed_at, antt_id, rntrc, axles)
      select ${n(driverOff)} + st.owner, ${shipper('id')}, 'vpo-' || w.v, t.serial_number, v.license_plate, ${shipper('cnpj')}, 1,
        ${status}, ${city(13)}, ${city(14)}, ${at(issued)},
        ${at(sql`case when w.end_ms < ${now} then least(${now}, w.end_ms + ${n(6 * HOUR)}) else ${issued} end`)},
        ${at(sql`w.start_ms`)}, ${at(sql`w.end_ms`)},
        case when w.end_ms < ${now} then ${at(sql`least(${now}, w.end_ms + ${n(6 * HOUR)})`)} end, null, v.rntrc_antt, v.axles
      from scale_vpos w join scale_tags st on st.t = w.t
      join tags t on t.id = ${n(tagOff)} + w.t join vehicles v on v.id = ${n(vehicleOff)} + w.t
      order by w.v`,
    ),
  );
  await offsetOf(ctx.db, 'vpos');
}
