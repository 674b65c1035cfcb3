import { messages, serverMessages } from '@portal/domain';
import type { FieldErrorList } from './errors.js';

const textsOf = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : typeof value === 'object' && value !== null ? Object.values(value).flatMap(textsOf) : [];
/** The domain's fixed texts (both catalogues): an issue that carries one (e.g. a z.enum with its own error) was written for the driver. */
const DOMAIN_TEXTS: ReadonlySet<string> = new Set([...textsOf(messages), ...textsOf(serverMessages)]);

/** One contract issue, whether Fastify's validator or zod itself reported it. */
export interface ContractIssue {
  /** A custom (superRefine) issue: its message was written for the driver. */
  custom: boolean;
  message: string | undefined;
  /** Dotted path of the field ('' for the body as a whole). */
  field: string;
}

/**
 * Contract issues -> the first message and { field: [messages] }, as every 422 of a body answers.
 * Only the domain's own messages (custom issues, or its texts) reach the driver; anything else is
 * 'Dados inválidos'.
 */
export function fieldErrors(issues: Iterable<ContractIssue>): { first: string; errors: FieldErrorList } {
  const errors: FieldErrorList = {};
  let first: string | null = null;
  for (const issue of issues) {
    const own = issue.custom || (issue.message !== undefined && DOMAIN_TEXTS.has(issue.message));
    const message = own && issue.message ? issue.message : serverMessages.session.invalidRequest;
    first ??= message;
    if (!issue.field) continue;
    const list = (errors[issue.field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return { first: first ?? serverMessages.session.invalidRequest, errors };
}
