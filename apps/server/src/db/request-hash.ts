import { createHash } from 'node:crypto';

/**
 * JSON with every object's keys sorted (at every depth), undefined members left out: two requests
 * that parse to the same values give the same text. For a flat record this is exactly
 * JSON.stringify(record, sortedKeys), which partner pushes stored before it was shared.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item: unknown) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object' && !('toJSON' in value)) {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  // Primitives, Dates; NaN and infinities are null, as JSON has them.
  return JSON.stringify(value) ?? 'null';
}

/** sha256 (hex) of the request's canonical JSON: what "the same request" means for a replay. */
export function requestHash(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request), 'utf8').digest('hex');
}
