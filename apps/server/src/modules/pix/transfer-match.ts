import type { PixKeyType } from '@portal/domain';
import { normalizePixKey, reaisToCents, stripDocument } from '@portal/domain';
import type { WithdrawalRow } from '../../db/schema.js';

/** A transfer as the provider describes it: what can tie it to one of our withdrawals. */
export interface TransferTerms {
  amountCents: number | null;
  /** The Pix key as the provider reports it; null: not reported. */
  pixKey: string | null;
  /** The key's type, when the provider says it. */
  pixKeyType?: string | null;
  /** PIX, TED...: ours are Pix; absent: not said. */
  operationType?: string | null;
}

/**
 * The transfer is indistinguishable from the one the withdrawal asked for: a Pix of the same value
 * to the same key (of the same type when one is given). A key the provider does not report matches
 * nothing.
 */
export function sameTerms(t: TransferTerms, w: WithdrawalRow): boolean {
  return (t.operationType ?? 'PIX') === 'PIX' && t.amountCents === w.amount_cents && sameKey(t, w);
}

export function sameKey(t: TransferTerms, w: WithdrawalRow): boolean {
  if (t.pixKeyType && t.pixKeyType !== w.pix_key_type) return false;
  return t.pixKey !== null && comparable(w.pix_key_type, t.pixKey) === comparable(w.pix_key_type, w.pix_key);
}

/** Reais as the provider writes them -> centavos; null for a value that is not one. */
export function centsOf(reais: number | null | undefined): number | null {
  if (reais === null || reais === undefined) return null;
  try {
    return reaisToCents(reais);
  } catch {
    return null;
  }
}

/** One spelling per key: documents without punctuation, phones without +55, e-mails and EVPs in lower case. */
function comparable(type: PixKeyType, key: string): string {
  switch (type) {
    case 'CPF':
    case 'CNPJ':
      return stripDocument(key);
    case 'PHONE': {
      const digits = key.replace(/\D/g, '');
      return digits.length === 13 && digits.startsWith('55') ? digits.slice(2) : digits;
    }
    case 'EMAIL':
    case 'EVP':
      return normalizePixKey(type, key);
  }
}
