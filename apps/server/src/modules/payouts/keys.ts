import type { PixKeyType } from '@portal/domain';
import { documentKind, MAX_SAVED_PIX_KEYS, NEW_PIX_KEY_HOURS, normalizePixKey, pixKeyDisplay, stripDocument } from '@portal/domain';
import type { Kysely } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import type { Trx } from '../../db/connection.js';
import { enqueueNotification } from '../notifications/outbox.js';

export interface SavedKey {
  id: number;
  keyType: PixKeyType;
  key: string;
  savedAt: Date;
}

/** The driver's own CPF/CNPJ as a Pix key: a key of that type can only belong to its holder. */
export function ownKey(cpfCnpj: string): { keyType: PixKeyType; key: string } {
  return { keyType: documentKind(cpfCnpj), key: stripDocument(cpfCnpj) };
}

export function isOwnKey(cpfCnpj: string, keyType: PixKeyType, key: string): boolean {
  const own = ownKey(cpfCnpj);
  return own.keyType === keyType && own.key === normalizePixKey(keyType, key);
}

/** When a saved key's first hours (capped) end. */
export function newKeyEnd(saved: SavedKey): Date {
  return new Date(saved.savedAt.getTime() + NEW_PIX_KEY_HOURS * 3_600_000);
}

/** Whether a saved key is still in its first hours (capped), at `now`. */
export function inFirstHours(saved: SavedKey, now: Date): boolean {
  return now.getTime() < newKeyEnd(saved).getTime();
}

type Row = { id: number; key_type: PixKeyType; key: string; created_at: string | Date };
const toKey = (r: Row): SavedKey => ({ id: Number(r.id), keyType: r.key_type, key: r.key, savedAt: new Date(toIso(r.created_at)) });

/** 'Minhas chaves Pix': the keys a driver saved (decision 44), keys already normalised. */
export class PixKeyStore {
  constructor(private readonly db: Kysely<Database>) {}

  async list(driverId: number): Promise<SavedKey[]> {
    const rows = await this.db
      .selectFrom('pix_keys')
      .select(['id', 'key_type', 'key', 'created_at'])
      .where('driver_id', '=', driverId)
      .orderBy('id')
      .execute();
    return rows.map(toKey);
  }

  async find(db: Trx | Kysely<Database>, driverId: number, keyType: PixKeyType, key: string): Promise<SavedKey | null> {
    const row = await db
      .selectFrom('pix_keys')
      .select(['id', 'key_type', 'key', 'created_at'])
      .where('driver_id', '=', driverId)
      .where('key_type', '=', keyType)
      .where('key', '=', key)
      .executeTakeFirst();
    return row ? toKey(row) : null;
  }

  /** Saves the key once (saving it again keeps its first date); 'full' past MAX_SAVED_PIX_KEYS. */
  async save(driverId: number, keyType: PixKeyType, key: string, now: Date): Promise<{ key: SavedKey; created: boolean } | 'full'> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await this.find(trx, driverId, keyType, key);
      if (existing) return { key: existing, created: false };
      const count = await trx
        .selectFrom('pix_keys')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('driver_id', '=', driverId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_SAVED_PIX_KEYS) return 'full';
      // A concurrent save of the same key inserts nothing here: it is the one saved.
      const inserted = await trx
        .insertInto('pix_keys')
        .values({ driver_id: driverId, key_type: keyType, key, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['driver_id', 'key_type', 'key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      const saved = await this.find(trx, driverId, keyType, key);
      if (!saved) throw new Error('chave Pix não gravada');
      // Decision 57: a new key is told to every device at once (someone else may have saved it).
      if (inserted)
        await enqueueNotification(trx, driverId, { kind: 'pixKeySaved', keyId: saved.id, maskedKey: pixKeyDisplay(keyType, key) });
      return { key: saved, created: inserted !== undefined };
    });
  }

  async remove(driverId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('pix_keys').where('id', '=', id).where('driver_id', '=', driverId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Keys saved since `since`, newest first: the dashboard's notices. */
  async savedSince(driverId: number, since: Date): Promise<SavedKey[]> {
    const rows = await this.db
      .selectFrom('pix_keys')
      .select(['id', 'key_type', 'key', 'created_at'])
      .where('driver_id', '=', driverId)
      .where('created_at', '>=', since.toISOString())
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map(toKey);
  }
}
