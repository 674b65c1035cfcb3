import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './paths.js';
import { createPostgresDatabase, median, startPortal, startProcess, stop, waitForHttp } from './lib.js';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<LoadResult> {
  const result = await autocannon({ url, connections: 10, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, non2xx: result.non2xx };
}

export type BenchDatabase = 'sqlite' | 'postgres';

interface Target {
  name: 'constant' | 'byHand' | 'health' | 'portal' | 'portalNoLog';
  url: string;
  headers: Record<string, string>;
}

/**
 * The hot path, three servers as separate processes on one database, measured in turns (the load
 * generator is the only thing they share): a bare Fastify route returning a constant, a bare
 * Fastify route doing the balance call's work by hand, and the portal (GET /api/health and the
 * authenticated GET /api/motorista/saldo, and the latter once more with its request log line off).
 * Each figure is the median of `rounds` turns; the ratio portal / by hand is the median of each turn's ratio.
 */
export async function benchHotPath(seconds = 3, rounds = 5, database: BenchDatabase = 'sqlite') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-'));
  const pgDatabase = database === 'postgres' ? await createPostgresDatabase('portal_bench_api') : null;
  const databaseUrl = pgDatabase?.url ?? path.join(dataDir, 'portal.sqlite');
  const [portalPort, constantPort, byHandPort, quietPort] = [3201, 3202, 3203, 3204];
  // Production settings, request log on: what a driver's request costs in production.
  const portal = startPortal(portalPort, databaseUrl, 'info');
  // The same portal with LOG_LEVEL=warn: the difference is what the request's log line costs.
  let quiet: ReturnType<typeof startProcess> | null = null;
  const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
  const bareServer = path.join(repoRoot, 'bench/bare-server.ts');
  const constant = startProcess(tsx, [bareServer], { PORT: String(constantPort), BARE_MODE: 'constant' });
  let byHand: ReturnType<typeof startProcess> | null = null;
  try {
    await waitForHttp(`http://127.0.0.1:${portalPort}/api/health`);
    // Started after the portal migrated the database it reads.
    byHand = startProcess(tsx, [bareServer], { PORT: String(byHandPort), BARE_MODE: 'by-hand', DATABASE_URL: databaseUrl });
    quiet = startPortal(quietPort, databaseUrl, 'warn');
    await waitForHttp(`http://127.0.0.1:${quietPort}/api/health`);
    await waitForHttp(`http://127.0.0.1:${constantPort}/api/motorista/saldo`);
    const token = await registerDriver(`http://127.0.0.1:${portalPort}`);
    const auth = { authorization: `Bearer ${token}` };
    await waitForHttp(`http://127.0.0.1:${byHandPort}/api/motorista/saldo`, 30_000, auth);
    const targets: Target[] = [
      { name: 'constant', url: `http://127.0.0.1:${constantPort}/api/motorista/saldo`, headers: {} },
      { name: 'byHand', url: `http://127.0.0.1:${byHandPort}/api/motorista/saldo`, headers: auth },
      { name: 'health', url: `http://127.0.0.1:${portalPort}/api/health`, headers: {} },
      { name: 'portal', url: `http://127.0.0.1:${portalPort}/api/motorista/saldo`, headers: auth },
      { name: 'portalNoLog', url: `http://127.0.0.1:${quietPort}/api/motorista/saldo`, headers: auth },
    ];
    await sameAnswer(targets[1]!, targets[3]!);
    for (const t of targets) await load(t.url, t.headers, 2); // warm-up
    const runs: Record<Target['name'], LoadResult[]> = { constant: [], byHand: [], health: [], portal: [], portalNoLog: [] };
    for (let round = 0; round < rounds; round++) {
      for (const t of targets) runs[t.name].push(await load(t.url, t.headers, seconds));
    }
    const summary = (results: LoadResult[]) => ({
      requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
      p99Ms: median(results.map((r) => r.p99Ms)),
      runs: results.map((r) => Math.round(r.requestsPerSecond)),
    });
    const result = {
      database,
      constant: summary(runs.constant),
      byHand: summary(runs.byHand),
      health: summary(runs.health),
      portal: summary(runs.portal),
      portalNoLog: summary(runs.portalNoLog),
    };
    // Each turn's ratio compares two measurements taken seconds apart: steadier than a ratio of medians
    // when something else on the machine comes and goes.
    const ratios = runs.portal.map((p, i) => p.requestsPerSecond / runs.byHand[i]!.requestsPerSecond);
    return { ...result, ratio: median(ratios), ratios: ratios.map((r) => Math.round(r * 100) / 100) };
  } finally {
    await Promise.all([portal, constant, byHand, quiet].flatMap((child) => (child ? [stop(child)] : [])));
    await pgDatabase?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The baseline must do the same work: same status, same body, byte for byte. */
async function sameAnswer(byHand: Target, portal: Target): Promise<void> {
  const [a, b] = await Promise.all([byHand, portal].map(async (t) => (await fetch(t.url, { headers: t.headers })).text()));
  if (a !== b) throw new Error(`the by-hand baseline answers ${a}, the portal ${b}`);
}

export async function registerDriver(baseUrl: string, cpfCnpj = '11144477735'): Promise<string> {
  const response = await fetch(`${baseUrl}/api/user/create-user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Motorista Benchmark',
      cpfCnpj,
      phoneNumber: '+5511987654321',
      password: 'benchmark123',
      password_confirmation: 'benchmark123',
      type: 'driver',
    }),
  });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { Token: string }).Token;
}
