import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './paths.js';
import { startPortal, startProcess, stop, waitForHttp } from './lib.js';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<LoadResult> {
  const result = await autocannon({ url, connections: 10, duration: seconds, headers });
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, non2xx: result.non2xx };
}

/** Authenticated GET /api/motorista/saldo on the real server vs a bare Fastify route, same run. */
export async function benchBalance(seconds = 10) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-'));
  const portalPort = 3201;
  const barePort = 3202;
  // Production settings, request log on: what a driver's request costs in production.
  const portal = startPortal(portalPort, dataDir, 'info');
  const bare = startProcess(path.join(repoRoot, 'node_modules/.bin/tsx'), [path.join(repoRoot, 'bench/bare-server.ts')], {
    PORT: String(barePort),
  });
  try {
    await waitForHttp(`http://127.0.0.1:${portalPort}/api/health`);
    await waitForHttp(`http://127.0.0.1:${barePort}/api/motorista/saldo`);
    const token = await registerDriver(`http://127.0.0.1:${portalPort}`);
    const auth = { authorization: `Bearer ${token}` };
    const portalUrl = `http://127.0.0.1:${portalPort}/api/motorista/saldo`;
    const bareUrl = `http://127.0.0.1:${barePort}/api/motorista/saldo`;
    await load(portalUrl, auth, 2); // warm-up
    await load(bareUrl, {}, 2);
    const bareResult = await load(bareUrl, {}, seconds);
    const portalResult = await load(portalUrl, auth, seconds);
    if (portalResult.non2xx > 0) throw new Error(`${portalResult.non2xx} non-2xx answers from the portal`);
    return { portal: portalResult, bare: bareResult, ratio: portalResult.requestsPerSecond / bareResult.requestsPerSecond };
  } finally {
    await Promise.all([stop(portal), stop(bare)]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function registerDriver(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/user/create-user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Motorista Benchmark',
      cpfCnpj: '11144477735',
      phoneNumber: '+5511987654321',
      password: 'benchmark123',
      password_confirmation: 'benchmark123',
      type: 'driver',
    }),
  });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { Token: string }).Token;
}
