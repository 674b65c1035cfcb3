import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { termsNotAccepted, unauthorized } from './errors.js';
import type { SessionDriver, SessionLookup, SessionStore } from '../modules/auth/sessions.js';

/** The driver of a call: who the bearer token's live session belongs to (modules/auth/sessions.ts). */
export type AuthedDriver = SessionDriver;

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionStore;
  }
  interface FastifyRequest {
    driver: AuthedDriver | null;
  }
}

function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * onRequest hook of every driver call: runs before the body is even parsed, so no token -> 401.
 * The driver comes from the app's session store, or from a call's own lookup (which reads more in
 * the same statement: the balance call).
 */
export function requireDriver(lookup?: SessionLookup): onRequestAsyncHookHandler {
  return async (req) => {
    const token = bearerToken(req);
    const driver = token ? await (lookup ?? req.server.sessions.resolve)(token) : null;
    if (!driver) throw unauthorized();
    req.driver = driver;
  };
}

/**
 * onRequest hook of a call the contract marks requiresTerms (founding decision 27): requireDriver, with the
 * driver's decision on the current terms read in the session's own statement; without an
 * acceptance, 403 TERMS_NOT_ACCEPTED, before the body is parsed or an Idempotency-Key is kept.
 */
export function requireDriverWithTerms(): onRequestAsyncHookHandler {
  return async (req) => {
    const token = bearerToken(req);
    const driver = token ? await req.server.sessions.resolveWithTerms(token) : null;
    if (!driver) throw unauthorized();
    if (driver.termsAction !== 'aceite') throw termsNotAccepted();
    req.driver = driver;
  };
}
