import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from './connection.js';
import { nowIso } from './connection.js';

/**
 * Decision 76: a secret the portal makes for itself on first need and keeps in the database, so
 * that every instance signs and checks with the same one (the proofs' verification codes, the
 * keyed hashes of what a concessionaire sent for a plate that is no driver's). Read once per process.
 */
export class SigningKeys {
  private readonly keys = new Map<string, Promise<Buffer>>();

  constructor(private readonly db: Db) {}

  /** HMAC-SHA256 of `text` under the named key, base64url, cut to `length` characters. */
  async sign(name: string, text: string, length = 43): Promise<string> {
    const key = await this.key(name);
    return createHmac('sha256', key).update(text, 'utf8').digest('base64url').slice(0, length);
  }

  /** Whether `signature` is sign(name, text) of the same length, compared in constant time. */
  async verify(name: string, text: string, signature: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(name, text, signature.length), 'utf8');
    const received = Buffer.from(signature, 'utf8');
    return signature.length >= 16 && expected.length === received.length && timingSafeEqual(expected, received);
  }

  private key(name: string): Promise<Buffer> {
    let key = this.keys.get(name);
    if (!key) {
      key = this.stored(name).catch((error: unknown) => {
        this.keys.delete(name);
        throw error;
      });
      this.keys.set(name, key);
    }
    return key;
  }

  /** The stored key, or a new one; two instances making one at once keep the first written. */
  private async stored(name: string): Promise<Buffer> {
    await this.db.kysely
      .insertInto('signing_keys')
      .values({ name, secret: randomBytes(32).toString('base64url'), created_at: nowIso() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.db.kysely.selectFrom('signing_keys').select('secret').where('name', '=', name).executeTakeFirstOrThrow();
    return Buffer.from(row.secret, 'base64url');
  }
}
