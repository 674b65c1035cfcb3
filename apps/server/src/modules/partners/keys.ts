import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PartnerKind } from '@portal/domain';
import { refuse, serverMessages } from '@portal/domain';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Characters of the key kept in clear for listing ('pm_' and a few more). */
const PREFIX_LENGTH = 10;

export interface Partner {
  id: number;
  kind: PartnerKind;
  name: string;
  /** Operator keys: the only operator whose tags they may charge (null for other kinds, or not yet scoped). */
  operatorCnpj: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    partner: Partner | null;
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('base64url');
}

/** A new key: 32 random bytes, base64url, with a recognisable prefix. Only its hash is stored. */
export function newKey(): { key: string; hash: string; prefix: string } {
  const key = `pm_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashKey(key), prefix: key.slice(0, PREFIX_LENGTH) };
}

/**
 * The partner of a key, or null when unknown or revoked. The lookup is by the key's sha256 (an
 * index hit), and the stored hash is compared in constant time: timing says nothing about the key.
 */
export async function partnerByKey(db: Kysely<Database>, key: string): Promise<Partner | null> {
  const hash = hashKey(key);
  const row = await db
    .selectFrom('partners')
    .select(['id', 'kind', 'name', 'operator_cnpj', 'api_key_hash', 'revoked_at'])
    .where('api_key_hash', '=', hash)
    .executeTakeFirst();
  const expected = Buffer.from(row?.api_key_hash ?? hash, 'utf8');
  const received = Buffer.from(hash, 'utf8');
  const same = expected.length === received.length && timingSafeEqual(expected, received);
  if (!row || !same || row.revoked_at !== null) return null;
  return { id: row.id, kind: row.kind, name: row.name, operatorCnpj: row.operator_cnpj };
}

/**
 * onRequest hook: X-Api-Key -> partner (401 missing, unknown or revoked; 403 another kind, or an
 * operator key created before keys were scoped to one operator). Never logs the key.
 */
export function requirePartner(
  partners: { byKey(key: string): Promise<Partner | null> },
  kind: PartnerKind | readonly PartnerKind[],
): onRequestAsyncHookHandler {
  const kinds: readonly PartnerKind[] = typeof kind === 'string' ? [kind] : kind;
  return async (req: FastifyRequest) => {
    const header = req.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw refuse.unauthenticated(serverMessages.partner.keyMissing);
    const partner = await partners.byKey(key);
    if (!partner) {
      req.log.warn({ ip: req.ip }, 'chave de API de parceiro inválida ou revogada');
      throw refuse.unauthenticated(serverMessages.partner.keyInvalid);
    }
    if (!kinds.includes(partner.kind)) {
      req.log.warn({ partnerId: partner.id, kind: partner.kind, needed: kind }, 'parceiro de outro tipo');
      throw refuse.forbidden(serverMessages.partner.wrongKind);
    }
    if (partner.kind === 'operator' && partner.operatorCnpj === null) {
      req.log.warn({ partnerId: partner.id }, 'chave de operadora sem operadora vinculada');
      throw refuse.forbidden(serverMessages.partner.operatorUnscoped);
    }
    req.partner = partner;
  };
}

/** Declares `req.partner` once, whichever partner routes are registered first. */
export function decoratePartner(app: FastifyInstance): void {
  if (!app.hasRequestDecorator('partner')) app.decorateRequest('partner', null);
}

/** The partner requirePartner found for this request. */
export function partnerOf(req: FastifyRequest): Partner {
  if (!req.partner) throw new Error('requirePartner não executou');
  return req.partner;
}
