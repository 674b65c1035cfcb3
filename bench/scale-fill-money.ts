import { billingPeriod, STATEMENT_ORIGINS, TAG_MONTHLY_FEE_CENTS, tagFeePlaceName } from '@portal/domain';
import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { offsetOf, startOfMonthMs } from './scale-fill-people.js';
import type { FillContext } from './scale-fill-people.js';
import { DRAW, HIGHWAYS } from './scale-shape.js';
import { affected, at, h, n, scalar } from './scale-steps.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Rows a chunked step writes per statement (one transaction each). */
export const CHUNK_ROWS = 2_000_000;

/** The ids the money steps compute with: every table's n-th row is offset + n (offsetOf). */
interface Offsets {
  driver: number;
  account: number;
  vehicle: number;
  tag: number;
  vpo: number;
}

async function offsets(ctx: FillContext): Promise<Offsets> {
  return {
    driver: await offsetOf(ctx.db, 'drivers'),
    account: await offsetOf(ctx.db, 'accounts'),
    vehicle: await offsetOf(ctx.db, 'vehicles'),
    tag: await offsetOf(ctx.db, 'tags'),
    vpo: await offsetOf(ctx.db, 'vpos'),
  };
}

/** The account of a driver's number (the plan's owner): Saldo, SaldoTerceiro, the VPOs' (accounts in driver, kind order). */
export function accountOf(o: { account: number }, driver: RawBuilder<unknown>, kind: 'own' | 'third' | 'vpo'): RawBuilder<number> {
  const shift = { own: 2, third: 1, vpo: 0 }[kind];
  return sql<number>`(${n(o.account)} + 3 * (${driver}) - ${n(shift)})`;
}

/** The plan's tags in ranges of about CHUNK_ROWS of `rows` (a column of scale_tags counting each tag's rows), for chunked steps. */
async function tagRanges(ctx: FillContext, perTag: RawBuilder<unknown>): Promise<[number, number][]> {
  const { rows } = await sql<{ lo: number; hi: number }>`select min(t) as lo, max(t) as hi
    from (select t, sum(${perTag}) over (order by t) as upto from scale_tags) a
    group by floor((upto - 1) / ${n(CHUNK_ROWS)}) order by 1`.execute(ctx.db);
  return rows.map((r) => [Number(r.lo), Number(r.hi)]);
}

/**
 * The passages, chunk by chunk of tags, as the partner API writes them (partners/passage-batch.ts,
 * passages/record.ts): the passage (its instant spread over the tag's active time, sent within
 * minutes or, 2 %, days late), its ledger entry (from the VPO whose trip holds it, else Saldo, or
 * SaldoTerceiro for a driver's third-party passages) with the keys and references the service
 * spells, and its passage_payments row; one statement per chunk, rows linked by what each insert returns.
 */
export async function fillPassages(ctx: FillContext): Promise<void> {
  const o = await offsets(ctx);
  const now = n(ctx.nowMs);
  const ranges = await tagRanges(ctx, sql`passages`);
  const partner = (field: 'id' | 'cnpj') =>
    sql`case st.op ${sql.join(
      ctx.operators.map((x) => sql`when ${n(x.op)} then ${field === 'id' ? n(x.id) : x.cnpj}`),
      sql` `,
    )} end`;
  const highways = sql`(array[${sql.join(HIGHWAYS.map((x) => sql`${x}`))}])`;
  for (const [i, [lo, hi]] of ranges.entries()) {
    const statement = sql`with made as materialized (
          select st.t, st.owner, x.p, x.occ, x.third, x.amount, w.v,
            ${partner('id')} as partner_id, ${partner('cnpj')} as cnpj,
            'Praça ' || (1 + (x.p * 7) % 12) || ' – ' || ${highways}[1 + st.t % ${n(HIGHWAYS.length)}] as place,
            case when ${h(sql`x.p`, 13)} < ${n(DRAW.lateShare)}
              then least(${now} - 60000, x.occ + ${n(DAY)} * (1 + floor(${h(sql`x.p`, 14)} * 20))::bigint)
              else x.occ + 120000 + floor(${h(sql`x.p`, 14)} * 1800000)::bigint end as sent
          from scale_tags st
          cross join lateral generate_series(1, st.passages) g(k)
          cross join lateral (select st.first_passage + g.k - 1 as p) pn
          cross join lateral (select pn.p,
            st.activated_ms + ${n(HOUR)} + floor((${n(ctx.nowMs - 2 * HOUR)} - st.activated_ms) * (g.k - 1 + ${h(sql`pn.p`, 10)}) / st.passages)::bigint as occ,
            (not st.carrier and ${h(sql`pn.p`, 11)} < ${n(DRAW.thirdShare)}) as third,
            st.axles * 180 + floor(${h(sql`pn.p`, 12)} * 900)::int + 200 as amount) x
          left join lateral (select w.v from scale_vpos w where w.t = st.t and w.start_ms <= x.occ and w.end_ms >= x.occ
            order by w.start_ms desc limit 1) w
            on not x.third
          where st.t between ${n(lo)} and ${n(hi)}),
        keyed as materialized (select m.*, ${n(o.vpo)} + m.v as vpo_id,
            case when m.v is not null then 'vpo' when m.third then 'third' else 'own' end as account,
            'partner:' || m.partner_id || ':passage:y' || m.p || case when m.v is not null then ':vpo:' || (${n(o.vpo)} + m.v) else '' end as key
          from made m),
        passage as (insert into passages (partner_id, external_id, operator_cnpj, driver_id, tag_id, serial_number, place_name, occurred_at,
            amount_cents, is_third, duplicate_of, created_at)
          select partner_id, 'y' || p, cnpj, ${n(o.driver)} + owner, ${n(o.tag)} + t, '7' || lpad(t::text, 15, '0'), place, ${at(sql`occ`)},
            amount, case when third then 1 else 0 end, null, ${at(sql`sent`)}
          from keyed order by p
          returning id, partner_id, external_id),
        entry as (insert into ledger_entries (account_id, driver_id, amount_cents, origin, event, place_name, is_third, reference,
            idempotency_key, created_at, vpo_id, vehicle_id, cost_centre_id)
          select case account when 'vpo' then ${accountOf(o, sql`owner`, 'vpo')} when 'third' then ${accountOf(o, sql`owner`, 'third')}
              else ${accountOf(o, sql`owner`, 'own')} end,
            ${n(o.driver)} + owner, -amount,
            case when v is not null then ${STATEMENT_ORIGINS.vpoPassage} else ${STATEMENT_ORIGINS.passage} end,
            null, place, case when third then 1 else 0 end, 'partner:' || partner_id, key, ${at(sql`occ`)},
            case when v is not null then vpo_id end, ${n(o.vehicle)} + t, null
          from keyed order by p
          returning id, idempotency_key)
        insert into passage_payments (passage_id, entry_id, account, vpo_id, paid_cents, refunded_cents)
        select ps.id, e.id, k.account, case when k.v is not null then k.vpo_id end, k.amount, 0
        from keyed k join passage ps on ps.partner_id = k.partner_id and ps.external_id = 'y' || k.p
        join entry e on e.idempotency_key = k.key`;
    await ctx.steps.run(`passages ${i + 1}/${ranges.length}`, (trx) => affected(trx, statement));
  }
}

/**
 * Decision 52: each VPO's money from the passages it paid (value = used + what was left, R$ 10 to
 * R$ 310; open: still left, closed: back to the shipper), then its entries on the driver's VPO
 * account as money.ts writes them: the value in when issued, what was left out when it closed.
 */
export async function fillVpoMoney(ctx: FillContext): Promise<void> {
  const o = await offsets(ctx);
  const extra = sql`(1000 + floor(${h(sql`v.id`, 15)} * 30000)::int)`;
  await ctx.steps.run('vpo money', (trx) =>
    affected(
      trx,
      sql`update vpos v set used_cents = u.used, value_cents = u.used + ${extra}, held_cents = u.used + ${extra},
        left_cents = case when v.status = 'ENCERRADO' then 0 else ${extra} end,
        refunded_cents = case when v.status = 'ENCERRADO' then ${extra} else 0 end
      from (select v.id, coalesce(s.used, 0) as used from vpos v
        left join (select vpo_id, sum(paid_cents) as used from passage_payments where account = 'vpo' group by vpo_id) s on s.vpo_id = v.id) u
      where v.id = u.id`,
    ),
  );
  const driver = sql`(v.driver_id - ${n(o.driver)})`;
  const columns = sql`account_id, driver_id, amount_cents, origin, event, place_name, is_third, reference, idempotency_key, created_at, vpo_id, vehicle_id, cost_centre_id`;
  const tail = sql`from vpos v join partners s on s.id = v.partner_id join scale_vpos w on w.v = v.id - ${n(o.vpo)}`;
  await ctx.steps.run('vpo entries', async (trx) => {
    const issued = await affected(
      trx,
      sql`insert into ledger_entries (${columns})
      select ${accountOf(o, driver, 'vpo')}, v.driver_id, v.held_cents, ${STATEMENT_ORIGINS.vpoIssued}, null, s.name, 0,
        'vpo:' || v.id, 'vpo:' || v.id || ':issued', v.created_at, v.id, ${n(o.vehicle)} + w.t, null
      ${tail} order by v.id`,
    );
    const refunded = await affected(
      trx,
      sql`insert into ledger_entries (${columns})
      select ${accountOf(o, driver, 'vpo')}, v.driver_id, -v.refunded_cents, ${STATEMENT_ORIGINS.vpoRefund}, null, s.name, 0,
        'vpo:' || v.id, 'vpo:' || v.id || ':refund', v.closed_at, v.id, ${n(o.vehicle)} + w.t, null
      ${tail} where v.refunded_cents > 0 order by v.id`,
    );
    return issued + refunded;
  });
}

/**
 * Founding decision 13: each tag's R$ 15,90, its activation month at activation (TagFees.payThisMonth),
 * then every month through this one at the billing run (the month's first hour), as fees.ts
 * writes it: the paid tag_fee_charges row and the debit on Saldo with its key. Chunks of tags.
 */
export async function fillFees(ctx: FillContext): Promise<void> {
  const o = await offsets(ctx);
  const months: { period: string; startMs: number; endMs: number }[] = [];
  const current = startOfMonthMs(ctx.nowMs);
  for (let m = startOfMonthMs(ctx.startMs); m <= current; m = startOfMonthMs(m + 32 * DAY)) {
    months.push({ period: billingPeriod(new Date(m)), startMs: m, endMs: startOfMonthMs(m + 32 * DAY) });
  }
  await ctx.steps.run('plan: months', async (trx) => {
    await sql`create table scale_months (period text primary key, start_ms bigint not null, end_ms bigint not null)`.execute(trx);
    return affected(
      trx,
      sql`insert into scale_months values ${sql.join(months.map((m) => sql`(${m.period}, ${n(m.startMs)}, ${n(m.endMs)})`))}`,
    );
  });
  const [before, after] = tagFeePlaceName('{serial}').split('{serial}');
  const serial = sql`'7' || lpad(st.t::text, 15, '0')`;
  const formatted = sql.join(
    [0, 4, 8, 12].map((from) => sql`substr(${serial}, ${n(from + 1)}, 4)`),
    sql` || ' ' || `,
  );
  const ranges = await tagRanges(ctx, sql`(select count(*) from scale_months m where m.end_ms > scale_tags.activated_ms)`);
  for (const [i, [lo, hi]] of ranges.entries()) {
    await ctx.steps.run(`tag fees ${i + 1}/${ranges.length}`, (trx) =>
      affected(
        trx,
        sql`with fee as materialized (
          select st.t, st.owner, m.period, ${formatted} as formatted,
            case when st.activated_ms >= m.start_ms then st.activated_ms + 60000
              else least(${n(ctx.nowMs - 60_000)}, m.start_ms + ${n(HOUR)} + (st.t % 3600) * 1000) end as paid_ms
          from scale_tags st join scale_months m on m.end_ms > st.activated_ms
          where st.t between ${n(lo)} and ${n(hi)}),
        charge as (insert into tag_fee_charges (tag_id, period, amount_cents, status, created_at, paid_at)
          select ${n(o.tag)} + t, period, ${n(TAG_MONTHLY_FEE_CENTS)}, 'paid', ${at(sql`paid_ms`)}, ${at(sql`paid_ms`)} from fee order by t, period)
        insert into ledger_entries (account_id, driver_id, amount_cents, origin, event, place_name, is_third, reference, idempotency_key,
          created_at, vpo_id, vehicle_id, cost_centre_id)
        select ${accountOf(o, sql`owner`, 'own')}, ${n(o.driver)} + owner, ${n(-TAG_MONTHLY_FEE_CENTS)}, ${STATEMENT_ORIGINS.tagFee}, null,
          ${before ?? ''} || formatted || ${after ?? ''}, 0, (${n(o.tag)} + t) || ':' || period,
          'tag-fee:' || (${n(o.tag)} + t) || ':' || period, ${at(sql`paid_ms`)}, null, ${n(o.vehicle)} + t, null
        from fee order by t, period`,
      ),
    );
  }
}

/**
 * Decision 56: contests of passages spread over the year, each opened within 60 days of its
 * passage; those of the last 7 days open, the others answered within 6 days: 30 % of those on
 * Saldo accepted whole (the refund entry on the account that paid, refund.ts's key, and the
 * payment's refunded_cents), the rest refused.
 */
export async function fillContests(ctx: FillContext): Promise<void> {
  const o = await offsets(ctx);
  const passages = await scalar(ctx.db, sql`select count(*) from passages`);
  const first = await scalar(ctx.db, sql`select min(id) from passages`);
  if ((await scalar(ctx.db, sql`select max(id) from passages`)) - first + 1 !== passages)
    throw new Error('os ids das passagens não são contíguos');
  const now = n(ctx.nowMs);
  const c = sql`c`;
  await ctx.steps.run('contests', (trx) =>
    affected(
      trx,
      sql`insert into contests (passage_id, toll_id, driver_id, operator_cnpj, reason, description, state, opened_at, due_at,
        answered_at, answer, refund_cents, answered_by)
      select p.id, null, p.driver_id, p.operator_cnpj, r.reason, case when r.reason = 'OUTRO' then 'Não reconheço esta cobrança' end,
        s.state, ${at(sql`w.opened`)}, ${at(sql`w.opened + ${n(7 * DAY)}`)},
        case when s.state <> 'ABERTA' then ${at(sql`w.answered`)} end,
        case s.state when 'ACEITA' then 'Cobrança conferida: valor devolvido.' when 'RECUSADA' then 'Passagem registrada pela praça: cobrança mantida.' end,
        case when s.state = 'ACEITA' then pp.paid_cents end,
        case when s.state <> 'ABERTA' then 'partner:' || p.partner_id end
      from generate_series(1, ${n(ctx.shape.contests)}) c
      join passages p on p.id = ${n(first)} + floor((c - 0.5) * ${n(passages)} / ${n(ctx.shape.contests)})::bigint
      join passage_payments pp on pp.passage_id = p.id
      cross join lateral (select least(${now} - 600000,
        (extract(epoch from p.created_at) * 1000)::bigint + floor(${h(c, 16)} * ${n(60 * DAY)})::bigint) as opened) w0
      cross join lateral (select w0.opened, w0.opened + ${n(HOUR)} + floor(${h(c, 18)} * ${n(6 * DAY)})::bigint as answered) w
      cross join lateral (select case when w.opened > ${now} - ${n(7 * DAY)} then 'ABERTA'
        when pp.account <> 'vpo' and ${h(c, 17)} < ${n(DRAW.acceptedShare)} then 'ACEITA' else 'RECUSADA' end as state) s
      cross join lateral (select (array['DUPLICADA', 'CATEGORIA', 'NAO_PASSOU', 'OUTRO'])[1 + floor(${h(c, 19)} * 4)::int] as reason) r
      order by c`,
    ),
  );
  const driver = sql`(r.driver_id - ${n(o.driver)})`;
  await ctx.steps.run('contest refunds', (trx) =>
    affected(
      trx,
      sql`with r as materialized (select c.id, c.answered_at, c.refund_cents, pp.id as payment, pp.account, p.place_name, p.is_third,
          p.driver_id, p.tag_id
        from contests c join passage_payments pp on pp.passage_id = c.passage_id join passages p on p.id = c.passage_id
        where c.state = 'ACEITA'),
      paid_back as (update passage_payments set refunded_cents = paid_cents where id in (select payment from r))
      insert into ledger_entries (account_id, driver_id, amount_cents, origin, event, place_name, is_third, reference, idempotency_key,
        created_at, vpo_id, vehicle_id, cost_centre_id)
      select case when r.account = 'third' then ${accountOf(o, driver, 'third')} else ${accountOf(o, driver, 'own')} end,
        r.driver_id, r.refund_cents, ${STATEMENT_ORIGINS.passageRefund}, null, r.place_name, r.is_third, 'contest:' || r.id,
        'contest:' || r.id || ':refund:' || r.payment, r.answered_at, null, r.tag_id - ${n(o.tag)} + ${n(o.vehicle)}, null
      from r order by r.id`,
    ),
  );
}
