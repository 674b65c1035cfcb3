/**
 * PostgreSQL gives up on a deadlock or a serialization failure, SQLite on a write over a snapshot
 * another process moved: a transaction that meets one is rolled back whole and can run again.
 */
const RETRYABLE_CODES = new Set(['40P01', '40001', 'SQLITE_BUSY_SNAPSHOT']);

export function isRetryableTransactionError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && RETRYABLE_CODES.has(String((error as { code?: unknown }).code));
}
