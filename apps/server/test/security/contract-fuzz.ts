import { api, buildPath } from '@portal/contract';
import type { Endpoint } from '@portal/contract';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { SessionStore } from '../../src/modules/auth/sessions.js';
import { newCpf, useTestApp } from '../helpers/app.js';
import type { Dialect } from '../../src/db/connection.js';
import { describeOneDatabase } from '../helpers/databases.js';
import type { DatabaseWatch } from '../helpers/db-watch.js';
import { watchDatabase } from '../helpers/db-watch.js';
import type { RawBody } from '../helpers/hostile.js';
import {
  credentialOf,
  DELETE,
  fieldPaths,
  hostilePathSegment,
  hostileQuery,
  hostileRawBody,
  hostileValue,
  isCatalogueMessage,
  setPath,
} from '../helpers/hostile.js';
import { expectLedgerInvariant, TRANSFER_VALIDATION_TOKEN, WEBHOOK_TOKEN } from '../helpers/pix.js';
import type { World } from '../helpers/world.js';
import { buildWorld, validRequest } from '../helpers/world.js';

/**
 * Issue 8: for every call of the contract, hostile requests — wrong types, missing and extra
 * fields, control characters and unicode, huge and empty strings, negative, fractional and
 * enormous numbers, out-of-range ids, impossible dates, another driver's identifiers, malformed
 * JSON, wrong content types, oversized bodies. Never a 5xx, always a Mensagem of the domain's
 * Portuguese catalogue, and a refused request writes nothing (a row trigger on every table counts
 * writes; a full snapshot checks the triggers now and then).
 */
// 200 random requests per call and database, new ones each run (FUZZ_RUNS=5000 for a deeper night
// run). At 500 the two files held a fifth of the unit phase: 402 of 1,790 s over the files.
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
// The full reads check the triggers themselves, which every request uses: 111 times per database
// a run (111 calls). Every 50th request they took about half the fuzzers' time, alone on this 2-core
// machine: PostgreSQL 279.7 -> 148.5 s, SQLite 135.6 -> 83.2 s.
const SNAPSHOT_EVERY = 200;

type Name = keyof typeof api;

/** Another driver's identifiers: the fuzzer puts them anywhere. */
function othersIdentifiers(w: World): unknown[] {
  const { b } = w;
  return [
    b.cpfCnpj,
    b.id,
    b.active.serial,
    b.active.plate,
    b.active.vehicleId,
    b.inactive.serial,
    b.inactive.vehicleId,
    b.pendingChargeId,
    b.vpoExternalId,
    b.automaticId,
    b.tollId,
    b.paidTollId,
    b.tollExternalId,
    b.proofCode,
    newCpf(),
  ];
}

type Mutation =
  | { kind: 'fields'; changes: [string, unknown][] }
  | { kind: 'raw'; body: RawBody }
  | { kind: 'params'; segment: string }
  | { kind: 'query'; query: string };

function mutations(e: Endpoint, w: World): fc.Arbitrary<Mutation> {
  const paths = [...fieldPaths(e.body), '__extra__', 'Sucesso'];
  const value = fc.oneof(
    { weight: 6, arbitrary: hostileValue },
    { weight: 1, arbitrary: fc.constant<unknown>(DELETE) },
    { weight: 2, arbitrary: fc.constantFrom(...othersIdentifiers(w)) },
  );
  const options: fc.Arbitrary<Mutation>[] = [
    fc
      .array(fc.tuple(fc.constantFrom(...paths), value), { minLength: 1, maxLength: 3 })
      .map((changes) => ({ kind: 'fields' as const, changes })),
    hostileRawBody.map((body) => ({ kind: 'raw' as const, body })),
  ];
  if (e.params) {
    options.push(hostilePathSegment.map((segment) => ({ kind: 'params' as const, segment })));
    options.push(
      fc.constantFrom(...othersIdentifiers(w)).map((v) => ({ kind: 'params' as const, segment: encodeURIComponent(String(v)) })),
    );
  }
  if (e.query || e.method === 'GET') options.push(hostileQuery.map((query) => ({ kind: 'query' as const, query })));
  return fc.oneof(...options);
}

function credentials(e: Endpoint, w: World, token: string): Record<string, string> {
  switch (credentialOf(e)) {
    case 'driver':
      return { authorization: `Bearer ${token}` };
    case 'webhook':
      return { 'asaas-access-token': e.path === api.asaasTransferValidation.path ? TRANSFER_VALIDATION_TOKEN : WEBHOOK_TOKEN };
    case 'shipper':
    case 'operator':
    case 'platform':
    case 'concessionaire':
      return { 'x-api-key': w.keys[credentialOf(e) as keyof World['keys']] };
    default:
      return {};
  }
}

/**
 * The public verification of a proof counts its calls per client address (60 in 10 minutes,
 * modules/receipts/proof-route.ts): each of its attempts comes from an address of its own, so that
 * what the fuzzer sends reaches the verification rather than the limit's 429.
 */
let addresses = 0;
function clientAddress(name: Name): { remoteAddress?: string } {
  if (name !== 'verifyProof') return {};
  addresses += 1;
  return { remoteAddress: `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}` };
}

function requestOf(e: Endpoint, name: Name, w: World, token: string, m: Mutation): InjectOptions {
  const valid = validRequest(name, w);
  const headers = credentials(e, w, token);
  let url = buildPath(e.path, valid.params ?? {});
  if (m.kind === 'params') {
    const lastParam = /:([A-Za-z]+)$/.exec(e.path);
    if (lastParam) url = e.path.replace(/:[A-Za-z]+$/, m.segment);
  }
  const query = m.kind === 'query' ? m.query : valid.query;
  if (query) url = `${url}?${query}`;
  const options: InjectOptions = { method: e.method, url, headers, ...clientAddress(name) };
  if (m.kind === 'raw') {
    if (m.body.kind === 'json') options.payload = JSON.stringify(m.body.value) ?? 'null';
    else options.payload = m.body.payload;
    options.headers = { ...headers, 'content-type': m.body.kind === 'json' ? 'application/json' : m.body.contentType };
  } else if (m.kind === 'fields') {
    let body: Record<string, unknown> = valid.body ?? {};
    for (const [path, v] of m.changes) body = setPath(body, path, v);
    options.payload = JSON.stringify(body);
    options.headers = { ...headers, 'content-type': 'application/json' };
  } else if (valid.body) {
    options.payload = JSON.stringify(valid.body);
    options.headers = { ...headers, 'content-type': 'application/json' };
  }
  return options;
}

/** What every answer must look like, whatever was sent. */
function expectSafeAnswer(status: number, raw: string, what: string): { Sucesso?: unknown; Mensagem?: unknown } | null {
  expect(status, `${what} -> ${status} ${raw.slice(0, 300)}`).toBeLessThan(500);
  if (status === 302) return null;
  let body: { Sucesso?: unknown; Mensagem?: unknown };
  try {
    body = JSON.parse(raw) as typeof body;
  } catch {
    throw new Error(`${what} -> ${status}: resposta não é JSON: ${raw.slice(0, 200)}`);
  }
  if (status >= 400 || 'Mensagem' in body) {
    expect(isCatalogueMessage(body.Mensagem), `${what} -> ${status}: Mensagem fora do catálogo: ${JSON.stringify(body.Mensagem)}`).toBe(
      true,
    );
  }
  if (status >= 400) expect(body.Sucesso, `${what} -> ${status}`).toBe(false);
  return body;
}

/**
 * The suite for one database; contract-fuzz.<dialect>.test.ts run it, so that the two databases'
 * runs are two test files, which Vitest runs side by side (one per core) instead of one after the other.
 */
export function contractFuzz(dialect: Dialect): void {
  describeOneDatabase('requisições hostis, geradas do contrato', dialect, () => {
    const ctx = useTestApp(dialect, {
      // The limits have their own tests; here they would only hide the validation behind a 429.
      LOGIN_MAX_PER_DOCUMENT_ADDRESS: '1000000',
      LOGIN_MAX_PER_ADDRESS: '1000000',
      LOGIN_DOCUMENT_FREE_ATTEMPTS: '1000000',
    });
    let world: World;
    let watch: DatabaseWatch;
    let sessions: SessionStore;
    let requests = 0;

    beforeAll(async () => {
      world = await buildWorld(ctx().app, ctx().db);
      watch = await watchDatabase(ctx().db);
      sessions = new SessionStore(ctx().db.kysely, 1);
    });

    const names = Object.keys(api) as Name[];
    it('every call with a body, a path or a query has a well-formed request for the fuzzer to mutate', () => {
      const missing = names.filter((n) => {
        const e = api[n] as Endpoint;
        const valid = validRequest(n, world);
        return (e.body && !valid.body) || (e.params && !valid.params) || (e.query && !valid.query);
      });
      expect(missing).toEqual([]);
    });

    it.each(names)(
      '%s: never a 5xx, always the catalogue, nothing written when refused',
      async (name) => {
        const e = api[name] as Endpoint;
        const { app, db } = ctx();
        await fc.assert(
          fc.asyncProperty(mutations(e, world), async (m) => {
            // Sair revokes the session it is called with: each attempt gets its own.
            const token = name === 'logout' ? await sessions.create(db.kysely, world.a.id) : world.a.token;
            const request = requestOf(e, name, world, token, m);
            // Now and then every table is read before and after, byte for byte: the triggers' check.
            const deep = ++requests % SNAPSHOT_EVERY === 0 ? await watch.snapshot() : null;
            const before = await watch.changes();
            const res = await app.inject(request);
            const what = `${request.method} ${String(request.url).slice(0, 200)} ${String(request.payload ?? '').slice(0, 300)}`;
            // A file call's success is the file (issue 12: exports, receipts); its refusals are the JSON envelope.
            if (e.file && res.statusCode < 300) expect(e.file.contentTypes, what).toContain(res.headers['content-type']);
            else expectSafeAnswer(res.statusCode, res.body, what);
            if (res.statusCode >= 400) {
              expect(await watch.changes(), `${what} -> ${res.statusCode} alterou o banco`).toBe(before);
              if (deep !== null) expect(await watch.snapshot(), `${what} -> ${res.statusCode} alterou o banco`).toBe(deep);
            }
          }),
          { numRuns: RUNS },
        );
        await expectLedgerInvariant(db);
      },
      300_000,
    );

    it('the full reads compared refused requests, and the ledger still balances', async () => {
      expect(requests).toBeGreaterThanOrEqual(SNAPSHOT_EVERY);
      await expectLedgerInvariant(ctx().db);
    });
  });
}
