import type { Contest, PassageContestInfo } from '@portal/contract';
import type { ContestState, RefundPart } from '@portal/domain';
import { centsToReais, isContestOverdue, isContestWindowOpen, STATEMENT_ORIGINS } from '@portal/domain';
import type { Kysely } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { passagesPaidBy, passagesWithRefundable, recordedNoEarlierThan } from '../passages/queries.js';
import { tollPlace } from '../passages/free-flow/pay.js';

/** The `reference` of a contest's refund entries: contest:<id>. */
export const CONTEST_REFERENCE = 'contest:';

/**
 * Contests with their passage and the tag's plate, or their free-flow toll (decision 76), as both
 * the driver and the one who answers (the operator, the concessionaire) read them.
 */
export function contestsWithPassage(db: Kysely<Database>) {
  return db
    .selectFrom('contests')
    .leftJoin('passages', 'passages.id', 'contests.passage_id')
    .leftJoin('free_flow_tolls as toll', 'toll.id', 'contests.toll_id')
    .leftJoin('tags', 'tags.id', 'passages.tag_id')
    .leftJoin('vehicles', 'vehicles.id', 'tags.vehicle_id')
    .select([
      'toll.id as toll_id',
      'toll.external_id as toll_external_id',
      'toll.plate as toll_plate',
      'toll.gantry as toll_gantry',
      'toll.highway as toll_highway',
      'toll.km_milli as toll_km_milli',
      'toll.amount_cents as toll_amount_cents',
      'toll.occurred_at as toll_occurred_at',
      'contests.id',
      'contests.driver_id',
      'contests.reason',
      'contests.description',
      'contests.state',
      'contests.opened_at',
      'contests.due_at',
      'contests.answered_at',
      'contests.answer',
      'contests.refund_cents',
      'passages.id as passage_id',
      'passages.external_id',
      'passages.serial_number',
      'passages.place_name',
      'passages.amount_cents',
      'passages.occurred_at',
      'passages.duplicate_of as possible_duplicate_of',
      'vehicles.license_plate',
    ]);
}

export type ContestRow = Awaited<ReturnType<ReturnType<typeof contestsWithPassage>['executeTakeFirstOrThrow']>>;

/** The passage contested, or the free-flow toll (its gantry, highway and km as the place). */
function contestedOf(r: ContestRow): Contest['passagem'] {
  if (r.toll_id !== null) {
    return {
      id: r.toll_id,
      externalId: r.toll_external_id ?? '',
      serialNumber: null,
      pedagioSemCancela: true,
      placa: r.toll_plate,
      praca: tollPlace({
        gantry: r.toll_gantry ?? '',
        highway: r.toll_highway ?? '',
        km_milli: Number(r.toll_km_milli),
        plate: r.toll_plate ?? '',
      }),
      valor: centsToReais(Number(r.toll_amount_cents)),
      dataPassagem: toIso(r.toll_occurred_at ?? ''),
      possivelDuplicada: false,
    };
  }
  return {
    id: r.passage_id ?? 0,
    externalId: r.external_id ?? '',
    serialNumber: r.serial_number,
    pedagioSemCancela: false,
    placa: r.license_plate ?? null,
    praca: r.place_name ?? '',
    valor: centsToReais(Number(r.amount_cents)),
    dataPassagem: toIso(r.occurred_at ?? ''),
    possivelDuplicada: r.possible_duplicate_of !== null,
  };
}

export function contestView(r: ContestRow, now: Date): Contest {
  const dueAt = new Date(toIso(r.due_at));
  return {
    id: r.id,
    passagem: contestedOf(r),
    motivo: r.reason,
    descricao: r.description,
    estado: r.state,
    atrasada: isContestOverdue({ state: r.state, dueAt }, now),
    abertaEm: toIso(r.opened_at),
    prazoResposta: dueAt.toISOString(),
    respondidaEm: r.answered_at === null ? null : toIso(r.answered_at),
    resposta: r.answer,
    valorDevolvido: r.refund_cents === null ? null : centsToReais(Number(r.refund_cents)),
  };
}

/**
 * What the statement rows (or a VPO's passages) say of the passages their entries paid or gave
 * back: one read of the payments of the passage entries, one of the contests the refund entries
 * name, one of the passages' refundable money, one of their newest contests; the rows that are
 * neither read nothing. Keyed by ledger entry id; entries of no recorded passage are absent.
 */
export async function passageInfoByEntry(
  db: Kysely<Database>,
  entries: readonly { id: number; origin: string; reference?: string | null; created_at?: Date | string }[],
  now: Date,
): Promise<Map<number, PassageContestInfo>> {
  const result = new Map<number, PassageContestInfo>();
  const passageOfEntry = await passagesPaidBy(db, entries);
  // Decision 90: a payment entry is dated when its passage occurred; the passage was recorded no
  // earlier than a day before that, so the older months are not read. A contest's passage has no date here.
  const paidAt = entries
    .filter((e) => passageOfEntry.has(e.id))
    .map((e) => (e.created_at === undefined ? NaN : Date.parse(toIso(e.created_at))));
  // An accepted contest's refund entries name their contest in `reference` (contest:<id>).
  const contestOfEntry = new Map<number, number>();
  for (const e of entries) {
    if (!e.reference?.startsWith(CONTEST_REFERENCE)) continue;
    const contestId = Number(e.reference.slice(CONTEST_REFERENCE.length));
    if (Number.isSafeInteger(contestId) && contestId > 0) contestOfEntry.set(e.id, contestId);
  }
  if (contestOfEntry.size > 0) {
    const owners = await db
      .selectFrom('contests')
      .select(['id', 'passage_id'])
      .where('id', 'in', [...new Set(contestOfEntry.values())])
      .execute();
    const passageOfContest = new Map(owners.map((c) => [c.id, c.passage_id]));
    for (const [entryId, contestId] of contestOfEntry) {
      const passageId = passageOfContest.get(contestId);
      if (passageId !== undefined && passageId !== null) passageOfEntry.set(entryId, passageId);
    }
  }
  const passageIds = [...new Set(passageOfEntry.values())];
  if (passageIds.length === 0) return result;
  const recordedFrom = contestOfEntry.size > 0 || paidAt.some(Number.isNaN) ? null : recordedNoEarlierThan(Math.min(...paidAt));
  const passages = await passagesWithRefundable(db)
    .select(['passages.duplicate_of as possible_duplicate_of'])
    .where('passages.id', 'in', passageIds)
    .$if(recordedFrom !== null, (q) => q.where('passages.created_at', '>=', recordedFrom ?? ''))
    .groupBy(['passages.id', 'passages.occurred_at', 'passages.operator_cnpj', 'passages.duplicate_of'])
    .execute();
  const newest = await db
    .selectFrom('contests')
    .select(['id', 'passage_id', 'state', 'due_at'])
    .where('passage_id', 'in', passageIds)
    .orderBy('id', 'desc')
    .execute();
  const contestOf = new Map<number, { id: number; estado: ContestState; atrasada: boolean }>();
  for (const c of newest) {
    if (c.passage_id === null || contestOf.has(c.passage_id)) continue;
    const dueAt = new Date(toIso(c.due_at));
    contestOf.set(c.passage_id, { id: c.id, estado: c.state, atrasada: isContestOverdue({ state: c.state, dueAt }, now) });
  }
  const infoOf = new Map<number, PassageContestInfo>();
  for (const p of passages) {
    const contest = contestOf.get(p.id) ?? null;
    infoOf.set(p.id, {
      id: p.id,
      possivelDuplicada: p.possible_duplicate_of !== null,
      contestavel:
        contest?.estado !== 'ABERTA' && Number(p.refundable ?? 0) > 0 && isContestWindowOpen(new Date(toIso(p.occurred_at)), now),
      contestacao: contest,
    });
  }
  for (const [entryId, passageId] of passageOfEntry) {
    const info = infoOf.get(passageId);
    if (info) result.set(entryId, info);
  }
  return result;
}

const REFUND_ORIGINS = [
  STATEMENT_ORIGINS.passageRefund,
  STATEMENT_ORIGINS.vpoPassageRefund,
  STATEMENT_ORIGINS.vpoRefund,
  STATEMENT_ORIGINS.freeFlowRefund,
  STATEMENT_ORIGINS.freeFlowVpoRefund,
];
/** What went back to Saldo (or SaldoTerceiro), and to a VPO, of a passage or a free-flow toll. */
const BALANCE_REFUNDS: readonly string[] = [STATEMENT_ORIGINS.passageRefund, STATEMENT_ORIGINS.freeFlowRefund];
const VPO_REFUNDS: readonly string[] = [STATEMENT_ORIGINS.vpoPassageRefund, STATEMENT_ORIGINS.freeFlowVpoRefund];

/**
 * Issue 33: where each accepted contest's refund went, read from the ledger entries it wrote (their
 * reference is contest:<id>, refund.ts): Saldo or SaldoTerceiro ('estorno-passagem'), a VPO still
 * open ('estorno-passagem-vpo'), or the shipper (the same value sent on as 'devolucao-vpo' because
 * the VPO had closed). Parts in the order the refund went: the driver's balances, then the VPOs.
 * One read of the driver's refund entries by ledger_entries_kind_idx, one of the shippers' names.
 */
export async function refundPartsOf(
  db: Kysely<Database>,
  driverId: number,
  contestIds: readonly number[],
): Promise<Map<number, RefundPart[]>> {
  const result = new Map<number, RefundPart[]>();
  if (contestIds.length === 0) return result;
  const rows = await db
    .selectFrom('ledger_entries')
    .select((eb) => ['reference', 'origin', 'is_third', 'vpo_id', eb.fn.sum<number | string>('amount_cents').as('cents')])
    .where('driver_id', '=', driverId)
    .where('origin', 'in', REFUND_ORIGINS)
    .where(
      'reference',
      'in',
      contestIds.map((id) => `${CONTEST_REFERENCE}${id}`),
    )
    .groupBy(['reference', 'origin', 'is_third', 'vpo_id'])
    .execute();
  const vpoIds = [...new Set(rows.flatMap((r) => (r.vpo_id === null ? [] : [r.vpo_id])))];
  const shippers = new Map(
    vpoIds.length === 0
      ? []
      : (
          await db
            .selectFrom('vpos')
            .innerJoin('partners', 'partners.id', 'vpos.partner_id')
            .select(['vpos.id', 'partners.name'])
            .where('vpos.id', 'in', vpoIds)
            .execute()
        ).map((v) => [v.id, v.name]),
  );
  const byContest = new Map<number, { own: number; third: number; vpos: Map<number, { back: number; onward: number }> }>();
  for (const r of rows) {
    const id = Number(r.reference?.slice(CONTEST_REFERENCE.length));
    const sums = byContest.get(id) ?? { own: 0, third: 0, vpos: new Map() };
    const cents = Number(r.cents);
    if (BALANCE_REFUNDS.includes(r.origin)) {
      if (r.is_third === 1) sums.third += cents;
      else sums.own += cents;
    } else if (r.vpo_id !== null) {
      const vpo = sums.vpos.get(r.vpo_id) ?? { back: 0, onward: 0 };
      if (VPO_REFUNDS.includes(r.origin)) vpo.back += cents;
      else vpo.onward -= cents;
      sums.vpos.set(r.vpo_id, vpo);
    }
    byContest.set(id, sums);
  }
  for (const [id, sums] of byContest) {
    const parts: RefundPart[] = [];
    if (sums.own > 0) parts.push({ destino: 'SALDO', embarcador: null, cents: sums.own });
    if (sums.third > 0) parts.push({ destino: 'SALDO_TERCEIRO', embarcador: null, cents: sums.third });
    for (const [vpoId, vpo] of [...sums.vpos].sort((a, b) => a[0] - b[0])) {
      const embarcador = shippers.get(vpoId) ?? null;
      if (vpo.back - vpo.onward > 0) parts.push({ destino: 'VPO', embarcador, cents: vpo.back - vpo.onward });
      if (vpo.onward > 0) parts.push({ destino: 'EMBARCADOR', embarcador, cents: vpo.onward });
    }
    result.set(id, parts);
  }
  return result;
}
