/**
 * Decision 70: the closing receipt's link, kept in this tab after the account is closed (every
 * session ended with it) so that /login can say the account was closed and offer the receipt
 * until the link expires, whatever navigation a late 401 makes meanwhile. sessionStorage: it dies
 * with the tab, and clearSession (the account's data) does not touch it. No contract import: /login stays small.
 */
const KEY = 'portal.closedAccountReceipt';

export interface ClosedAccountReceipt {
  /** The receipt's path on the API, valid without a session until expiresAt. */
  url: string;
  expiresAt: string;
}

export function rememberClosedAccount(receipt: ClosedAccountReceipt): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(receipt));
  } catch {
    // Private mode or full: the login page only misses its notice.
  }
}

/** The stored text as it is (a stable snapshot for useSyncExternalStore); null when none or unreadable. */
export function closedAccountSnapshot(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The receipt of an account closed in this tab, while its link still works; null otherwise. */
export function closedAccountReceipt(stored: string | null = closedAccountSnapshot(), now: Date = new Date()): ClosedAccountReceipt | null {
  try {
    const parsed = JSON.parse(stored ?? 'null') as Partial<ClosedAccountReceipt> | null;
    if (typeof parsed?.url !== 'string' || typeof parsed.expiresAt !== 'string') return null;
    if (!parsed.url.startsWith('/api/encerramento/comprovante/')) return null;
    if (Date.parse(parsed.expiresAt) <= now.getTime()) return null;
    return { url: parsed.url, expiresAt: parsed.expiresAt };
  } catch {
    return null;
  }
}
