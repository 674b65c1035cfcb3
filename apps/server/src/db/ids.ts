import { randomBytes } from 'node:crypto';

/** 'chg_' + 20 hex characters (80 random bits): unguessable, and a valid BR Code txid once the '_' goes. */
export function newId(prefix: 'chg' | 'wd'): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}
