import type { PartnerPushResponse } from '@portal/contract';
import type { Refusal } from '@portal/domain';
import { billingPeriod, refuse, serverMessages, splitPassage, STATEMENT_ORIGINS, TAG_STATUS, VPO_OPEN_STATUSES } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import type { AccountKind } from '../../db/schema.js';
import { postMany } from '../ledger/ledger.js';
import type { ManyEntryInput } from '../ledger/ledger.js';
import { recordPassages } from '../contests/passages.js';
import type { DebitedPassage } from '../notifications/passage-notices.js';
import { enqueuePassageNotices } from '../notifications/passage-notices.js';
import { serialHolders } from '../tags/rows.js';
import type { PassagePart } from '../vpos/money.js';
import { openVposOf } from '../vpos/money.js';
import type { Partner } from './keys.js';
import type { PushAnswer, PushKey } from './pushes.js';
import { PartnerPushes, storedPushes } from './pushes.js';

/** One passage of a chunk, validated, with what its idempotency compares. */
export interface ChunkPassage {
  externalId: string;
  key: PushKey;
  serial: string;
  placeName: string;
  /** ISO instant (UTC). */
  occurredAt: string;
  dueCents: number;
  isThird: boolean;
}

export type ChunkOutcome = { result: 'ACEITA' | 'REPETIDA'; answer: PushAnswer } | { result: 'RECUSADA'; refusal: Refusal };

interface Paid {
  index: number;
  passage: ChunkPassage;
  tagId: number;
  driverId: number;
  parts: { vpoId: number | null; cents: number; account: AccountKind; key: string }[];
  /** The VPO that ran short for it (decision 52), named on Saldo's part. */
  shortVpo: number | null;
}

/**
 * Decision 55: what a chunk of passages does, in the caller's transaction and under its locks, in
 * a few statements whatever its size: the same rules, in the same order, as one passage at a
 * time (decision 52: the tag's open VPOs first, oldest first, the rest from Saldo or
 * SaldoTerceiro; decision 53: a fee-blocked tag takes only what an open VPO covers; decision 56:
 * the passage's record and the double-charge flag). Each passage reads the VPO money the ones
 * before it left. A refused passage writes nothing; the others are written together.
 */
export async function recordChunk(
  trx: Trx,
  partner: Partner & { operatorCnpj: string },
  passages: readonly ChunkPassage[],
  duplicateMinutes: number,
): Promise<{ outcomes: ChunkOutcome[]; flagged: number }> {
  const outcomes = new Array<ChunkOutcome>(passages.length);
  // Pushes stored since the caller's first read (a twin committed while the locks were awaited).
  const stored = await storedPushes(
    trx,
    partner.id,
    'passage',
    passages.map((p) => p.externalId),
  );
  const tags = await serialHolders(
    trx,
    passages.map((p) => p.serial),
  );
  const vpos = await openVposOf(
    trx,
    passages.filter((p) => !p.isThird).map((p) => p.serial),
  );
  const accounts = await accountsOf(trx, [...new Set([...tags.values()].map((t) => t.driverId))]);
  const firstOf = new Map<string, number>();
  const paid: Paid[] = [];
  for (const [index, passage] of passages.entries()) {
    const before = stored.get(passage.externalId);
    if (before) {
      outcomes[index] = replay(() => PartnerPushes.replayOf(before, passage.key.hash));
      continue;
    }
    const twin = firstOf.get(passage.externalId);
    if (twin !== undefined) {
      // The same externalId earlier in this chunk: answered from it once it is written (below).
      continue;
    }
    const tag = tags.get(passage.serial);
    if (!tag || tag.operatorCnpj !== partner.operatorCnpj) {
      outcomes[index] = { result: 'RECUSADA', refusal: refuse.invalid(serverMessages.partner.operatorTagNotFound, 'serialNumber') };
      continue;
    }
    const feeBlocked = tag.status === TAG_STATUS.blockedUnpaidFee;
    if (tag.status !== TAG_STATUS.active && !feeBlocked) {
      outcomes[index] = { result: 'RECUSADA', refusal: refuse.conflict(serverMessages.partner.tagNotActive) };
      continue;
    }
    const at = Date.parse(passage.occurredAt);
    const open = passage.isThird
      ? []
      : vpos.filter((v) => v.serial === passage.serial && v.driverId === tag.driverId && v.start <= at && at <= v.end);
    if (feeBlocked && !open.some((v) => v.left > 0)) {
      outcomes[index] = { result: 'RECUSADA', refusal: refuse.conflict(serverMessages.partner.tagNotActiveForPassage) };
      continue;
    }
    const split = splitPassage(
      passage.dueCents,
      open.map((v) => ({ id: v.id, leftCents: v.left })),
    );
    const key = `partner:${partner.id}:passage:${passage.externalId}`;
    const parts: Paid['parts'] = split.fromVpos.map((part) => ({
      vpoId: part.id,
      cents: part.cents,
      account: 'vpo',
      key: `${key}:vpo:${part.id}`,
    }));
    for (const part of split.fromVpos) {
      const vpo = open.find((v) => v.id === part.id);
      if (vpo) vpo.left -= part.cents;
    }
    if (split.fromSaldoCents > 0) parts.push({ vpoId: null, cents: split.fromSaldoCents, account: passage.isThird ? 'third' : 'own', key });
    firstOf.set(passage.externalId, index);
    paid.push({
      index,
      passage,
      tagId: tag.tagId,
      driverId: tag.driverId,
      parts,
      shortVpo: split.fromSaldoCents > 0 ? (open.at(-1)?.id ?? null) : null,
    });
  }

  let flagged = 0;
  if (paid.length > 0) {
    await countUsage(trx, paid);
    await takeFromVpos(trx, paid);
    const entries = await postMany(
      trx,
      paid.flatMap((p) => entriesOf(partner.id, p, accounts)),
    );
    const records = paid.map((p) => {
      const parts: PassagePart[] = p.parts.map((part) => {
        const entry = entries.get(part.key);
        if (!entry) throw new Error(`Passagem ${p.passage.externalId} sem lançamento`);
        return { entryId: entry.entryId, account: part.account, vpoId: part.vpoId, cents: part.cents, duplicate: !entry.posted };
      });
      return { p, parts };
    });
    await addShortfalls(
      trx,
      records.flatMap(({ p, parts }) =>
        p.shortVpo === null
          ? []
          : parts.filter((x) => x.account !== 'vpo' && !x.duplicate).map((x) => ({ vpoId: p.shortVpo ?? 0, cents: x.cents })),
      ),
    );
    const recorded = await recordPassages(
      trx,
      records.map(({ p, parts }) => ({
        record: {
          partnerId: partner.id,
          externalId: p.passage.externalId,
          operatorCnpj: partner.operatorCnpj,
          driverId: p.driverId,
          tagId: p.tagId,
          serialNumber: p.passage.serial,
          placeName: p.passage.placeName,
          occurredAt: p.passage.occurredAt,
          amountCents: p.passage.dueCents,
          isThird: p.passage.isThird,
        },
        parts,
      })),
      duplicateMinutes,
    );
    flagged = recorded.flagged;
    await enqueuePassageNotices(trx, debitedOf(records, recorded.passageIds));
    const answers = records.map(({ p, parts }) => {
      const first = parts[0];
      if (!first) throw new Error('Passagem sem lançamento');
      const duplicate = parts.every((x) => x.duplicate);
      const body: PartnerPushResponse = {
        Sucesso: true,
        Mensagem: duplicate ? serverMessages.partner.duplicate : serverMessages.partner.passageRecorded,
        id: String(first.entryId),
        duplicate,
      };
      outcomes[p.index] = { result: 'ACEITA', answer: { status: 200, body, replayed: false } };
      return { p, body };
    });
    await storeAnswers(trx, partner.id, answers);
  }
  // A repeated externalId inside the chunk: the first one's answer, or 409 for another request.
  for (const [index, passage] of passages.entries()) {
    if (outcomes[index]) continue;
    const first = outcomes[firstOf.get(passage.externalId) ?? -1];
    const hash = passages[firstOf.get(passage.externalId) ?? -1]?.key.hash;
    if (!first || first.result === 'RECUSADA' || hash === undefined) throw new Error(`Passagem ${passage.externalId} sem resposta`);
    outcomes[index] =
      hash === passage.key.hash
        ? { result: 'REPETIDA', answer: { ...first.answer, replayed: true } }
        : { result: 'RECUSADA', refusal: refuse.conflict(serverMessages.partner.externalIdConflict) };
  }
  return { outcomes, flagged };
}

/** Decision 57: what each passage recorded now took from the driver's balances, for their notifications. */
function debitedOf(
  records: readonly { p: Paid; parts: readonly PassagePart[] }[],
  passageIds: ReadonlyMap<string, number>,
): DebitedPassage[] {
  return records.flatMap(({ p, parts }) => {
    const passageId = passageIds.get(p.passage.externalId);
    if (passageId === undefined) return [];
    const fresh = parts.filter((x) => !x.duplicate);
    const own = fresh.filter((x) => x.account === 'own');
    return [
      {
        driverId: p.driverId,
        passageId,
        place: p.passage.placeName,
        at: p.passage.occurredAt,
        ownCents: own.reduce((sum, x) => sum + x.cents, 0),
        thirdCents: fresh.filter((x) => x.account === 'third').reduce((sum, x) => sum + x.cents, 0),
        ownEntryId: own.at(-1)?.entryId ?? null,
        shortVpoId: p.shortVpo,
      },
    ];
  });
}

function replay(answer: () => PushAnswer): ChunkOutcome {
  try {
    return { result: 'REPETIDA', answer: answer() };
  } catch (error) {
    return { result: 'RECUSADA', refusal: error as Refusal };
  }
}

async function accountsOf(trx: Trx, driverIds: number[]): Promise<Map<string, number>> {
  if (driverIds.length === 0) return new Map();
  const rows = await trx.selectFrom('accounts').select(['id', 'driver_id', 'kind']).where('driver_id', 'in', driverIds).execute();
  return new Map(rows.map((r) => [`${r.driver_id}:${r.kind}`, r.id]));
}

/** Decision 53: each tag's passages of the month, paid by VPO or not (one upsert of the chunk's sums). */
async function countUsage(trx: Trx, paid: readonly Paid[]): Promise<void> {
  const sums = new Map<string, { tag_id: number; period: string; vpo_passages: number; other_passages: number }>();
  for (const p of paid) {
    const period = billingPeriod(new Date(p.passage.occurredAt));
    const id = `${p.tagId}|${period}`;
    const sum = sums.get(id) ?? { tag_id: p.tagId, period, vpo_passages: 0, other_passages: 0 };
    if (p.parts.some((x) => x.account === 'vpo')) sum.vpo_passages += 1;
    if (p.parts.some((x) => x.account !== 'vpo')) sum.other_passages += 1;
    sums.set(id, sum);
  }
  await trx
    .insertInto('tag_month_usage')
    .values([...sums.values()])
    .onConflict((oc) =>
      oc.columns(['tag_id', 'period']).doUpdateSet((eb) => ({
        vpo_passages: eb('tag_month_usage.vpo_passages', '+', eb.ref('excluded.vpo_passages')),
        other_passages: eb('tag_month_usage.other_passages', '+', eb.ref('excluded.other_passages')),
      })),
    )
    .execute();
}

/** Each VPO's share of the chunk, by a guarded UPDATE: none goes below zero whatever ran before. */
async function takeFromVpos(trx: Trx, paid: readonly Paid[]): Promise<void> {
  const taken = new Map<number, number>();
  for (const p of paid)
    for (const part of p.parts) if (part.vpoId !== null) taken.set(part.vpoId, (taken.get(part.vpoId) ?? 0) + part.cents);
  for (const [id, cents] of [...taken].sort((a, b) => a[0] - b[0])) {
    const moved = await trx
      .updateTable('vpos')
      .set((eb) => ({ left_cents: eb('left_cents', '-', cents), used_cents: eb('used_cents', '+', cents), updated_at: nowIso() }))
      .where('id', '=', id)
      .where('left_cents', '>=', cents)
      .where('status', 'in', [...VPO_OPEN_STATUSES])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new Error(`VPO ${id} mudou sob a trava do motorista`);
  }
}

async function addShortfalls(trx: Trx, shortfalls: readonly { vpoId: number; cents: number }[]): Promise<void> {
  const sums = new Map<number, number>();
  for (const s of shortfalls) sums.set(s.vpoId, (sums.get(s.vpoId) ?? 0) + s.cents);
  for (const [id, cents] of sums) {
    await trx
      .updateTable('vpos')
      .set((eb) => ({ short_cents: eb('short_cents', '+', cents) }))
      .where('id', '=', id)
      .execute();
  }
}

function entriesOf(partnerId: number, p: Paid, accounts: ReadonlyMap<string, number>): ManyEntryInput[] {
  return p.parts.map((part) => {
    const accountId = accounts.get(`${p.driverId}:${part.account}`);
    if (accountId === undefined) throw new Error(`Motorista ${p.driverId} sem conta ${part.account}`);
    const vpoPart = part.account === 'vpo';
    return {
      accountId,
      amountCents: -part.cents,
      origin: vpoPart ? STATEMENT_ORIGINS.vpoPassage : STATEMENT_ORIGINS.passage,
      placeName: p.passage.placeName,
      isThird: part.account === 'third',
      reference: `partner:${partnerId}`,
      idempotencyKey: part.key,
      createdAt: p.passage.occurredAt,
      vpoId: vpoPart ? part.vpoId : p.shortVpo,
      guarded: vpoPart,
    };
  });
}

/** The push rows with their answers, in one INSERT (a refused passage stores nothing). */
async function storeAnswers(trx: Trx, partnerId: number, answers: readonly { p: Paid; body: PartnerPushResponse }[]): Promise<void> {
  const createdAt = nowIso();
  const stored = await trx
    .insertInto('partner_pushes')
    .values(
      answers.map(({ p, body }) => ({
        partner_id: partnerId,
        kind: 'passage' as const,
        external_id: p.passage.externalId,
        request_hash: p.passage.key.hash,
        status_code: 200,
        response: JSON.stringify(body),
        created_at: createdAt,
      })),
    )
    .onConflict((oc) => oc.columns(['partner_id', 'kind', 'external_id']).doNothing())
    .returning('external_id')
    .execute();
  // A twin stored one of them meanwhile (another instance, another driver's locks): run the chunk again.
  if (stored.length !== answers.length) throw new TwinStored();
}

/** Thrown when a concurrent push stored one of the chunk's externalIds: the caller retries the chunk. */
export class TwinStored extends Error {
  readonly code = 'twin-stored';
}
