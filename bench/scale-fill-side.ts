import { calendarMonthsCutoff, MAX_PURCHASE_CENTS, saoPauloDay, STATEMENT_ORIGINS, STATEMENT_PLACE_NAMES } from '@portal/domain';
import { freeFlowDueDay } from '@portal/domain/free-flow-deadline';
import { sql } from 'kysely';
import { accountOf, CHUNK_ROWS } from './scale-fill-money.js';
import { offsetOf } from './scale-fill-people.js';
import type { FillContext } from './scale-fill-people.js';
import { DRAW } from './scale-shape.js';
import { affected, at, h, n, scalar } from './scale-steps.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** What the retention job reads, as the server's settings give it (apps/server/src/config.ts). */
export interface RetentionShape {
  sessionTtlHours: number;
  sessionsDays: number;
  idempotencyKeysHours: number;
  pushSentDays: number;
}

/**
 * Decision 76: the free-flow tolls of the opted-in plates over the year, each due on the day
 * freeFlowDueDay gives; most paid on arrival (automatic payment) or by the driver within days, with
 * their entries and free_flow_payments as pay.ts writes them; the others open, their notices marked
 * as the hourly job left them at the year's end (so a run a day later sends a day's). Then the drivers' totals.
 */
export async function fillFreeFlow(ctx: FillContext): Promise<void> {
  const driverOff = await offsetOf(ctx.db, 'drivers');
  const vehicleOff = await offsetOf(ctx.db, 'vehicles');
  const accounts = { account: await offsetOf(ctx.db, 'accounts') };
  const now = n(ctx.nowMs);
  const dues: [string, string][] = [];
  for (let ms = ctx.startMs - DAY; ms <= ctx.nowMs + DAY; ms += DAY) {
    const day = saoPauloDay(new Date(ms));
    if (dues.at(-1)?.[0] !== day) dues.push([day, freeFlowDueDay(new Date(ms))]);
  }
  await ctx.steps.run('plan: free-flow', async (trx) => {
    await sql`create table scale_due (day text primary key, due text not null)`.execute(trx);
    await sql`insert into scale_due values ${sql.join(dues.map(([d, due]) => sql`(${d}, ${due})`))} on conflict do nothing`.execute(trx);
    await sql`create table scale_ff (o integer primary key, t integer not null)`.execute(trx);
    return affected(trx, sql`insert into scale_ff select row_number() over (order by t), t from scale_tags where ff`);
  });
  const plates = await scalar(ctx.db, sql`select count(*) from scale_ff`);
  if (plates === 0) return;
  const today = saoPauloDay(new Date(ctx.nowMs));
  const i = sql`i`;
  await ctx.steps.run('free-flow tolls', (trx) =>
    affected(
      trx,
      sql`insert into free_flow_tolls (partner_id, external_id, driver_id, vehicle_id, plate, gantry, highway, km_milli, direction, axles,
        amount_cents, occurred_at, due_day, created_at, paid_at, paid_cents, authentication, cancelled_at, flag, flag_passage_id,
        awaiting_balance, notices)
      select ${n(ctx.concessionaireId)}, 'ff' || i, ${n(driverOff)} + st.owner, ${n(vehicleOff)} + st.t, v.license_plate,
        'Pórtico P' || (1 + i % 24), (array['BR-101', 'SP-348', 'BR-116'])[1 + st.t % 3], (10 + (i * 37) % 480) * 1000 + (i * 7) % 1000,
        (array['Norte', 'Sul'])[1 + i % 2], st.axles, w.amount, ${at(sql`w.occ`)}, d.due, ${at(sql`w.occ + ${n(HOUR)}`)},
        case when w.paid_ms is not null then ${at(sql`w.paid_ms`)} end, case when w.paid_ms is not null then w.amount else 0 end,
        case when w.paid_ms is not null then upper(substr(md5('scale-toll:' || i), 1, 5) || '-' || substr(md5('scale-toll:' || i), 6, 5)
          || '-' || substr(md5('scale-toll:' || i), 11, 5) || '-' || substr(md5('scale-toll:' || i), 16, 5)) end,
        null, null, null, 0,
        case when w.paid_ms is not null then '' else (select case when left_days < 0 then 'five,one,overdue' when left_days <= 1 then 'five,one'
          when left_days <= 5 then 'five' else '' end from (select to_date(d.due, 'YYYY-MM-DD') - to_date(${today}, 'YYYY-MM-DD') as left_days) l) end
      from generate_series(1, ${n(ctx.shape.freeFlowTolls)}) i
      join scale_ff f on f.o = 1 + ((i - 1)::bigint * 7919) % ${n(plates)}
      join scale_tags st on st.t = f.t
      join vehicles v on v.id = ${n(vehicleOff)} + f.t
      cross join lateral (select st.activated_ms + ${n(DAY)} + floor(${h(i, 20)} * (${n(ctx.nowMs - 3 * HOUR - DAY)} - st.activated_ms))::bigint as occ,
        300 + st.axles * 120 + floor(${h(i, 23)} * 600)::int as amount) w0
      cross join lateral (select w0.occ, w0.amount, case
          when st.auto_pay and ${h(i, 21)} < 0.9 then w0.occ + ${n(HOUR)} + 5000
          when ${h(i, 22)} < 0.6 and w0.occ + ${n(HOUR + 2 * DAY)} < ${now} then w0.occ + ${n(HOUR + 2 * DAY)} end as paid_ms) w
      join scale_due d on d.day = to_char(to_timestamp(w.occ / 1000.0) at time zone 'America/Sao_Paulo', 'YYYY-MM-DD')
      order by i`,
    ),
  );
  const km = sql`replace(rtrim(rtrim(to_char(km_milli / 1000.0, 'FM999990.000'), '0'), '.'), '.', ',')`;
  const driver = sql`(driver_id - ${n(driverOff)})`;
  await ctx.steps.run('free-flow payments', (trx) =>
    affected(
      trx,
      sql`with paid as materialized (select id, driver_id, vehicle_id, amount_cents, paid_at,
          gantry || ', ' || highway || ' km ' || ${km} || ' (' || plate || ')' as place, ${accountOf(accounts, driver, 'own')} as account
        from free_flow_tolls where paid_at is not null),
      entry as (insert into ledger_entries (account_id, driver_id, amount_cents, origin, event, place_name, is_third, reference,
          idempotency_key, created_at, vpo_id, vehicle_id, cost_centre_id)
        select account, driver_id, -amount_cents, ${STATEMENT_ORIGINS.freeFlowToll}, null, place, 0, 'toll:' || id, 'toll:' || id || ':saldo',
          paid_at, null, vehicle_id, null
        from paid order by id returning id, reference)
      insert into free_flow_payments (toll_id, entry_id, account, vpo_id, paid_cents, refunded_cents)
      select p.id, e.id, 'own', null, p.amount_cents, 0 from paid p join entry e on e.reference = 'toll:' || p.id`,
    ),
  );
  await ctx.steps.run('free-flow totals', (trx) =>
    affected(
      trx,
      sql`insert into free_flow_driver_totals (driver_id, tolls, open_tolls, open_cents, open_flagged)
      select driver_id, count(*),
        sum(case when paid_at is null and cancelled_at is null then 1 else 0 end),
        sum(case when paid_at is null and cancelled_at is null then amount_cents else 0 end),
        sum(case when paid_at is null and cancelled_at is null and flag is not null then 1 else 0 end)
      from free_flow_tolls group by driver_id`,
    ),
  );
}

/** The drivers in ranges of about CHUNK_ROWS rows of a plan table's `m` column (rows per driver). */
async function driverRanges(ctx: FillContext, table: 'scale_purchases' | 'scale_credits'): Promise<[number, number][]> {
  const { rows } = await sql<{ lo: number; hi: number }>`select min(driver) as lo, max(driver) as hi
    from (select driver, sum(m) over (order by driver) as upto from ${sql.table(table)}) a
    group by floor((upto - 1) / ${n(CHUNK_ROWS)}) order by 1`.execute(ctx.db);
  return rows.map((r) => [Number(r.lo), Number(r.hi)]);
}

/**
 * The money in: SaldoTerceiro's credits from the third-party platform (ledger-pushes.ts) covering
 * each driver's third-party passages; then Pix purchases (a RECEIVED pix_charges row and its credit,
 * settlement.ts's key), the rest of the year's movements shared by what each driver spent from
 * Saldo (at least one each, and none above the portal's R$ 50.000), each driver's sum 17 % above their spending (about two months ahead)
 * plus R$ 200 to R$ 1.000: balances end positive, as a driver's who keeps paying tolls do.
 */
export async function fillMoneyIn(ctx: FillContext): Promise<void> {
  const driverOff = await offsetOf(ctx.db, 'drivers');
  const o = { account: await offsetOf(ctx.db, 'accounts') };
  const now = n(ctx.nowMs);
  const columns = sql`account_id, driver_id, amount_cents, origin, event, place_name, is_third, reference, idempotency_key, created_at, vpo_id, vehicle_id, cost_centre_id`;
  await ctx.steps.run('plan: third-party credits', async (trx) => {
    await sql`create table scale_credits (driver integer primary key, m integer not null, amount bigint not null, from_ms bigint not null)`.execute(
      trx,
    );
    return affected(
      trx,
      sql`insert into scale_credits
      select s.driver_id, greatest(1, ceil(s.spent / 40000.0))::int, ceil(s.spent * 1.05 / greatest(1, ceil(s.spent / 40000.0)) / 100) * 100,
        (extract(epoch from d.created_at) * 1000)::bigint
      from (select driver_id, -sum(amount_cents) as spent from ledger_entries where is_third = 1 group by driver_id) s
      join drivers d on d.id = s.driver_id where s.spent > 0`,
    );
  });
  const driver = sql`(c.driver - ${n(driverOff)})`;
  for (const [i, [lo, hi]] of (await driverRanges(ctx, 'scale_credits')).entries()) {
    await ctx.steps.run(`third-party credits ${i + 1}`, (trx) =>
      affected(
        trx,
        sql`insert into ledger_entries (${columns})
        select ${accountOf(o, driver, 'third')}, c.driver, c.amount, ${STATEMENT_ORIGINS.thirdPartyCredit}, null, 'Crédito de terceiro', 1,
          'partner:' || ${n(ctx.platformId)}, 'partner:' || ${n(ctx.platformId)} || ':movement:m' || c.driver || '-' || j,
          ${at(sql`c.from_ms + floor((j - 0.5) / c.m * (${now} - ${n(HOUR)} - c.from_ms))::bigint`)}, null, null, null
        from scale_credits c cross join generate_series(1, c.m) j where c.driver between ${n(lo)} and ${n(hi)} order by c.driver, j`,
      ),
    );
  }
  const written = await scalar(ctx.db, sql`select count(*) from ledger_entries`);
  const purchases = Math.max(0, ctx.shape.movements - written);
  await ctx.steps.run('plan: purchases', async (trx) => {
    await sql`create table scale_purchases (driver integer primary key, m integer not null, amount bigint not null, from_ms bigint not null)`.execute(
      trx,
    );
    const own = accountOf(o, sql`(driver_id - ${n(driverOff)})`, 'own');
    return affected(
      trx,
      sql`insert into scale_purchases
      select d.id, x.m, ceil((x.spent * 1.17 + 20000 + floor(${h(sql`d.id`, 30)} * 80000)) / x.m / 100) * 100,
        (extract(epoch from d.created_at) * 1000)::bigint
      from drivers d
      left join (select driver_id, -sum(amount_cents) as spent from ledger_entries where account_id = ${own} group by driver_id) s
        on s.driver_id = d.id
      cross join (select greatest(1, sum(-amount_cents)) as total from ledger_entries where account_id = ${own}) t
      cross join lateral (select greatest(0, coalesce(s.spent, 0)) as spent,
        greatest(1, round(${n(purchases)} * greatest(0, coalesce(s.spent, 0)) / t.total),
          ceil((greatest(0, coalesce(s.spent, 0)) * 1.17 + 100000) / ${n(MAX_PURCHASE_CENTS)}))::int as m) x`,
    );
  });
  const buyer = sql`(p.driver - ${n(driverOff)})`;
  const payload = sql`'00020101021226880014br.gov.bcb.pix2566qrpix.portaldomotorista.com.br/v2/' || id || '5204000053039865802BR5925PORTAL DO MOTORISTA6009SAO PAULO62070503***6304' || upper(substr(md5(id), 1, 4))`;
  for (const [i, [lo, hi]] of (await driverRanges(ctx, 'scale_purchases')).entries()) {
    await ctx.steps.run(`purchases ${i + 1}`, (trx) =>
      affected(
        trx,
        sql`with bought as materialized (
          select p.driver, ${accountOf(o, buyer, 'own')} as account, 'chg_' || substr(md5('scale-purchase:' || p.driver || ':' || j), 1, 20) as id,
            p.amount, p.from_ms + floor((j - 0.7 + 0.4 * ${h(sql`p.driver::bigint * 100000 + j`, 31)}) / p.m * (${now} - ${n(HOUR)} - p.from_ms))::bigint as made
          from scale_purchases p cross join generate_series(1, p.m) j where p.driver between ${n(lo)} and ${n(hi)}),
        charge as (insert into pix_charges (id, driver_id, provider, provider_charge_id, amount_cents, payload, encoded_image, status,
            expires_at, created_at, received_at, refunded_at, refunded_cents, provider_cancelled_at)
          select id, driver, 'local', 'local_' || id, amount, ${payload}, null, 'RECEIVED', ${at(sql`made + 1800000`)}, ${at(sql`made`)},
            ${at(sql`made + 180000`)}, null, 0, null
          from bought order by made)
        insert into ledger_entries (${columns})
        select account, driver, amount, ${STATEMENT_ORIGINS.pixPurchase}, 'RECEIVED', ${STATEMENT_PLACE_NAMES.pixPurchase}, 0, id,
          'pix-charge:' || id || ':credit', ${at(sql`made + 180000`)}, null, null, null
        from bought order by made`,
      ),
    );
  }
}

/**
 * What the retention job (decision 71) finds on a day of the year: the sign-ins of the retained
 * months (DRAW.signInsPerDriver per driver, the oldest day's past the cut), their sessions, the
 * passages' push notices of the last week and a day (sent), the purchases' Idempotency-Keys of the
 * last two days: each table holding its period and one day more.
 */
export async function fillRetained(ctx: FillContext, retention: RetentionShape): Promise<void> {
  const now = n(ctx.nowMs);
  const from = calendarMonthsCutoff(new Date(ctx.nowMs), 6).getTime() - DAY;
  const perDriver = DRAW.signInsPerDriver;
  await ctx.steps.run('access records', (trx) =>
    affected(
      trx,
      sql`insert into access_records (driver_id, action, ip_address, occurred_at)
      select d.id, 'entrada', '10.' || (d.id % 250) || '.' || ((d.id / 250) % 250) || '.' || (i + 1),
        ${at(sql`${n(from)} + floor((i - 1 + ${h(sql`d.id::bigint * 16 + i`, 32)}) / ${n(perDriver)} * (${now} - ${n(from)}))::bigint`)}
      from drivers d cross join generate_series(1, ${n(perDriver)}) i order by d.id, i`,
    ),
  );
  const sessionsFrom = ctx.nowMs - (retention.sessionsDays + 1) * DAY - retention.sessionTtlHours * HOUR;
  await ctx.steps.run('sessions', (trx) =>
    affected(
      trx,
      sql`insert into sessions (driver_id, token_hash, created_at, expires_at, revoked_at)
      select driver_id, encode(sha256(convert_to('scale-session:' || id, 'UTF8')), 'hex'), occurred_at,
        occurred_at + ${n(retention.sessionTtlHours)} * interval '1 hour', null
      from access_records where occurred_at > ${at(n(sessionsFrom))} order by id`,
    ),
  );
  const noticesFrom = ctx.nowMs - (retention.pushSentDays + 1) * DAY;
  await ctx.steps.run('push notices', (trx) =>
    affected(
      trx,
      sql`insert into notification_outbox (driver_id, kind, payload, dedupe_key, created_at, due_at, attempts, sent_at, gave_up_at,
        last_error, delivered)
      select p.driver_id, 'passageDebited',
        json_build_object('kind', 'passageDebited', 'passageId', p.id, 'place', p.place_name, 'amountCents', p.amount_cents,
          'at', to_char(p.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text,
        'passageDebited:' || p.id, p.created_at, p.created_at + interval '1 minute',
        case when p.created_at < ${at(sql`${now} - 120000`)} then 1 else 0 end,
        case when p.created_at < ${at(sql`${now} - 120000`)} then p.created_at + interval '62 seconds' end, null, null,
        case when p.created_at < ${at(sql`${now} - 120000`)} then '[]' end
      from passages p join passage_payments pp on pp.passage_id = p.id and pp.account = 'own'
      where p.created_at > ${at(n(noticesFrom))} order by p.created_at`,
    ),
  );
  await ctx.steps.run('idempotency keys', (trx) =>
    affected(
      trx,
      sql`insert into idempotency_keys (driver_id, key, request_hash, status_code, content_type, response, created_at, answered_at, expires_at)
      select driver_id, 'scale-' || id, md5(id), 200, 'application/json; charset=utf-8', '{"Sucesso":true}', created_at,
        created_at + interval '1 second', created_at + ${n(retention.idempotencyKeysHours)} * interval '1 hour'
      from pix_charges where created_at > ${at(n(ctx.nowMs - 2 * DAY))}`,
    ),
  );
}
