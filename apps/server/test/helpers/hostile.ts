import type { Endpoint } from '@portal/contract';
import {
  accountClosureMessages,
  contestMessages,
  driverDataMessages,
  costCentreMessages,
  dualControlMessages,
  fleetMessages,
  freeFlowMessages,
  messages,
  payoutMessages,
  privacyMessages,
  profileMessages,
  proofMessages,
  serverMessages,
  vehicleBudgetMessages,
} from '@portal/domain';
import fc from 'fast-check';
import type { z } from 'zod';

/** Every text of the domain's catalogues (the shared one and the server's); '{x}' placeholders match any text. */
function catalogue(): { exact: Set<string>; templates: RegExp[] } {
  const exact = new Set<string>();
  const templates: RegExp[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (/\{\w+\}/.test(value)) {
        const pattern = value
          .split(/\{\w+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.+');
        templates.push(new RegExp(`^${pattern}$`, 's'));
      } else exact.add(value);
    } else if (typeof value === 'function') {
      // A text with values: each argument stands for any text.
      const fill = value as (...args: string[]) => unknown;
      let text: unknown;
      try {
        text = fill(...Array.from({ length: fill.length }, () => '{x}'));
      } catch {
        return;
      }
      walk(text);
    } else if (typeof value === 'object' && value !== null) {
      for (const v of Object.values(value)) walk(v);
    }
  };
  walk(messages);
  walk(serverMessages);
  walk(payoutMessages);
  walk(profileMessages);
  walk(driverDataMessages);
  walk(accountClosureMessages);
  walk(privacyMessages);
  walk(contestMessages);
  walk(freeFlowMessages);
  walk(proofMessages);
  walk(fleetMessages);
  walk(dualControlMessages);
  walk(costCentreMessages);
  walk(vehicleBudgetMessages);
  return { exact, templates };
}
const known = catalogue();

/** A Mensagem a driver or partner may read: one of the domain's Portuguese texts, never a framework's. */
export function isCatalogueMessage(text: unknown): boolean {
  return typeof text === 'string' && (known.exact.has(text) || known.templates.some((t) => t.test(text)));
}

/** The field names of a contract schema (through refinements, transforms and defaults), nested objects as 'a.b'. */
export function fieldPaths(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const type = def.type as string;
  if (type === 'pipe') return fieldPaths(def.in as z.ZodType);
  if (['optional', 'nullable', 'default', 'catch', 'prefault', 'readonly', 'nonoptional'].includes(type)) {
    return fieldPaths(def.innerType as z.ZodType);
  }
  if (type === 'object') {
    const shape = def.shape as Record<string, z.ZodType>;
    return Object.entries(shape).flatMap(([key, child]) => {
      const nested = fieldPaths(child);
      return nested.length ? [key, ...nested.map((n) => `${key}.${n}`)] : [key];
    });
  }
  return [];
}

export function setPath(target: Record<string, unknown>, path: string, value: unknown | typeof DELETE): Record<string, unknown> {
  const copy = structuredClone(target);
  const keys = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1] ?? '';
  if (value === DELETE) delete node[last];
  else node[last] = value;
  return copy;
}
export const DELETE = Symbol('delete');

const CONTROL = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ud800',
  '\udfff',
];

/** Texts a database, a log line or a screen may choke on. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '   \t ',
    '\u0000',
    'abc\u0000def',
    '%00',
    '\\u0000',
    'null',
    'undefined',
    'NaN',
    'Infinity',
    '-1',
    '0',
    '2147483648',
    '9223372036854775808',
    '1e308',
    '100.005',
    'true',
    '[]',
    '{}',
    "'; drop table drivers; --",
    '" or 1=1 --',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '𝕯𝖗𝖎𝖛𝖊𝖗 🚚',
    'ÁÉÍÓÚ ç ã õ',
    '\u202eRTL',
    'a'.repeat(60_000),
    'Ç'.repeat(20_000),
    '9'.repeat(5_000),
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-03:00',
    '2026-02-30T10:00:00-03:00',
    '+275760-09-13T00:00:00Z',
    '2026-13-01T00:00:00Z',
  ),
  fc.tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...CONTROL), fc.string({ maxLength: 20 })).map(([a, c, b]) => `${a}${c}${b}`),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.nat({ max: 300_000 }).map((n) => 'x'.repeat(n)),
);

/** Numbers past every column's range, fractions of a centavo, negatives, and what JSON turns NaN into. */
const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    0.001,
    0.005,
    100.005,
    99.999,
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    2147483647,
    2147483648,
    -2147483649,
    4294967296,
    9007199254740991,
    Number.MAX_SAFE_INTEGER + 2,
    90071992547409.91,
    21474836.48,
    50_000.01,
    1e15,
    -15.9,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double().map((d) => (Number.isFinite(d) ? d : null) as number),
);

/** Anything JSON can carry. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 4, arbitrary: hostileNumber },
  fc.constantFrom(null, true, false, [], {}, [null], { $gt: '' }, { constructor: { prototype: { admin: true } } }),
  fc.array(hostileString, { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Path parameters as they travel: percent-encoded hostile text, or raw broken encodings. */
export const hostilePathSegment: fc.Arbitrary<string> = fc.oneof(
  hostileString.filter((s) => s.length > 0 && s.length < 10_000).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '\u0000'))),
  fc.constantFrom(
    '%E0%A4%A',
    '%',
    '%zz',
    '%00',
    '%ff%fe',
    '..%2f..%2f',
    '%2e%2e',
    '0',
    '-1',
    '2147483648',
    '99999999999999999999',
    '1.5',
    'NaN',
    '%20',
    '%C0%AE',
  ),
  hostileNumber.map((n) => encodeURIComponent(String(n))),
);

/** What a hostile client does to the whole request rather than one field. */
export type RawBody = { kind: 'json'; value: unknown } | { kind: 'text'; payload: string; contentType: string };

export const hostileRawBody: fc.Arbitrary<RawBody> = fc.oneof(
  hostileValue.map((value) => ({ kind: 'json' as const, value })),
  fc
    .constantFrom(
      '{',
      '{"a":',
      '{"a":1,}',
      "{'a':1}",
      'null',
      '[]',
      '"texto"',
      '1e309',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '\u0000',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
    )
    .map((payload) => ({ kind: 'text' as const, payload, contentType: 'application/json' })),
  fc
    .tuple(
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/json; charset=latin1',
        'application/octet-stream',
      ),
      fc.constantFrom('a=1&b=2', '<a/>', '--x\r\n\r\n--x--', '{"valor":150}', ''),
    )
    .map(([contentType, payload]) => ({ kind: 'text' as const, payload, contentType })),
  fc
    .constantFrom(70_000, 300_000)
    .map((n) => ({ kind: 'text' as const, payload: `{"a":"${'x'.repeat(n)}"}`, contentType: 'application/json' })),
);

/** Hostile query strings for the list calls: page and sort parameters, and extras. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom('page', 'sort', 'direction', 'page[]', 'extra', '__proto__', 'token'),
      fc.oneof(hostilePathSegment, fc.constantFrom('1', '2', 'valor', 'asc', 'desc')),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&'));

/** Endpoint name -> which credentials it needs. */
export function credentialOf(e: Endpoint): 'driver' | 'shipper' | 'operator' | 'platform' | 'concessionaire' | 'webhook' | 'none' {
  if (e.auth) return 'driver';
  if (e.path.startsWith('/api/parceiro/livre-passagem')) return 'concessionaire';
  if (e.path === '/api/parceiro/passagens' || e.path === '/api/parceiro/passagens/lote') return 'operator';
  if (e.path === '/api/parceiro/terceiro/movimentos') return 'platform';
  if (e.path.startsWith('/api/parceiro/vpos')) return 'shipper';
  if (e.path.startsWith('/api/webhooks/')) return 'webhook';
  return 'none';
}
