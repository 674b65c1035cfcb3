// npm run bench [-- api|web|ledger|partners ...]: builds first (root script), then measures side by side in one run.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { benchBalance } from './api.js';
import { benchLedger } from './ledger.js';
import { benchPartners } from './partners.js';
import { repoRoot } from './paths.js';
import { benchLoginPage } from './web.js';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(2)} ms`;
const wanted = new Set(process.argv.slice(2).length ? process.argv.slice(2) : ['api', 'web', 'ledger', 'partners']);
const results: Record<string, unknown> = {};

if (wanted.has('api')) {
  const balance = await benchBalance(Number(process.env.BENCH_SECONDS ?? 10));
  results.balance = balance;
  console.log('\nGET /api/motorista/saldo (authenticated) vs bare Fastify route, autocannon 10 connections');
  console.log(`  portal: ${balance.portal.requestsPerSecond.toFixed(0)} req/s, p99 ${balance.portal.p99Ms} ms`);
  console.log(`  bare:   ${balance.bare.requestsPerSecond.toFixed(0)} req/s, p99 ${balance.bare.p99Ms} ms`);
  console.log(`  ratio:  ${balance.ratio.toFixed(2)} (target >= 0.5)`);
}

if (wanted.has('web')) {
  const login = await benchLoginPage(Number(process.env.BENCH_LCP_RUNS ?? 5));
  results.login = login;
  console.log('\n/login route: document, JavaScript and CSS (gzip -9)');
  for (const a of [...login.document, ...login.scripts, ...login.styles]) console.log(`  ${a.url}: ${kb(a.gzipBytes)}`);
  console.log(`  total, the HTML with its inlined CSS included: ${kb(login.totalGzipBytes)} (target <= 170 KB)`);
  console.log('\n/login Largest Contentful Paint, 4x CPU slowdown, Slow 4G, 360x800');
  console.log(`  runs: ${login.lcpMs.map((v) => v.toFixed(0)).join(', ')} ms`);
  console.log(`  median: ${login.medianLcpMs.toFixed(0)} ms (target < 2500 ms)`);
}

if (wanted.has('ledger')) {
  const ledger = await benchLedger(Number(process.env.BENCH_STATEMENT_ENTRIES ?? 1_000_000));
  results.ledger = ledger;
  console.log('\nLedger on SQLite, one movement a transaction');
  console.log(`  ledger.post: ${ledger.ledgerOpsPerSecond.toFixed(0)} ops/s`);
  console.log(`  raw SQL (insert + update): ${ledger.rawSqlOpsPerSecond.toFixed(0)} ops/s`);
  console.log(`  ratio: ${ledger.ratio.toFixed(2)}`);
  console.log(`\nGET /api/extrato/listar, one driver with ${ledger.entries} entries (${ledger.totalPages} pages; filled in ${ledger.fillSeconds.toFixed(0)} s)`);
  for (const s of ledger.statement) console.log(`  page ${s.page}: median ${ms(s.medianMs)}, p95 ${ms(s.p95Ms)}`);
  console.log(`  GET /api/motorista/saldo, same app: median ${ms(ledger.balanceMedianMs)}`);
  console.log('  targets: page 1 under 5 ms, no page over 50 ms');
}

if (wanted.has('partners')) {
  const partners = await benchPartners(Number(process.env.BENCH_VPOS ?? 100_000), Number(process.env.BENCH_PASSAGES ?? 3000));
  results.partners = partners;
  console.log('\nPartner API on SQLite, app.inject, one request at a time');
  console.log(`  POST /api/parceiro/passagens (key check + ledger post): ${partners.passagesPerSecond.toFixed(0)} req/s over ${partners.passages} passages`);
  console.log(`  GET /api/health, same app: ${partners.healthPerSecond.toFixed(0)} req/s (ratio ${partners.ratio.toFixed(2)})`);
  console.log(`\nGET /api/pedagio/motoristaVpos, one driver with ${partners.vpos} VPOs (filled in ${partners.fillSeconds.toFixed(0)} s), median`);
  for (const l of partners.listing) console.log(`  ${l.sort} ${l.direction} page ${l.page}: ${ms(l.medianMs)}`);
  console.log(`  worst median: ${ms(partners.worstMedianMs)} (target < 20 ms each)`);
}

const resultsDir = path.join(repoRoot, 'bench', 'results');
await mkdir(resultsDir, { recursive: true });
await writeFile(path.join(resultsDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(results, null, 2));
