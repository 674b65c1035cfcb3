// npm run bench: builds first (root script), then measures side by side in one run.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { benchBalance } from './api.js';
import { repoRoot } from './paths.js';
import { benchLoginPage } from './web.js';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const balance = await benchBalance(Number(process.env.BENCH_SECONDS ?? 10));
console.log('\nGET /api/motorista/saldo (authenticated) vs bare Fastify route, autocannon 10 connections');
console.log(`  portal: ${balance.portal.requestsPerSecond.toFixed(0)} req/s, p99 ${balance.portal.p99Ms} ms`);
console.log(`  bare:   ${balance.bare.requestsPerSecond.toFixed(0)} req/s, p99 ${balance.bare.p99Ms} ms`);
console.log(`  ratio:  ${balance.ratio.toFixed(2)} (target >= 0.5)`);

const login = await benchLoginPage(Number(process.env.BENCH_LCP_RUNS ?? 5));
console.log('\n/login route assets (gzip -9)');
for (const a of [...login.scripts, ...login.styles]) console.log(`  ${a.url}: ${kb(a.gzipBytes)}`);
console.log(`  total: ${kb(login.totalGzipBytes)} (target <= 170 KB)`);
console.log(`\n/login Largest Contentful Paint, 4x CPU slowdown, Slow 4G, 360x800`);
console.log(`  runs: ${login.lcpMs.map((v) => v.toFixed(0)).join(', ')} ms`);
console.log(`  median: ${login.medianLcpMs.toFixed(0)} ms (target < 2500 ms)`);

const resultsDir = path.join(repoRoot, 'bench', 'results');
await mkdir(resultsDir, { recursive: true });
await writeFile(
  path.join(resultsDir, `foundation-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
  JSON.stringify({ balance, login }, null, 2),
);
