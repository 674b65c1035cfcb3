import type { PartnerKind } from '@portal/domain';
import type { Db } from '../../db/connection.js';
import { nowIso, toIso } from '../../db/connection.js';
import type { Partner } from './keys.js';
import { newKey, partnerByKey } from './keys.js';

export interface PartnerListing {
  id: number;
  kind: PartnerKind;
  name: string;
  operatorCnpj: string | null;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export type ScopeOutcome = 'scoped' | 'not-found' | 'not-operator' | 'already-scoped';

/**
 * Partners and their API keys (founding architecture §5): created, scoped and revoked by the operator's CLI;
 * only the key's hash is kept (keys.ts). What partners push is in ledger-pushes.ts (passages, movements) and vpo-pushes.ts.
 */
export class PartnerService {
  constructor(private readonly db: Db) {}

  /** An operator key needs its operator's CNPJ (and only operator keys have one). */
  async create(kind: PartnerKind, name: string, operatorCnpj: string | null = null): Promise<{ id: number; key: string }> {
    if ((kind === 'operator') !== (operatorCnpj !== null)) throw new Error('operator_cnpj é obrigatório para operadoras e só para elas');
    const { key, hash, prefix } = newKey();
    const row = await this.db.kysely
      .insertInto('partners')
      .values({
        kind,
        name,
        api_key_hash: hash,
        api_key_prefix: prefix,
        created_at: nowIso(),
        revoked_at: null,
        operator_cnpj: operatorCnpj,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, key };
  }

  /** The partner of that kind and name, created (with a key nobody sees) when missing, scoped when unscoped: demo data. */
  async ensure(kind: PartnerKind, name: string, operatorCnpj: string | null = null): Promise<Partner> {
    const found = await this.db.kysely
      .selectFrom('partners')
      .select('id')
      .where('kind', '=', kind)
      .where('name', '=', name)
      .orderBy('id')
      .executeTakeFirst();
    const id = found?.id ?? (await this.create(kind, name, operatorCnpj)).id;
    if (found && operatorCnpj !== null) await this.scope(found.id, operatorCnpj);
    const partner = await this.byId(id);
    if (!partner) throw new Error(`parceiro ${id} sumiu`);
    return partner;
  }

  /** Binds an operator key created before keys were scoped to its operator; a scoped key keeps its operator. */
  async scope(id: number, operatorCnpj: string): Promise<ScopeOutcome> {
    const partner = await this.byId(id);
    if (!partner) return 'not-found';
    if (partner.kind !== 'operator') return 'not-operator';
    if (partner.operatorCnpj !== null) return partner.operatorCnpj === operatorCnpj ? 'scoped' : 'already-scoped';
    await this.db.kysely
      .updateTable('partners')
      .set({ operator_cnpj: operatorCnpj })
      .where('id', '=', id)
      .where('operator_cnpj', 'is', null)
      .execute();
    const after = await this.byId(id);
    return after?.operatorCnpj === operatorCnpj ? 'scoped' : 'already-scoped';
  }

  async list(): Promise<PartnerListing[]> {
    const rows = await this.db.kysely.selectFrom('partners').selectAll().orderBy('id').execute();
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      name: r.name,
      operatorCnpj: r.operator_cnpj,
      prefix: r.api_key_prefix,
      createdAt: toIso(r.created_at),
      revokedAt: r.revoked_at === null ? null : toIso(r.revoked_at),
    }));
  }

  /** false when there is no such partner; revoking twice keeps the first date. */
  async revoke(id: number): Promise<boolean> {
    const exists = await this.db.kysely.selectFrom('partners').select('id').where('id', '=', id).executeTakeFirst();
    if (!exists) return false;
    await this.db.kysely
      .updateTable('partners')
      .set({ revoked_at: nowIso() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return true;
  }

  /** The partner of an X-Api-Key, or null when unknown or revoked (keys.ts: compared in constant time). */
  byKey(key: string): Promise<Partner | null> {
    return partnerByKey(this.db.kysely, key);
  }

  async byId(id: number): Promise<Partner | null> {
    const row = await this.db.kysely
      .selectFrom('partners')
      .select(['id', 'kind', 'name', 'operator_cnpj'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? { id: row.id, kind: row.kind, name: row.name, operatorCnpj: row.operator_cnpj } : null;
  }
}
