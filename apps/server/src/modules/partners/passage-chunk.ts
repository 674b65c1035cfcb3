import type { PartnerPushResponse } from '@portal/contract';
import type { Refusal } from '@portal/domain';
import { refuse, serverMessages } from '@portal/domain';
import type { Trx } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';
import type { PassageInput } from '../passages/record.js';
import { recordPassages } from '../passages/record.js';
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

/**
 * Decision 55: a chunk of an operator's passages, in the caller's transaction and under its locks:
 * a push stored since the caller's first read is answered from it, the others are recorded by the
 * passages module in a few statements (modules/passages/record.ts), and each answer is stored with
 * its push, so the same request again gets the same answer. A refused passage stores nothing.
 */
export async function recordChunk(
  trx: Trx,
  partner: Partner & { operatorCnpj: string },
  passages: readonly ChunkPassage[],
  possibleDuplicateMinutes: number,
): Promise<{ outcomes: ChunkOutcome[]; flagged: number }> {
  const outcomes = new Array<ChunkOutcome>(passages.length);
  // Pushes stored since the caller's first read (a twin committed while the locks were awaited).
  const stored = await storedPushes(
    trx,
    partner.id,
    'passage',
    passages.map((p) => p.externalId),
  );
  const fresh: number[] = [];
  for (const [index, passage] of passages.entries()) {
    const before = stored.get(passage.externalId);
    if (before) outcomes[index] = replay(() => PartnerPushes.replayOf(before, passage.key.hash));
    else fresh.push(index);
  }
  const { results, flagged } = await recordPassages(
    trx,
    fresh.map((i): PassageInput => {
      const p = passages[i]!;
      return {
        partnerId: partner.id,
        externalId: p.externalId,
        operatorCnpj: partner.operatorCnpj,
        serial: p.serial,
        placeName: p.placeName,
        occurredAt: p.occurredAt,
        dueCents: p.dueCents,
        isThird: p.isThird,
      };
    }),
    possibleDuplicateMinutes,
  );
  const answers: { passage: ChunkPassage; body: PartnerPushResponse }[] = [];
  for (const [n, index] of fresh.entries()) {
    const result = results[n];
    const passage = passages[index]!;
    if (result?.result === 'refused') outcomes[index] = { result: 'RECUSADA', refusal: result.refusal };
    if (result?.result !== 'recorded') continue;
    const body: PartnerPushResponse = {
      Sucesso: true,
      Mensagem: result.replayed ? serverMessages.partner.duplicate : serverMessages.partner.passageRecorded,
      id: String(result.entryId),
      duplicate: result.replayed,
    };
    outcomes[index] = { result: 'ACEITA', answer: { status: 200, body, replayed: false } };
    answers.push({ passage, body });
  }
  if (answers.length > 0) await storeAnswers(trx, partner.id, answers);
  // A repeated externalId inside the chunk: the first one's answer, or 409 for another request.
  for (const [n, index] of fresh.entries()) {
    const result = results[n];
    if (result?.result !== 'repeated') continue;
    const firstIndex = fresh[result.of];
    const first = outcomes[firstIndex ?? -1];
    const hash = passages[firstIndex ?? -1]?.key.hash;
    const passage = passages[index]!;
    if (!first || first.result === 'RECUSADA' || hash === undefined) throw new Error(`Passagem ${passage.externalId} sem resposta`);
    outcomes[index] =
      hash === passage.key.hash
        ? { result: 'REPETIDA', answer: { ...first.answer, replayed: true } }
        : { result: 'RECUSADA', refusal: refuse.conflict(serverMessages.partner.externalIdConflict) };
  }
  return { outcomes, flagged };
}

function replay(answer: () => PushAnswer): ChunkOutcome {
  try {
    return { result: 'REPETIDA', answer: answer() };
  } catch (error) {
    return { result: 'RECUSADA', refusal: error as Refusal };
  }
}

/** The push rows with their answers, in one INSERT (a refused passage stores nothing). */
async function storeAnswers(
  trx: Trx,
  partnerId: number,
  answers: readonly { passage: ChunkPassage; body: PartnerPushResponse }[],
): Promise<void> {
  const createdAt = nowIso();
  const stored = await trx
    .insertInto('partner_pushes')
    .values(
      answers.map(({ passage, body }) => ({
        partner_id: partnerId,
        kind: 'passage' as const,
        external_id: passage.externalId,
        request_hash: passage.key.hash,
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
