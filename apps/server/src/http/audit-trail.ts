import type { Endpoint } from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import type { Acting } from '../modules/fleet/access.js';

/** Fields never written to the trail: a password, a code or a token is no one's record. */
const SECRET_FIELD = /senha|password|token|codigo|code|otp/i;

/** The call's request without its secrets: the trail's 'after' for a call that records no before of its own. */
function requestOf(params: unknown, body: unknown): Record<string, unknown> | null {
  const all = { ...(isObject(params) ? params : {}), ...(isObject(body) ? body : {}) };
  const kept = Object.entries(all).filter(([key]) => !SECRET_FIELD.test(key));
  return kept.length ? Object.fromEntries(kept) : null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Decision 77: a call that changed something on a company's account (or took a file of it: an
 * export, a receipt) is recorded on its trail once it succeeded: who, which call, from which
 * address, and what was asked. A call that records its own, with before and after, in its
 * transaction, says so (route.ts `recordsOwnTrail`); an idempotent replay runs no handler, so it is
 * not recorded twice.
 */
export async function recordCompanyAction(
  e: Endpoint,
  ctx: { req: FastifyRequest; driver: { id: number }; acting: Acting; params: unknown; body: unknown },
): Promise<void> {
  if (!ctx.acting.company || e.capability === 'self') return;
  if (e.method === 'GET' && !e.file) return;
  try {
    await ctx.req.server.audit.record(ctx.driver.id, ctx.acting, {
      action: e.summary,
      outcome: 'ok',
      address: ctx.req.ip,
      after: requestOf(ctx.params, ctx.body),
    });
  } catch (error) {
    // The action is done and answered; a lost record is an operator's alarm, not the driver's error.
    ctx.req.log.error({ err: error, path: e.path }, 'registro de auditoria não gravado');
  }
}
