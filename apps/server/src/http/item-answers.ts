import type { Refusal } from '@portal/domain';
import { messages, serverMessages } from '@portal/domain';
import type { core } from 'zod';
import type { FieldErrorList, RefusalAnswer } from './errors.js';
import { answerOf } from './errors.js';

/**
 * The answers of the items of a batch (decision 55): each item gets the status and the envelope
 * the single call would have given it. A whole request's refusals go through the error handler
 * (plugins/error-handler.ts); an item's cannot throw, so they are built here, by the same rules.
 */

const textsOf = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : typeof value === 'object' && value !== null ? Object.values(value).flatMap(textsOf) : [];
/** The domain's fixed texts (both catalogues), as plugins/error-handler.ts reads them. */
const DOMAIN_TEXTS: ReadonlySet<string> = new Set([...textsOf(messages), ...textsOf(serverMessages)]);

/**
 * The 422 of a body that fails the contract, as plugins/error-handler.ts answers it: the first
 * message and { field: [messages] }; only the domain's own messages (custom issues, or its texts)
 * are shown, anything else is 'Dados inválidos'.
 */
export function issuesAnswer(issues: readonly core.$ZodIssue[]): RefusalAnswer {
  const errors: FieldErrorList = {};
  let first: string | null = null;
  for (const issue of issues) {
    const own = issue.code === 'custom' || DOMAIN_TEXTS.has(issue.message);
    const message = own && issue.message ? issue.message : serverMessages.session.invalidRequest;
    first ??= message;
    const field = issue.path.map(String).join('.');
    if (!field) continue;
    const list = (errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return { status: 422, body: { Sucesso: false, Mensagem: first ?? serverMessages.session.invalidRequest, errors } };
}

/** A service's refusal of one item: the status and envelope http/errors.ts gives the same refusal of a whole call. */
export function refusalAnswer(refusal: Refusal): RefusalAnswer {
  return answerOf(refusal);
}
