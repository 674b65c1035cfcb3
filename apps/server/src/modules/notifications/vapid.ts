import { createECDH } from 'node:crypto';
import webpush from 'web-push';
import type { Db } from '../../db/connection.js';
import { nowIso } from '../../db/connection.js';

/** The server's VAPID key pair (RFC 8292), base64url: the public key is what browsers subscribe with. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Why VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not a usable pair, or null: the public key is an
 * uncompressed P-256 point (65 bytes), the private key 32 bytes, and the first is the second's.
 */
export function vapidPairError(
  publicKey: string,
  privateKey: string,
): { variable: 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY'; message: string } | null {
  const generate = 'gere o par com: npx web-push generate-vapid-keys';
  const pub = BASE64URL.test(publicKey) ? Buffer.from(publicKey, 'base64url') : Buffer.alloc(0);
  if (pub.length !== 65 || pub[0] !== 4) {
    return { variable: 'VAPID_PUBLIC_KEY', message: `não é uma chave pública P-256 em base64url (65 bytes); ${generate}` };
  }
  const priv = BASE64URL.test(privateKey) ? Buffer.from(privateKey, 'base64url') : Buffer.alloc(0);
  if (priv.length !== 32)
    return { variable: 'VAPID_PRIVATE_KEY', message: `não é uma chave privada P-256 em base64url (32 bytes); ${generate}` };
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(priv);
    if (!ecdh.getPublicKey().equals(pub)) {
      return { variable: 'VAPID_PRIVATE_KEY', message: `não é a chave privada de VAPID_PUBLIC_KEY; ${generate}` };
    }
  } catch {
    return { variable: 'VAPID_PRIVATE_KEY', message: `não é uma chave privada P-256 válida; ${generate}` };
  }
  return null;
}

/**
 * The VAPID keys of every instance: the environment's (production requires them, config.ts), else
 * a pair generated once and kept in the database (development), so that every instance signs with
 * the key the browsers subscribed to. Read once per process.
 */
export class VapidKeyStore {
  private keys: Promise<VapidKeys> | null = null;

  constructor(
    private readonly db: Db,
    private readonly configured: VapidKeys | null,
  ) {}

  get(): Promise<VapidKeys> {
    if (this.configured) return Promise.resolve(this.configured);
    this.keys ??= this.stored().catch((error: unknown) => {
      this.keys = null;
      throw error;
    });
    return this.keys;
  }

  private async stored(): Promise<VapidKeys> {
    const generated = webpush.generateVAPIDKeys();
    // Two instances starting at once each generate a pair; the first insert wins and both read it.
    await this.db.kysely
      .insertInto('vapid_keys')
      .values({ id: 1, public_key: generated.publicKey, private_key: generated.privateKey, created_at: nowIso() })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const row = await this.db.kysely
      .selectFrom('vapid_keys')
      .select(['public_key', 'private_key'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    return { publicKey: row.public_key, privateKey: row.private_key };
  }
}
