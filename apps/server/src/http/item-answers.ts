import type { PartnerPassageBatchResponse, PassageBatchItemAnswer, PassageBatchResult } from '@portal/contract';
import type { Refusal } from '@portal/domain';
import { serverMessages } from '@portal/domain';
import type { core } from 'zod';
import type { RefusalAnswer } from './errors.js';
import { answerOf } from './errors.js';
import { fieldErrors } from './field-errors.js';

/**
 * The answers of the items of a batch (decision 55): each item gets the status and the envelope
 * the single call would have given it. A whole request's refusals go through the error handler
 * (plugins/error-handler.ts); an item's cannot throw, so they are built here, by the same rules
 * (a service's refusal of one item gets the status and envelope http/errors.ts gives a whole call's).
 */

/** The 422 of a body that fails the contract, as plugins/error-handler.ts answers it. */
function issuesAnswer(issues: readonly core.$ZodIssue[]): RefusalAnswer {
  const { first, errors } = fieldErrors(
    issues.map((issue) => ({ custom: issue.code === 'custom', message: issue.message, field: issue.path.map(String).join('.') })),
  );
  return { status: 422, body: { Sucesso: false, Mensagem: first, errors } };
}

/** An item's refusal in a batch's answer: its status and its envelope as `resposta`. */
function asItem<B>(answer: { status: number; body: B }): { status: number; resposta: B } {
  return { status: answer.status, resposta: answer.body };
}

/** What became of one valid item: recorded now, the first answer of the same request again, or refused. */
export type ItemOutcome =
  | { result: 'ACEITA' | 'REPETIDA'; answer: { status: number; body: PassageBatchItemAnswer['resposta'] } }
  | { result: 'RECUSADA'; refusal: Refusal };

/** An item as the contract reads it: the valid body, or the issues the single call would refuse it with. */
export type ReadItem<T extends { externalId: string }> =
  { ok: true; value: T } | { ok: false; issues: readonly core.$ZodIssue[]; externalId: string | null };

/**
 * Decision 55: a batch's answer. The valid items run together (`run` answers each, in order), the
 * invalid ones are answered with their 422; every item keeps its place and the totals say how many
 * of each result there were.
 */
export async function answerBatch<T extends { externalId: string }>(
  items: readonly ReadItem<T>[],
  run: (valid: T[]) => Promise<readonly ItemOutcome[]>,
): Promise<PartnerPassageBatchResponse> {
  const valid = items.flatMap((item) => (item.ok ? [item.value] : []));
  const outcomes = await run(valid);
  if (outcomes.length !== valid.length) throw new Error(`Lote com ${valid.length} itens e ${outcomes.length} respostas`);
  let k = 0;
  const Itens = items.map((item): PassageBatchItemAnswer => {
    if (!item.ok) return { externalId: item.externalId, resultado: 'RECUSADA', ...asItem(issuesAnswer(item.issues)) };
    const outcome = outcomes[k++]!;
    return outcome.result === 'RECUSADA'
      ? { externalId: item.value.externalId, resultado: 'RECUSADA', ...asItem(answerOf(outcome.refusal)) }
      : { externalId: item.value.externalId, resultado: outcome.result, status: outcome.answer.status, resposta: outcome.answer.body };
  });
  const count = (result: PassageBatchResult) => Itens.filter((x) => x.resultado === result).length;
  const [Aceitas, Repetidas, Recusadas] = [count('ACEITA'), count('REPETIDA'), count('RECUSADA')];
  return {
    Sucesso: true,
    Mensagem: serverMessages.partner.batchProcessed(Aceitas, Repetidas, Recusadas),
    Aceitas,
    Repetidas,
    Recusadas,
    Itens,
  };
}
