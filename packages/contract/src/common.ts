import { z } from 'zod';
import type { FieldErrors } from '@portal/domain';

/** Every answer carries Sucesso and Mensagem (SPEC 7). */
export const envelope = z.object({ Sucesso: z.boolean(), Mensagem: z.string() });

/** 4xx/5xx body. 422 adds errors: { field: [messages] } (SPEC 7, ARCHITECTURE 6). */
export const errorResponse = z.object({
  Sucesso: z.literal(false),
  Mensagem: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** SPEC 7 withdrawal: 'success or Sucesso, Mensagem, error'. */
  error: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const pagination = z.object({ TotalPaginas: z.number().int().min(0) });
export type Pagination = z.infer<typeof pagination>;

export const pageQuery = z.object({ page: z.coerce.number().int().min(1).catch(1) });

/** A form text field: anything that is not a string is read as empty, so the rules report it. */
export const text = z.string().catch('');

/** Adds the domain's field errors as zod issues on their fields. */
export function refineWith<T, K extends string>(rules: (value: T) => FieldErrors<K>) {
  return (value: T, ctx: z.RefinementCtx) => {
    for (const [field, message] of Object.entries(rules(value)) as [K, string | undefined][]) {
      if (message) ctx.addIssue({ code: 'custom', path: [field], message });
    }
  };
}

export const isoDateTime = z.string().describe('ISO 8601 with offset');
