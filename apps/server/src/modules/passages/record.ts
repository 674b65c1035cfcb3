import type { Refusal } from '@portal/domain';
import { billingPeriod, refuse, serverMessages, splitPassage, STATEMENT_ORIGINS, TAG_STATUS } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import type { AccountKind } from '../../db/schema.js';
import { postMany } from '../ledger/ledger.js';
import type { ManyEntryInput } from '../ledger/ledger.js';
import { serialHolders } from '../tags/queries.js';
import { budgetBlockedTags, countVehicleSpend } from '../vehicle-budgets/spend.js';
import type { DebitedPassage } from './notices.js';
import { enqueuePassageNotices } from './notices.js';
import type { PassagePart } from './records.js';
import { insertPassages } from './records.js';
import { addShortfalls, openVposOf, takeFromVpos } from './vpo-shares.js';

/**
 * A toll passage as its source sends it: who sent it and its id there (what makes it the same
 * passage again), the operator charging it, the tag's serial, the plaza, when, and what is due.
 */
export interface PassageInput {
  partnerId: number;
  externalId: string;
  operatorCnpj: string;
  serial: string;
  placeName: string;
  /** ISO instant (UTC). */
  occurredAt: string;
  dueCents: number;
  isThird: boolean;
}

/**
 * What became of a passage: recorded (the first ledger entry that paid it; `replayed` when the
 * ledger already held every entry), the same passage as one earlier in the call, or refused.
 */
export type PassageResult =
  { result: 'recorded'; entryId: number; replayed: boolean } | { result: 'repeated'; of: number } | { result: 'refused'; refusal: Refusal };

interface Paid {
  index: number;
  passage: PassageInput;
  tagId: number;
  driverId: number;
  vehicleId: number;
  parts: { vpoId: number | null; cents: number; account: AccountKind; key: string }[];
  /** The VPO that ran short for it (decision 52), named on Saldo's part. */
  shortVpo: number | null;
}

/**
 * Decision 55: passages, in the caller's transaction and under its locks (lockPassageHolders), in
 * a few statements whatever their number: the same rules, in the same order, as one passage at a
 * time (decision 52: the tag's open VPOs first, oldest first, the rest from Saldo or
 * SaldoTerceiro, debited through the ledger; decision 53: a fee-blocked tag takes only what an open
 * VPO covers; decision 56: the passage's record and the possible double-charge flag; decision 57:
 * the notices; decision 78: each vehicle's month spent, and its budget's notices). Each passage reads the VPO money the ones before it left. A refused passage writes
 * nothing; the others are written together. Returns each passage's result and how many were
 * flagged as possible double charges.
 */
export async function recordPassages(
  trx: Trx,
  passages: readonly PassageInput[],
  possibleDuplicateMinutes: number,
): Promise<{ results: PassageResult[]; flagged: number }> {
  const results = new Array<PassageResult>(passages.length);
  const tags = await serialHolders(
    trx,
    passages.map((p) => p.serial),
  );
  const vpos = await openVposOf(
    trx,
    passages.filter((p) => !p.isThird).map((p) => p.serial),
  );
  const accounts = await accountsOf(trx, [...new Set([...tags.values()].map((t) => t.driverId))]);
  const budgetBlocked = await budgetBlockedTags(
    trx,
    [...tags.values()].filter((t) => t.status === TAG_STATUS.blockedByDriver).map((t) => t.tagId),
  );
  const firstOf = new Map<string, number>();
  const paid: Paid[] = [];
  for (const [index, passage] of passages.entries()) {
    const same = firstOf.get(idOf(passage));
    if (same !== undefined) {
      results[index] = { result: 'repeated', of: same };
      continue;
    }
    const tag = tags.get(passage.serial);
    if (!tag || tag.operatorCnpj !== passage.operatorCnpj) {
      results[index] = { result: 'refused', refusal: refuse.invalid(serverMessages.partner.operatorTagNotFound, 'serialNumber') };
      continue;
    }
    const feeBlocked = tag.status === TAG_STATUS.blockedUnpaidFee;
    // Decision 78: a tag blocked by its vehicle's budget still pays what the operator charges (a passage made is owed).
    if (tag.status !== TAG_STATUS.active && !feeBlocked && !budgetBlocked.has(tag.tagId)) {
      results[index] = { result: 'refused', refusal: refuse.conflict(serverMessages.partner.tagNotActive) };
      continue;
    }
    const at = Date.parse(passage.occurredAt);
    const open = passage.isThird
      ? []
      : vpos.filter((v) => v.serial === passage.serial && v.driverId === tag.driverId && v.start <= at && at <= v.end);
    if (feeBlocked && !open.some((v) => v.left > 0)) {
      results[index] = { result: 'refused', refusal: refuse.conflict(serverMessages.partner.tagNotActiveForPassage) };
      continue;
    }
    const split = splitPassage(
      passage.dueCents,
      open.map((v) => ({ id: v.id, leftCents: v.left })),
    );
    const key = `partner:${passage.partnerId}:passage:${passage.externalId}`;
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
    firstOf.set(idOf(passage), index);
    paid.push({
      index,
      passage,
      tagId: tag.tagId,
      driverId: tag.driverId,
      vehicleId: tag.vehicleId,
      parts,
      shortVpo: split.fromSaldoCents > 0 ? (open.at(-1)?.id ?? null) : null,
    });
  }
  if (paid.length === 0) return { results, flagged: 0 };

  await countUsage(trx, paid);
  await takeFromVpos(
    trx,
    paid.flatMap((p) => p.parts.flatMap((part) => (part.vpoId === null ? [] : [{ vpoId: part.vpoId, cents: part.cents }]))),
  );
  const entries = await postMany(
    trx,
    paid.flatMap((p) => entriesOf(p, accounts)),
  );
  const records = paid.map((p) => {
    const parts: PassagePart[] = p.parts.map((part) => {
      const entry = entries.get(part.key);
      if (!entry) throw new Error(`Passagem ${p.passage.externalId} sem lançamento`);
      return { entryId: entry.entryId, account: part.account, vpoId: part.vpoId, cents: part.cents, replayed: !entry.posted };
    });
    return { p, parts };
  });
  await addShortfalls(
    trx,
    records.flatMap(({ p, parts }) =>
      p.shortVpo === null
        ? []
        : parts.filter((x) => x.account !== 'vpo' && !x.replayed).map((x) => ({ vpoId: p.shortVpo ?? 0, cents: x.cents })),
    ),
  );
  const inserted = await insertPassages(
    trx,
    records.map(({ p, parts }) => ({
      record: {
        partnerId: p.passage.partnerId,
        externalId: p.passage.externalId,
        operatorCnpj: p.passage.operatorCnpj,
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
    possibleDuplicateMinutes,
  );
  await enqueuePassageNotices(trx, debitedOf(records, inserted.passageIds));
  await countVehicleSpend(
    trx,
    records.flatMap(({ p, parts }) =>
      parts
        .filter((x) => x.account !== 'vpo' && !x.replayed)
        .map((x) => ({ vehicleId: p.vehicleId, at: p.passage.occurredAt, cents: x.cents })),
    ),
  );
  for (const { p, parts } of records) {
    const first = parts[0];
    if (!first) throw new Error('Passagem sem lançamento');
    results[p.index] = { result: 'recorded', entryId: first.entryId, replayed: parts.every((x) => x.replayed) };
  }
  return { results, flagged: inserted.flagged };
}

/** A passage's identity at its source (the passages table's unique key). */
function idOf(passage: PassageInput): string {
  return `${passage.partnerId}:${passage.externalId}`;
}

/** Decision 57: what each passage recorded now took from the driver's balances, for their notifications. */
function debitedOf(
  records: readonly { p: Paid; parts: readonly PassagePart[] }[],
  passageIds: ReadonlyMap<string, number>,
): DebitedPassage[] {
  return records.flatMap(({ p, parts }) => {
    const passageId = passageIds.get(p.passage.externalId);
    if (passageId === undefined) return [];
    const fresh = parts.filter((x) => !x.replayed);
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

async function accountsOf(trx: Trx, driverIds: number[]): Promise<Map<string, number>> {
  if (driverIds.length === 0) return new Map();
  const rows = await trx.selectFrom('accounts').select(['id', 'driver_id', 'kind']).where('driver_id', 'in', driverIds).execute();
  return new Map(rows.map((r) => [`${r.driver_id}:${r.kind}`, r.id]));
}

/** Decision 53: each tag's passages of the month, paid by VPO or not (one upsert of the passages' sums). */
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

function entriesOf(p: Paid, accounts: ReadonlyMap<string, number>): ManyEntryInput[] {
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
      reference: `partner:${p.passage.partnerId}`,
      idempotencyKey: part.key,
      createdAt: p.passage.occurredAt,
      vpoId: vpoPart ? part.vpoId : p.shortVpo,
      vehicleId: p.vehicleId,
      guarded: vpoPart,
    };
  });
}
