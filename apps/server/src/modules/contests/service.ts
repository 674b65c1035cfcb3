import type { Contest, ContestAnswer, DriverContest, OpenContest, PartnerContestsQuery } from '@portal/contract';
import type { ContestDecision, ContestReason, ContestState, TollContestReason } from '@portal/domain';
import {
  CONTEST_STATES,
  contestDueDate,
  contestMessages,
  centsToReais,
  contestStateLabels,
  freeFlowMessages,
  isContestWindowOpen,
  reaisToCents,
  refuse,
  saoPauloDayStartIso,
} from '@portal/domain';
import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ReadRouter } from '../../db/read-replica.js';
import type { Db } from '../../db/connection.js';
import { toIso } from '../../db/connection.js';
import { lockDriver } from '../../db/lock.js';
import type { Metrics } from '../../metrics.js';
import { passagesWithRefundable } from '../passages/queries.js';
import { CONTEST_REFERENCE, contestsWithPassage, contestView, refundPartsOf } from './queries.js';
import { cancelToll } from '../passages/free-flow/pay.js';
import { refundPassage } from './refund.js';
import type { VehicleScope } from '../../db/vehicle-scope.js';
import { withinScope } from '../../db/vehicle-scope.js';
import { enqueueNotification } from '../notifications/outbox.js';

const DRIVER_CONTESTS_PAGE_SIZE = 10;
const PARTNER_CONTESTS_PAGE_SIZE = 50;

/**
 * Who answers: an operator (its own tags' contests only), a concessionaire (its own free-flow
 * tolls' contests only, decision 76) or the portal's operator at the CLI (any).
 */
export type ContestAnswerer =
  { kind: 'operator'; partnerId: number; operatorCnpj: string } | { kind: 'concessionaire'; partnerId: number } | { kind: 'portal' };

/**
 * contests.operator_cnpj names who answers: an operator's CNPJ, or 'concessionaire:<partner id>'
 * for a free-flow toll's contest (a concessionaire has no operator CNPJ in the portal).
 */
export function answererKey(by: Exclude<ContestAnswerer, { kind: 'portal' }>): string {
  return by.kind === 'operator' ? by.operatorCnpj : `concessionaire:${by.partnerId}`;
}

export interface ContestPage<C extends Contest = Contest> {
  contests: C[];
  totalPages: number;
}

/**
 * Decision 56: a driver contests a passage, the operator answers, an accepted contest gives the
 * money back once (refund.ts). Every read derives 'atrasada' from the due date and the clock.
 */
export class ContestService {
  constructor(
    private readonly db: Db,
    private readonly metrics?: Metrics,
    private readonly now: () => Date = () => new Date(),
    /** Decision 81: an operator's list may read a replica (none: the primary). */
    private readonly reads: Pick<ReadRouter, 'tolerant'> = { tolerant: (read) => read(db.kysely) },
  ) {}

  async open(driverId: number, body: OpenContest): Promise<DriverContest> {
    const now = this.now();
    const passage = await passagesWithRefundable(this.db.kysely)
      .where('passages.id', '=', body.passagemId)
      .where('passages.driver_id', '=', driverId)
      .groupBy(['passages.id', 'passages.occurred_at', 'passages.operator_cnpj'])
      .executeTakeFirst();
    if (!passage) throw refuse.notFound(contestMessages.passageNotFound);
    if (!isContestWindowOpen(new Date(toIso(passage.occurred_at)), now)) throw refuse.invalid(contestMessages.windowClosed, 'passagemId');
    if (Number(passage.refundable ?? 0) <= 0) throw refuse.conflict(contestMessages.nothingLeft);
    const inserted = await this.insertOpen(
      { on: 'passage_id', id: passage.id },
      { driverId, answerer: passage.operator_cnpj, reason: body.motivo, description: body.descricao },
      now,
    );
    if (!inserted) throw refuse.conflict(contestMessages.alreadyOpen);
    this.metrics?.contestEvent('opened');
    return this.forDriverOne(driverId, inserted.id);
  }

  /**
   * Decision 76: a free-flow toll contested in one tap, sent to its concessionaire. A toll withdrawn
   * already has nothing to contest; one contest under analysis per toll.
   */
  async openForToll(driverId: number, tollId: number, reason: TollContestReason): Promise<void> {
    const now = this.now();
    const toll = await this.db.kysely
      .selectFrom('free_flow_tolls')
      .select(['id', 'partner_id', 'cancelled_at'])
      .where('id', '=', tollId)
      .where('driver_id', '=', driverId)
      .executeTakeFirst();
    if (!toll) throw refuse.notFound(freeFlowMessages.notFound);
    if (toll.cancelled_at !== null) throw refuse.conflict(freeFlowMessages.cancelled);
    const inserted = await this.insertOpen(
      { on: 'toll_id', id: toll.id },
      { driverId, answerer: answererKey({ kind: 'concessionaire', partnerId: toll.partner_id }), reason, description: null },
      now,
    );
    if (!inserted) throw refuse.conflict(freeFlowMessages.contestAlreadyOpen);
    this.metrics?.contestEvent('opened');
  }

  /**
   * A contest under analysis of a passage or of a toll, or none when one is open already for it
   * (one at a time per passage or toll, by a partial unique index).
   */
  private insertOpen(
    of: { on: 'passage_id' | 'toll_id'; id: number },
    contest: { driverId: number; answerer: string; reason: ContestReason; description: string | null },
    now: Date,
  ): Promise<{ id: number } | undefined> {
    return (
      this.db.kysely
        .insertInto('contests')
        .values({
          passage_id: of.on === 'passage_id' ? of.id : null,
          toll_id: of.on === 'toll_id' ? of.id : null,
          driver_id: contest.driverId,
          operator_cnpj: contest.answerer,
          reason: contest.reason,
          description: contest.description,
          opened_at: now.toISOString(),
          due_at: contestDueDate(now).toISOString(),
          answered_at: null,
          answer: null,
          refund_cents: null,
          answered_by: null,
        })
        // The partial index's own predicate, as a literal: SQLite matches the target only to it.
        .onConflict((oc) =>
          oc
            .column(of.on)
            .where(sql<boolean>`state = 'ABERTA'`)
            .doNothing(),
        )
        .returning('id')
        .executeTakeFirst()
    );
  }

  /** The driver's own contest (another driver's is the same 404 as none), with where its refund went. */
  async forDriverOne(driverId: number, id: number): Promise<DriverContest> {
    const [contest] = await this.withRefunds(driverId, [await this.one({ id, driverId })]);
    if (!contest) throw refuse.notFound(contestMessages.contestNotFound);
    return contest;
  }

  async forDriver(driverId: number, page: number, state?: ContestState, scope: VehicleScope = null): Promise<ContestPage<DriverContest>> {
    let query = contestsWithPassage(this.db.kysely).where('contests.driver_id', '=', driverId);
    // Decision 77: a Motorista's, the contests of their vehicles' passages and tolls.
    if (scope !== null) query = query.where(withinScope(scope, sql`coalesce(vehicles.id, toll.vehicle_id)`));
    if (state) query = query.where('contests.state', '=', state);
    const found = await this.page(query, page, DRIVER_CONTESTS_PAGE_SIZE);
    return { ...found, contests: await this.withRefunds(driverId, found.contests) };
  }

  /** Issue 33: each contest with the parts of its refund and where each went (queries.ts refundPartsOf). */
  private async withRefunds(driverId: number, contests: readonly Contest[]): Promise<DriverContest[]> {
    const accepted = contests.filter((c) => c.estado === 'ACEITA').map((c) => c.id);
    const parts = await refundPartsOf(this.db.kysely, driverId, accepted);
    return contests.map((c) => ({
      ...c,
      devolucoes: (parts.get(c.id) ?? []).map((p) => ({ destino: p.destino, embarcador: p.embarcador, valor: centsToReais(p.cents) })),
    }));
  }

  /** The contests of an operator's passages, by state and by the São Paulo day they were opened. */
  async forOperator(answerer: string, query: PartnerContestsQuery): Promise<ContestPage> {
    const from = query.desde ? saoPauloDayStartIso(query.desde, 0) : null;
    const to = query.ate ? saoPauloDayStartIso(query.ate, 1) : null;
    if (query.desde && !from) throw refuse.invalid(contestMessages.dayInvalid, 'desde');
    if (query.ate && !to) throw refuse.invalid(contestMessages.dayInvalid, 'ate');
    const operatorWhere = (eb: ExpressionBuilder<Database, 'contests'>, states = query.estado ? [query.estado] : []) =>
      eb.and([
        eb('contests.operator_cnpj', '=', answerer),
        ...(states.length > 0 ? [eb('contests.state', 'in', states)] : []),
        ...(from ? [eb('contests.opened_at', '>=', from)] : []),
        ...(to ? [eb('contests.opened_at', '<', to)] : []),
      ]);
    // Decision 85: without days, the operator's counters; with them, the days' contests, each state
    // named (the index by operator, state and day reads each state's days, not the operator's year).
    const count = (db: Kysely<Database>) =>
      from || to
        ? countContests(db, (eb) => operatorWhere(eb, query.estado ? [query.estado] : [...CONTEST_STATES]))
        : countedContests(db, answerer, query.estado);
    return this.reads.tolerant((db) =>
      this.page(contestsWithPassage(db), query.page, PARTNER_CONTESTS_PAGE_SIZE, {
        count: () => count(db),
        ids: db
          .selectFrom('contests')
          .select('contests.id')
          .where((eb) => operatorWhere(eb)),
      }),
    );
  }

  /** Open contests past their due date, oldest first (the CLI's list for the portal's operator). */
  async overdue(limit = 500): Promise<Contest[]> {
    const now = this.now();
    const rows = await contestsWithPassage(this.db.kysely)
      .where('contests.state', '=', 'ABERTA')
      .where('contests.due_at', '<', now.toISOString())
      .orderBy('contests.due_at')
      .limit(limit)
      .execute();
    return rows.map((r) => contestView(r, now));
  }

  async countOverdue(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('contests')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('state', '=', 'ABERTA')
      .where('due_at', '<', this.now().toISOString())
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Every contest, newest first, by state (the CLI). */
  async all(state: ContestState | undefined, page: number): Promise<ContestPage> {
    let ids = this.db.kysely.selectFrom('contests').select('contests.id');
    if (state) ids = ids.where('contests.state', '=', state);
    return this.page(contestsWithPassage(this.db.kysely), page, PARTNER_CONTESTS_PAGE_SIZE, { ids });
  }

  /**
   * The operator's answer. The first answer moves the state by a conditional UPDATE and, when
   * accepted, the refund in the same transaction under the driver's lock; the same answer again is
   * answered as it was (a retry), another one is a 409 that changes nothing.
   */
  async answer(by: ContestAnswerer, id: number, body: ContestAnswer): Promise<{ contest: Contest; replayed: boolean }> {
    const owner = await this.db.kysely
      .selectFrom('contests')
      .select(['driver_id', 'operator_cnpj', 'toll_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!owner || (by.kind !== 'portal' && owner.operator_cnpj !== answererKey(by))) throw refuse.notFound(contestMessages.contestNotFound);
    const decision: ContestDecision = body.decisao;
    // Decision 76: an accepted toll's contest withdraws the toll whole (given back whole when paid); no value is asked.
    const tollId = owner.toll_id;
    const askedCents = decision === 'ACEITA' && tollId === null ? (body.valor === undefined ? null : reaisToCents(body.valor)) : null;
    if (decision === 'ACEITA' && tollId === null && askedCents === null) throw refuse.invalid(contestMessages.refundMissing, 'valor');
    const refundCents = tollId !== null && decision === 'ACEITA' ? await this.paidOf(tollId) : askedCents;
    const answeredBy = by.kind === 'operator' ? `partner:${by.partnerId}` : 'portal';
    const now = this.now();
    const moved = await this.db.kysely.transaction().execute(async (trx) => {
      await lockDriver(trx, this.db.dialect, owner.driver_id);
      const updated = await trx
        .updateTable('contests')
        .set({ state: decision, answered_at: now.toISOString(), answer: body.motivo, refund_cents: refundCents, answered_by: answeredBy })
        .where('id', '=', id)
        .where('state', '=', 'ABERTA')
        .returning(['passage_id'])
        .executeTakeFirst();
      if (!updated) return false;
      if (tollId !== null && decision === 'ACEITA') await cancelToll(trx, tollId, `${CONTEST_REFERENCE}${id}`, now);
      if (refundCents !== null && updated.passage_id !== null) {
        const passage = await trx
          .selectFrom('passages')
          .leftJoin('tags', 'tags.id', 'passages.tag_id')
          .select(['passages.place_name', 'tags.vehicle_id'])
          .where('passages.id', '=', updated.passage_id)
          .executeTakeFirstOrThrow();
        await refundPassage(trx, {
          contestId: id,
          driverId: owner.driver_id,
          passageId: updated.passage_id,
          placeName: passage.place_name,
          cents: refundCents,
          vehicleId: passage.vehicle_id,
        });
      }
      // Issue 33: the notice says where the money went, read from the entries just written.
      const parts = refundCents === null ? [] : ((await refundPartsOf(trx, owner.driver_id, [id])).get(id) ?? []);
      await enqueueNotification(trx, owner.driver_id, {
        kind: 'contestAnswered',
        contestId: id,
        accepted: decision === 'ACEITA',
        refundedCents: refundCents ?? 0,
        parts,
      });
      return true;
    });
    const contest = await this.one({ id });
    if (moved) {
      this.metrics?.contestEvent(decision === 'ACEITA' ? 'accepted' : 'refused');
      return { contest, replayed: false };
    }
    const same =
      contest.estado === decision &&
      contest.resposta === body.motivo &&
      (contest.valorDevolvido === null ? null : reaisToCents(contest.valorDevolvido)) === refundCents;
    if (!same) throw refuse.conflict(contestMessages.alreadyAnswered.replace('{state}', contestStateLabels[contest.estado].toLowerCase()));
    return { contest, replayed: true };
  }

  /** What the portal paid of a toll (null: nothing, the toll was open). */
  private async paidOf(tollId: number): Promise<number | null> {
    const toll = await this.db.kysely.selectFrom('free_flow_tolls').select('paid_cents').where('id', '=', tollId).executeTakeFirst();
    const cents = Number(toll?.paid_cents ?? 0);
    return cents > 0 ? cents : null;
  }

  private async one(where: { id: number; driverId?: number }): Promise<Contest> {
    let query = contestsWithPassage(this.db.kysely).where('contests.id', '=', where.id);
    if (where.driverId !== undefined) query = query.where('contests.driver_id', '=', where.driverId);
    const row = await query.executeTakeFirst();
    if (!row) throw refuse.notFound(contestMessages.contestNotFound);
    return contestView(row, this.now());
  }

  /**
   * One page of `query`, newest first. `ids`, when the filter reads the contests alone: the page's
   * ids are taken and counted from `contests` by itself, and only those are joined (a passage is found
   * by id in every month of the partitioned table, decision 80). Joined before the limit, PostgreSQL
   * read a large operator's page with parallel workers that each joined their share of its contests
   * to every month's passages (decision 87). `count`, when counters say it for less (decision 85).
   */
  private async page(
    query: ReturnType<typeof contestsWithPassage>,
    page: number,
    size: number,
    { count, ids }: { count?: () => Promise<number>; ids?: SelectQueryBuilder<Database, 'contests', { id: number }> } = {},
  ): Promise<ContestPage> {
    const counted = count
      ? await count()
      : await (ids ?? query)
          .clearSelect()
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirst()
          .then((row) => Number(row?.n ?? 0));
    const totalPages = Math.ceil(counted / size);
    if (page > totalPages) return { contests: [], totalPages };
    const offset = size * (page - 1);
    const rows = await (
      ids
        ? query.where('contests.id', 'in', ids.orderBy('contests.id', 'desc').limit(size).offset(offset))
        : query.limit(size).offset(offset)
    )
      .orderBy('contests.id', 'desc')
      .execute();
    const now = this.now();
    return { contests: rows.map((r) => contestView(r, now)), totalPages };
  }
}

/** An operator's contests, in one state or in all, from the counters the database keeps (migration 029). */
async function countedContests(db: Kysely<Database>, operator: string, state: ContestState | undefined): Promise<number> {
  let query = db
    .selectFrom('contest_counts')
    .select((eb) => eb.fn.sum<number | string | null>('contests').as('n'))
    .where('operator_cnpj', '=', operator);
  if (state) query = query.where('state', '=', state);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The contests a filter over their own columns finds, counted without joining their passages. */
async function countContests(
  db: Kysely<Database>,
  where: (eb: ExpressionBuilder<Database, 'contests'>) => Expression<SqlBool>,
): Promise<number> {
  const row = await db
    .selectFrom('contests')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(where)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
