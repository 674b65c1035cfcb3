import { z } from 'zod';
import type { FieldErrors } from '@portal/domain';
import { MAX_ID, MAX_PAGE, messages, secretTextError, textError } from '@portal/domain';

/** Every answer carries Sucesso and Mensagem (spec §7). */
export const envelope = z.lazy(() => z.object({ Sucesso: z.boolean(), Mensagem: z.string() }));

/** The envelope's `code`: a refusal the client acts on, not only shows, named by a stable value. */
export const ERROR_CODES = {
  /** Founding decision 27: the current terms of use are not accepted; the web app opens /blocked-access. */
  termsNotAccepted: 'TERMS_NOT_ACCEPTED',
  /** Decision 77: the X-Conta header names an account the person may no longer use (removed, or never a member); the web app goes back to their own. */
  accountAccessEnded: 'ACCOUNT_ACCESS_ENDED',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** 4xx/5xx body. 422 adds errors: { field: [messages] } (spec §7, founding architecture §6). */
export const errorResponse = z.lazy(() =>
  z.object({
    Sucesso: z.literal(false),
    Mensagem: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
    /** spec §7 withdrawal: 'success or Sucesso, Mensagem, error'. */
    error: z.string().optional(),
    code: z.enum([ERROR_CODES.termsNotAccepted, ERROR_CODES.accountAccessEnded]).optional(),
  }),
);
export type ErrorResponse = z.infer<typeof errorResponse>;

export const pagination = z.lazy(() => z.object({ TotalPaginas: z.number().int().min(0) }));
export type Pagination = z.infer<typeof pagination>;

/** Not a whole number reads as page 1; past MAX_PAGE reads as MAX_PAGE (an empty page, never a 500). */
export const pageQuery = z.lazy(() =>
  z.object({
    page: z.coerce
      .number()
      .catch(1)
      .transform((page) => (Number.isInteger(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1)),
  }),
);

function textRule(max: number, error: (value: string, max: number) => string | null = textError) {
  return (value: string, ctx: z.RefinementCtx) => {
    const message = error(value, max);
    if (message) ctx.addIssue({ code: 'custom', message });
  };
}

/**
 * The one rule of every text field (domain textError): no control characters, no invisible
 * direction or format characters, at most max characters, else a 422 with the Portuguese message
 * on the field. Anything that is not a string reads as empty, so the form's own rules report it.
 */
export function text(max: number) {
  return z.string().catch('').superRefine(textRule(max));
}

/** A password field: text's rule but for the invisible characters (domain secretTextError: never shown, and no driver locked out). */
export function passwordText(max: number) {
  return z.string().catch('').superRefine(textRule(max, secretTextError));
}

/** The same rule for a field that must be a string (anything else is 'Dados inválidos'). */
export function strictText(max: number) {
  return z.string().superRefine(textRule(max));
}

/** An id in the path: digits naming a row of a serial column (1 to MAX_ID), else 'Identificador inválido'. */
export const idParam = z.lazy(() =>
  z.string().transform((value, ctx) => {
    const id = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
    if (!(id >= 1 && id <= MAX_ID)) {
      ctx.addIssue({ code: 'custom', message: messages.input.idInvalid });
      return z.NEVER;
    }
    return id;
  }),
);

/** Adds the domain's field errors as zod issues on their fields. */
export function refineWith<T, K extends string>(rules: (value: T) => FieldErrors<K>) {
  return (value: T, ctx: z.RefinementCtx) => {
    for (const [field, message] of Object.entries(rules(value)) as [K, string | undefined][]) {
      if (message) ctx.addIssue({ code: 'custom', path: [field], message });
    }
  };
}

export const isoDateTime = z.lazy(() => z.string().describe('ISO 8601 with offset'));
