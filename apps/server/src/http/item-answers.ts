import type { Refusal } from '@portal/domain';
import type { core } from 'zod';
import type { RefusalAnswer } from './errors.js';
import { answerOf } from './errors.js';
import { fieldErrors } from './field-errors.js';

/**
 * The answers of the items of a batch (decision 55): each item gets the status and the envelope
 * the single call would have given it. A whole request's refusals go through the error handler
 * (plugins/error-handler.ts); an item's cannot throw, so they are built here, by the same rules.
 */

/** The 422 of a body that fails the contract, as plugins/error-handler.ts answers it. */
export function issuesAnswer(issues: readonly core.$ZodIssue[]): RefusalAnswer {
  const { first, errors } = fieldErrors(
    issues.map((issue) => ({ custom: issue.code === 'custom', message: issue.message, field: issue.path.map(String).join('.') })),
  );
  return { status: 422, body: { Sucesso: false, Mensagem: first, errors } };
}

/** A service's refusal of one item: the status and envelope http/errors.ts gives the same refusal of a whole call. */
export function refusalAnswer(refusal: Refusal): RefusalAnswer {
  return answerOf(refusal);
}

/** An item's refusal in a batch's answer: its status and its envelope as `resposta`. */
export function asItem<B>(answer: { status: number; body: B }): { status: number; resposta: B } {
  return { status: answer.status, resposta: answer.body };
}
