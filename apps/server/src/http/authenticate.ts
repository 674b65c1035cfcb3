import { ACTING_ACCOUNT_HEADER, actingRoleLabel, fleetMessages, roleAllows } from '@portal/domain';
import type { Capability } from '@portal/domain';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { accountAccessEnded, HttpError, termsNotAccepted, unauthorized } from './errors.js';
import type { SessionDriver, SessionLookup, SessionStore } from '../modules/auth/sessions.js';
import type { Acting, FleetAccess } from '../modules/fleet/access.js';
import { actingOnOwn } from '../modules/fleet/access.js';
import type { AuditLog } from '../modules/fleet/audit.js';

/**
 * The account a call acts on (modules/auth/sessions.ts): the bearer token's person, or the company
 * they chose in the X-Conta header (decision 77). Every service reads `driver.id` as the account.
 */
export type AuthedDriver = SessionDriver;

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionStore;
    fleetAccess: FleetAccess;
    audit: AuditLog;
  }
  interface FastifyRequest {
    driver: AuthedDriver | null;
    /** Who acts on `driver`'s account, and in which role. */
    acting: Acting | null;
  }
}

function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

const ACTING_HEADER = ACTING_ACCOUNT_HEADER.toLowerCase();

/** The account named in X-Conta, or null when the call acts on the person's own (no header, or their own id). */
function chosenAccount(req: FastifyRequest, personId: number): number | 'invalid' | null {
  const value = req.headers[ACTING_HEADER];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value.trim())) return 'invalid';
  const id = Number(value.trim());
  return id === personId ? null : id;
}

/**
 * Decision 77, the one place a call's account and role are decided: the person's own account, or a
 * company they are an active member of (read on every call, so a removal ends access at once), and
 * the role's permission for the call's capability (domain roleAllows). A 'self' call always acts on
 * the person. A refusal by role is recorded on the company's trail.
 */
async function actOn(req: FastifyRequest, person: SessionDriver, capability: Capability): Promise<void> {
  const chosen = capability === 'self' ? null : chosenAccount(req, person.id);
  if (chosen === null) {
    req.driver = person;
    req.acting = actingOnOwn(person);
    return;
  }
  const resolved = chosen === 'invalid' ? null : await req.server.fleetAccess.resolve(person, chosen);
  if (!resolved) throw accountAccessEnded();
  req.driver = { ...person, id: resolved.account.id, name: resolved.account.name, cpfCnpj: resolved.account.cpfCnpj };
  req.acting = resolved.acting;
  if (!roleAllows(resolved.acting.role, capability)) {
    await req.server.audit.record(resolved.account.id, resolved.acting, {
      action: req.routeOptions.schema?.summary ?? `${req.method} ${req.routeOptions.url ?? ''}`,
      outcome: 'negado',
      address: req.ip,
    });
    throw new HttpError(403, fleetMessages.roleForbidden(actingRoleLabel(resolved.acting.role)));
  }
}

/**
 * onRequest hook of every driver call: runs before the body is even parsed, so no token -> 401.
 * The person comes from the app's session store, or from a call's own lookup (which reads more in
 * the same statement: the balance call); then the account and role (actOn).
 */
export function requireDriver(capability: Capability, lookup?: SessionLookup): onRequestAsyncHookHandler {
  return async (req) => {
    const token = bearerToken(req);
    const driver = token ? await (lookup ?? req.server.sessions.resolve)(token) : null;
    if (!driver) throw unauthorized();
    await actOn(req, driver, capability);
  };
}

/**
 * onRequest hook of a call the contract marks requiresTerms (founding decision 27): requireDriver, with the
 * person's decision on the current terms read in the session's own statement; without an
 * acceptance, 403 TERMS_NOT_ACCEPTED, before the body is parsed or an Idempotency-Key is kept.
 */
export function requireDriverWithTerms(capability: Capability): onRequestAsyncHookHandler {
  return async (req) => {
    const token = bearerToken(req);
    const driver = token ? await req.server.sessions.resolveWithTerms(token) : null;
    if (!driver) throw unauthorized();
    if (driver.termsAction !== 'aceite') throw termsNotAccepted();
    await actOn(req, driver, capability);
  };
}
