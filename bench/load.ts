import { writeFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildProcess } from 'node:child_process';
import { openDb } from '../apps/server/src/db/connection.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { PartnerService } from '../apps/server/src/modules/partners/service.js';
import { registerDriver } from './api.js';
import type { BenchDatabase } from './api.js';
import { insertActiveTag } from './app.js';
import { benchWebhookToken, createPostgresDatabase, median, startPortal, startProcess, stop, waitForHttp } from './lib.js';

/** SemParar (src/data/operators.json): its key posts passages for its own active tags. */
const OPERATOR_CNPJ = '90200002000117';
const DRIVERS = 20;
/** Resident memory may grow this much over a run (caches filling, the JIT); more would be a leak. */
export const LOAD_MEMORY_GROWTH_MB = 64;
const PASSWORD = 'benchmark123';
/**
 * The request limits (apps/server/src/config.ts) would throttle a load generator sending
 * everything from 127.0.0.1: raised for the bench. The sign-in throttle per document and the
 * driver's Pix charges per hour and pending at once (issue 21) too.
 */
export const LOAD_NO_LIMITS = {
  REGISTRATION_MAX_PER_ADDRESS: '1000000',
  WEBHOOK_MAX_PER_ADDRESS: '1000000',
  PARTNER_MAX_PER_KEY: '1000000',
  PARTNER_MAX_PER_ADDRESS: '1000000',
  LOGIN_MAX_PER_ADDRESS: '1000000',
  LOGIN_MAX_PER_DOCUMENT_ADDRESS: '1000000',
  LOGIN_DOCUMENT_FREE_ATTEMPTS: '1000000',
  PIX_CHARGES_PER_HOUR: '1000000',
  PIX_CHARGES_PENDING_MAX: '1000000',
};

interface Driver {
  cpfCnpj: string;
  token: string;
  serial: string;
  /** Charges created and not yet paid: the webhook operation pays one. */
  charges: { id: string; valor: number }[];
}

type Operation = 'signIn' | 'balance' | 'statement' | 'tags' | 'vpos' | 'purchase' | 'webhook' | 'passage';

/** A driver's day in proportions: mostly the balance and the lists, a few sign-ins and purchases. */
const MIX: [Operation, number][] = [
  ['balance', 40],
  ['statement', 12],
  ['tags', 6],
  ['vpos', 6],
  ['passage', 20],
  ['purchase', 6],
  ['webhook', 6],
  ['signIn', 4],
];

interface Sample {
  op: Operation;
  ms: number;
  ok: boolean;
}

/** A server under the mixed load: the build (apps/server/dist/main.js) or another `main`, with settings added by `env`. */
export interface LoadVariant {
  label: string;
  main?: string;
  env?: Record<string, string>;
}

/** One variant's servers, database and drivers, ready for load. */
interface Stack {
  variant: LoadVariant;
  base: string;
  ports: number[];
  children: ChildProcess[];
  nginx: ChildProcess | null;
  pgDatabase: { url: string; drop: () => Promise<void> } | null;
  operatorKey: string;
  drivers: Driver[];
}

/**
 * Mixed load on one database: `instances` portals (behind nginx when more than one), `workers`
 * concurrent clients each sending one request at a time, picking operations by MIX. Reports
 * throughput, p50/p99 per operation and overall, errors, and each instance's memory (RSS) after
 * the setup and at the end.
 *
 * With several `variants` (e.g. two builds, or one build with a setting changed), each runs on its
 * own database and servers, all started at once, and the load goes to one at a time in `rounds`
 * (A B, then B A, ...; each variant `seconds` in all, after a warm-up that is not counted), so that
 * whatever else the machine does weighs on all of them alike. Each variant's figures are then
 * compared with the first one's round by round: the median ratio, and the spread of the rounds.
 */
export async function benchMixedLoad(
  seconds: number,
  database: BenchDatabase,
  instances: number,
  options: { variants?: LoadVariant[]; rounds?: number; workers?: number } = {},
) {
  const variants = options.variants?.length ? options.variants : [{ label: 'portal' }];
  const rounds = options.rounds ?? (variants.length > 1 ? 6 : 1);
  const workers = options.workers ?? 10;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-load-'));
  const stacks: Stack[] = [];
  try {
    for (const [i, variant] of variants.entries()) stacks.push(await startStack(dir, database, instances, variant, i));
    const roundSeconds = seconds / rounds;
    if (variants.length > 1) for (const stack of stacks) await drive(stack, workers, Math.min(5, roundSeconds));
    const memoryAtStart = await Promise.all(stacks.map((stack) => Promise.all(stack.children.map((c) => rssMb(c.pid!)))));
    const samples = stacks.map(() => [] as Sample[][]);
    const failures = stacks.map(() => new Map<string, number>());
    for (let round = 0; round < rounds; round++) {
      const order = stacks.map((_, i) => i);
      if (round % 2 === 1) order.reverse();
      for (const i of order) {
        const { samples: roundSamples, failures: roundFailures } = await drive(stacks[i]!, workers, roundSeconds);
        samples[i]!.push(roundSamples);
        for (const [failure, count] of roundFailures) failures[i]!.set(failure, (failures[i]!.get(failure) ?? 0) + count);
      }
    }
    const memoryAtEnd = await Promise.all(stacks.map((stack) => Promise.all(stack.children.map((c) => rssMb(c.pid!)))));
    const results = stacks.map((stack, i) => {
      const all = samples[i]!.flat();
      return {
        label: stack.variant.label,
        requestsPerSecond: Math.round(all.length / seconds),
        ...stats(all),
        byOperation: Object.fromEntries(MIX.map(([op]) => [op, stats(all.filter((s) => s.op === op))])),
        byRound: samples[i]!.map((list) => ({ requestsPerSecond: Math.round(list.length / roundSeconds), ...stats(list) })),
        failures: Object.fromEntries(failures[i]!),
        memoryMb: stack.ports.map((port, k) => ({ port, start: memoryAtStart[i]![k]!, end: memoryAtEnd[i]![k]! })),
      };
    });
    // Each variant against the first, round by round: the median ratio and the range of the rounds.
    const spread = (values: number[]) => ({
      median: round2(median(values)),
      min: round2(Math.min(...values)),
      max: round2(Math.max(...values)),
    });
    const ratios = results.slice(1).map((r) => ({
      label: r.label,
      versus: results[0]!.label,
      requestsPerSecond: spread(r.byRound.map((x, k) => x.requestsPerSecond / results[0]!.byRound[k]!.requestsPerSecond)),
      p50Ms: spread(r.byRound.map((x, k) => x.p50Ms / results[0]!.byRound[k]!.p50Ms)),
      p99Ms: spread(r.byRound.map((x, k) => x.p99Ms / results[0]!.byRound[k]!.p99Ms)),
    }));
    return { database, instances, seconds, rounds, workers, variants: results, ratios };
  } finally {
    for (const stack of stacks) {
      if (stack.nginx) await stop(stack.nginx);
      await Promise.all(stack.children.map((c) => stop(c)));
      await stack.pgDatabase?.drop();
    }
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A database built elsewhere (bench/scale.ts) under the mixed load: its drivers sign in with the
 * load's password and post passages on their own tags (the operator's, OPERATOR_CNPJ); nothing is
 * made or dropped but the operator's key.
 */
export interface ExistingDatabase {
  url: string;
  drivers: { cpfCnpj: string; serial: string }[];
}

/** One window of the mixed load: its throughput and spread, overall and per operation. */
export interface LoadWindow {
  seconds: number;
  requestsPerSecond: number;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  byOperation: Record<string, { requests: number; errors: number; p50Ms: number; p99Ms: number }>;
  failures: Record<string, number>;
}

/** The mixed load's servers on an existing database, driven window by window (drive), until close. */
export interface MixedLoad {
  instances: number;
  workers: number;
  /** `seconds` of load, or as long as `until` takes to settle (at most `seconds`). */
  drive(seconds: number, until?: Promise<unknown>): Promise<LoadWindow>;
  close(): Promise<void>;
}

export async function openMixedLoad(
  existing: ExistingDatabase,
  options: { instances?: number; workers?: number } = {},
): Promise<MixedLoad> {
  const instances = options.instances ?? 2;
  const workers = options.workers ?? 10;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-load-'));
  let stack: Stack;
  try {
    stack = await startStack(dir, 'postgres', instances, { label: 'portal' }, 0, existing);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    instances,
    workers,
    drive: async (seconds, until) => {
      const started = performance.now();
      const { samples, failures } = await drive(stack, workers, seconds, until);
      const elapsed = (performance.now() - started) / 1000;
      return {
        seconds: round1(elapsed),
        requestsPerSecond: Math.round(samples.length / elapsed),
        ...stats(samples),
        byOperation: Object.fromEntries(MIX.map(([op]) => [op, stats(samples.filter((s) => s.op === op))])),
        failures: Object.fromEntries(failures),
      };
    },
    close: async () => {
      if (stack.nginx) await stop(stack.nginx);
      await Promise.all(stack.children.map((c) => stop(c)));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A driver of an existing database signed in: the bearer token. */
async function signIn(base: string, cpfCnpj: string): Promise<string> {
  const response = await fetch(`${base}/api/tokens/login-motorista`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cpfCnpj, password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
  return ((await response.json()) as { Token: string }).Token;
}

/** A variant's database (migrated, with the operator), its servers, and DRIVERS drivers each with a vehicle, an active tag and the terms accepted. */
async function startStack(
  dir: string,
  database: BenchDatabase,
  instances: number,
  variant: LoadVariant,
  index: number,
  existing?: ExistingDatabase,
): Promise<Stack> {
  const pgDatabase = database === 'postgres' && !existing ? await createPostgresDatabase(`portal_bench_load_${index}`) : null;
  const databaseUrl = existing?.url ?? pgDatabase?.url ?? path.join(dir, `portal-${index}.sqlite`);
  const ports = Array.from({ length: instances }, (_, i) => 3211 + index * 10 + i);
  const stack: Stack = {
    variant,
    base: `http://127.0.0.1:${ports[0]}`,
    ports,
    children: [],
    nginx: null,
    pgDatabase,
    operatorKey: '',
    drivers: [],
  };
  const db = openDb(databaseUrl);
  try {
    await migrateToLatest(db);
    stack.operatorKey = (await new PartnerService(db).create('operator', 'Operadora Benchmark', OPERATOR_CNPJ)).key;
    for (const port of ports) {
      const env = { ...LOAD_NO_LIMITS, ...(instances > 1 ? { TRUST_PROXY: '127.0.0.1' } : {}), ...variant.env };
      stack.children.push(startPortal(port, databaseUrl, 'info', env, variant.main));
    }
    for (const port of ports) await waitForHttp(`http://127.0.0.1:${port}/api/health`);
    if (instances > 1) {
      stack.nginx = await startNginx(path.join(dir, `nginx-${index}`), 3210 + index * 10, ports);
      stack.base = `http://127.0.0.1:${3210 + index * 10}`;
      await waitForHttp(`${stack.base}/api/health`);
    }
    if (existing) {
      for (const d of existing.drivers) stack.drivers.push({ ...d, token: await signIn(stack.base, d.cpfCnpj), charges: [] });
      return stack;
    }
    for (let i = 0; i < DRIVERS; i++) {
      const cpfCnpj = cpfOf(100_000_000 + i * 7919);
      const token = await registerDriver(stack.base, cpfCnpj);
      const serial = String(7_000_000_000_000_100 + i);
      await db.kysely.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('drivers').select('id').where('cpf_cnpj', '=', cpfCnpj).executeTakeFirstOrThrow();
        await insertActiveTag(
          trx,
          { id: row.id, document: cpfCnpj },
          { serial, plate: `BEN${i % 10}C${String(i).padStart(2, '0')}`, operatorCnpj: OPERATOR_CNPJ },
        );
      });
      const terms = await fetch(`${stack.base}/api/termos/aceitar`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      if (!terms.ok) throw new Error(`aceitar termos -> ${terms.status}`);
      stack.drivers.push({ cpfCnpj, token, serial, charges: [] });
    }
    return stack;
  } catch (error) {
    if (stack.nginx) await stop(stack.nginx);
    await Promise.all(stack.children.map((c) => stop(c)));
    await pgDatabase?.drop();
    throw error;
  } finally {
    await db.kysely.destroy();
  }
}

let counter = 0;

/**
 * `workers` clients on one stack for `seconds` (or until `until` settles, when given): every
 * request's time and outcome, and the failures by kind.
 */
async function drive(
  stack: Stack,
  workers: number,
  seconds: number,
  until?: Promise<unknown>,
): Promise<{ samples: Sample[]; failures: Map<string, number> }> {
  const { base, drivers, operatorKey } = stack;
  const send = (d: Driver, op: Operation): Promise<Response> => {
    const auth = { authorization: `Bearer ${d.token}` };
    const jsonHeaders = { 'content-type': 'application/json' };
    switch (op) {
      case 'balance':
        return fetch(`${base}/api/motorista/saldo`, { headers: auth });
      case 'statement':
        return fetch(`${base}/api/extrato/listar?page=1`, { headers: { ...auth, 'accept-encoding': 'br, gzip' } });
      case 'tags':
        return fetch(`${base}/api/tag/listar`, { headers: auth });
      case 'vpos':
        return fetch(`${base}/api/pedagio/motoristaVpos`, { headers: auth });
      case 'signIn':
        return fetch(`${base}/api/tokens/login-motorista`, {
          method: 'POST',
          headers: jsonHeaders,
          body: JSON.stringify({ cpfCnpj: d.cpfCnpj, password: PASSWORD }),
        });
      case 'purchase':
        return fetch(`${base}/api/transacoes/gerar-qrcode`, {
          method: 'POST',
          headers: { ...auth, ...jsonHeaders },
          body: JSON.stringify({ valor: 150, cpfCnpj: d.cpfCnpj, project: 'VPO' }),
        });
      case 'webhook': {
        const charge = d.charges.shift()!;
        const body = {
          id: `evt_load_${counter++}`,
          event: 'PAYMENT_RECEIVED',
          payment: { id: `local_${charge.id}`, value: charge.valor, externalReference: charge.id, billingType: 'PIX' },
        };
        return fetch(`${base}/api/webhooks/asaas`, {
          method: 'POST',
          headers: { ...jsonHeaders, 'asaas-access-token': benchWebhookToken },
          body: JSON.stringify(body),
        });
      }
      case 'passage':
        return fetch(`${base}/api/parceiro/passagens`, {
          method: 'POST',
          headers: { ...jsonHeaders, 'x-api-key': operatorKey },
          body: JSON.stringify({
            externalId: `load-${counter++}`,
            serialNumber: d.serial,
            placeName: 'Praça Benchmark',
            value: 1.5,
            occurredAt: new Date().toISOString(),
            is_third: false,
          }),
        });
    }
  };
  const total = MIX.reduce((sum, [, w]) => sum + w, 0);
  const pick = (d: Driver): Operation => {
    let r = Math.random() * total;
    for (const [op, w] of MIX) {
      if ((r -= w) < 0) return op === 'webhook' && d.charges.length === 0 ? 'purchase' : op;
    }
    return 'balance';
  };
  const samples: Sample[] = [];
  const failures = new Map<string, number>();
  const fail = (key: string) => failures.set(key, (failures.get(key) ?? 0) + 1);
  const deadline = Date.now() + seconds * 1000;
  let stopped = false;
  void until?.finally(() => (stopped = true)).catch(() => undefined);
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let n = 0; Date.now() < deadline && !stopped; n++) {
        const d = drivers[(w + n * workers) % drivers.length]!;
        const op = pick(d);
        const started = performance.now();
        let ok = false;
        try {
          const res = await send(d, op);
          const text = await res.text();
          ok = res.ok;
          if (ok && op === 'purchase') {
            const { qrCode } = JSON.parse(text) as { qrCode: { id: string; valor: number } };
            d.charges.push({ id: qrCode.id, valor: qrCode.valor });
          }
          if (!ok) fail(`${op} ${res.status} ${text.slice(0, 120)}`);
        } catch (error) {
          fail(`${op} ${String(error)}`);
        }
        samples.push({ op, ms: performance.now() - started, ok });
      }
    }),
  );
  return { samples, failures };
}

function stats(list: Sample[]) {
  return {
    requests: list.length,
    errors: list.filter((s) => !s.ok).length,
    p50Ms: round1(percentile(list, 0.5)),
    p99Ms: round1(percentile(list, 0.99)),
  };
}

function percentile(samples: Sample[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return p === 0.5 ? median(sorted) : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round2 = (value: number) => Math.round(value * 100) / 100;

/** Resident memory of a process, in MB (Linux /proc). */
async function rssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** A valid CPF from a 9-digit base (check digits computed). */
function cpfOf(base: number): string {
  const digits = String(base).padStart(9, '0').split('').map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}

/** Plain-HTTP nginx in front of the instances, as docs/nginx/portal.conf does it (without TLS). */
async function startNginx(dir: string, port: number, upstreams: number[]): Promise<ChildProcess> {
  const prefix = path.join(dir, 'nginx');
  await mkdir(path.join(prefix, 'logs'), { recursive: true });
  const conf = path.join(prefix, 'nginx.conf');
  await writeFile(
    conf,
    `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi; uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  upstream portal {
${upstreams.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://portal;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Request-Id $request_id;
      proxy_next_upstream error timeout;
    }
  }
}
`,
  );
  const child = startProcess('nginx', ['-p', prefix, '-c', conf, '-g', 'daemon off;'], {});
  await sleep(300);
  return child;
}
