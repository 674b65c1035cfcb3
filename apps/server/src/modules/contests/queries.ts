import type { Contest, PassageContestInfo } from '@portal/contract';
import type { ContestState } from '@portal/domain';
import { centsToReais, isContestOverdue, isContestWindowOpen, STATEMENT_ORIGINS } from '@portal/domain';
import type { Kysely } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';

/** The `reference` of a contest's refund entries: contest:<id>. */
export const CONTEST_REFERENCE = 'contest:';

/**
 * Passages with what contests may still give back of them (what each account paid, less what was
 * given back); the caller filters and groups by passages.id, occurred_at, operator_cnpj and what
 * else it selects.
 */
export function passagesWithRefundable(db: Kysely<Database>) {
  return db
    .selectFrom('passages')
    .leftJoin('passage_payments', 'passage_payments.passage_id', 'passages.id')
    .select((eb) => [
      'passages.id',
      'passages.occurred_at',
      'passages.operator_cnpj',
      eb.fn.sum<number | string>(eb('passage_payments.paid_cents', '-', eb.ref('passage_payments.refunded_cents'))).as('refundable'),
    ]);
}

/** Contests with their passage and the tag's plate, as both the driver and the operator read them. */
export function contestsWithPassage(db: Kysely<Database>) {
  return db
    .selectFrom('contests')
    .innerJoin('passages', 'passages.id', 'contests.passage_id')
    .leftJoin('tags', 'tags.id', 'passages.tag_id')
    .leftJoin('vehicles', 'vehicles.id', 'tags.vehicle_id')
    .select([
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
      'passages.duplicate_of',
      'vehicles.license_plate',
    ]);
}

export type ContestRow = Awaited<ReturnType<ReturnType<typeof contestsWithPassage>['executeTakeFirstOrThrow']>>;

export function contestView(r: ContestRow, now: Date): Contest {
  const dueAt = new Date(toIso(r.due_at));
  return {
    id: r.id,
    passagem: {
      id: r.passage_id,
      externalId: r.external_id,
      serialNumber: r.serial_number,
      placa: r.license_plate ?? null,
      praca: r.place_name,
      valor: centsToReais(Number(r.amount_cents)),
      dataPassagem: toIso(r.occurred_at),
      possivelDuplicada: r.duplicate_of !== null,
    },
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

/** The ledger entries a toll passage's payment writes (partners/passage-chunk.ts). */
const PASSAGE_ORIGINS: ReadonlySet<string> = new Set([STATEMENT_ORIGINS.passage, STATEMENT_ORIGINS.vpoPassage]);

/**
 * What the statement rows (or a VPO's passages) say of the passages their entries paid or gave
 * back: one read of the payments of the passage entries, one of the contests the refund entries
 * name, one of the passages' refundable money, one of their newest contests; the rows that are
 * neither read nothing. Keyed by ledger entry id; entries of no recorded passage are absent.
 */
export async function passageInfoByEntry(
  db: Kysely<Database>,
  entries: readonly { id: number; origin: string; reference?: string | null }[],
  now: Date,
): Promise<Map<number, PassageContestInfo>> {
  const result = new Map<number, PassageContestInfo>();
  const paymentEntries = entries.filter((e) => PASSAGE_ORIGINS.has(e.origin)).map((e) => e.id);
  const passageOfEntry = new Map<number, number>();
  if (paymentEntries.length > 0) {
    const paying = await db
      .selectFrom('passage_payments')
      .select(['entry_id', 'passage_id'])
      .where('entry_id', 'in', paymentEntries)
      .execute();
    for (const p of paying) passageOfEntry.set(p.entry_id, p.passage_id);
  }
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
      if (passageId !== undefined) passageOfEntry.set(entryId, passageId);
    }
  }
  const passageIds = [...new Set(passageOfEntry.values())];
  if (passageIds.length === 0) return result;
  const passages = await passagesWithRefundable(db)
    .select(['passages.duplicate_of'])
    .where('passages.id', 'in', passageIds)
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
    if (contestOf.has(c.passage_id)) continue;
    const dueAt = new Date(toIso(c.due_at));
    contestOf.set(c.passage_id, { id: c.id, estado: c.state, atrasada: isContestOverdue({ state: c.state, dueAt }, now) });
  }
  const infoOf = new Map<number, PassageContestInfo>();
  for (const p of passages) {
    const contest = contestOf.get(p.id) ?? null;
    infoOf.set(p.id, {
      id: p.id,
      possivelDuplicada: p.duplicate_of !== null,
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
