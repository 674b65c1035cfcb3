import { randomBytes } from 'node:crypto';

/**
 * 'chg_' + 20 hex characters (80 random bits): unguessable, and a valid BR Code txid once the '_' goes.
 * 'pxa': a Pix Automático authorization (decision 58; its id is also Asaas's contractId, at most 35).
 */
export function newId(prefix: 'chg' | 'wd' | 'pxa'): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}
