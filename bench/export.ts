import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { STATEMENT_ORIGINS } from '@portal/domain';
import { accountId, post } from '../apps/server/src/modules/ledger/ledger.js';
import { openBenchApp } from './app.js';
import { median, startPortal, stop, waitForHttp } from './lib.js';

export interface ExportRun {
  /** The statement as CSV or PDF, or 'zip': 'Meus dados', everything the portal holds about the driver (issue 35). */
  format: 'csv' | 'pdf' | 'zip';
  encoding: 'identity' | 'gzip';
  seconds: number;
  bytes: number;
  /** The largest resident set the server process had while it answered (sampled every 10 ms). */
  peakRssMb: number;
  /** peakRssMb minus the resident set just before the request. */
  growthMb: number;
}

export interface ExportBenchResult {
  entries: number;
  fillSeconds: number;
  /** The server's resident set after start and one small request: the baseline. */
  baselineRssMb: number;
  /** GET /api/extrato/listar, page 1 of November's passages (period and kind filters), median of 50, for scale. */
  statementPageMs: number;
  runs: ExportRun[];
}

const PORT = Number(process.env.BENCH_EXPORT_PORT ?? 3491);

async function rssKb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return m ? Number(m[1]) : 0;
}

const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

/**
 * 100,000 entries for one driver on SQLite (through the ledger, 5,000 a transaction: driver_seq
 * and balances as the services keep them), then the built server exports them over HTTP as CSV
 * (plain and gzip) and PDF, and 'Meus dados' as its ZIP (issue 35: under 10 s), while the
 * server's resident memory is sampled: the time of each and the peak against the resident set before it.
 */
export async function benchExport(entries: number): Promise<ExportBenchResult> {
  const bench = await openBenchApp('export');
  let server: ReturnType<typeof startPortal> | null = null;
  try {
    const { db, driverId, token } = bench;
    const own = await accountId(db.kysely, driverId, 'own');
    const third = await accountId(db.kysely, driverId, 'third');
    const startDay = Date.UTC(2025, 10, 22, 12);
    const start = performance.now();
    for (let done = 0; done < entries; done += 5000) {
      await db.kysely.transaction().execute(async (trx) => {
        for (let i = done; i < Math.min(done + 5000, entries); i++) {
          const isThird = i % 10 === 9;
          const purchase = i % 25 === 0;
          await post(trx, {
            accountId: isThird ? third : own,
            amountCents: purchase ? 50_000 : -(590 + (i % 700)),
            origin: purchase ? STATEMENT_ORIGINS.pixPurchase : STATEMENT_ORIGINS.passage,
            placeName: purchase ? 'Compra de saldo via Pix' : `Praça de pedágio ${i % 50} – Rodovia dos Bandeirantes, km ${i % 170}`,
            isThird,
            idempotencyKey: `bench-export:${i}`,
            // A year of history, about 5 minutes apart.
            createdAt: new Date(startDay + i * 315_000).toISOString(),
          });
        }
      });
    }
    const fillSeconds = (performance.now() - start) / 1000;
    // The built server opens the same file (WAL: the bench's own connection may stay open).
    const databaseUrl = path.join(bench.dir, 'portal.sqlite');

    server = startPortal(PORT, databaseUrl, 'warn', { WEB_DIST: path.join(bench.dir, 'no-web') });
    const pid = server.pid;
    if (pid === undefined) throw new Error('o servidor não iniciou');
    const base = `http://127.0.0.1:${PORT}`;
    await waitForHttp(`${base}/api/health`);
    const headers = { authorization: `Bearer ${token}` };
    const pageTimes: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      const page = await fetch(`${base}/api/extrato/listar?page=1&periodo=intervalo&de=2026-11-01&ate=2026-11-30&tipo=passagens`, {
        headers,
      });
      if (page.status !== 200) throw new Error(`listar -> ${page.status}`);
      await page.arrayBuffer();
      pageTimes.push(performance.now() - started);
    }
    const statementPageMs = median(pageTimes);
    let t = performance.now();
    await sleep(500);
    const baselineRssMb = mb(await rssKb(pid, 'VmRSS'));

    const runs: ExportRun[] = [];
    for (const [format, encoding] of [
      ['csv', 'identity'],
      ['csv', 'gzip'],
      ['pdf', 'identity'],
      ['zip', 'identity'],
    ] as const) {
      const before = await rssKb(pid, 'VmRSS');
      let peak = before;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, await rssKb(pid, 'VmRSS'));
          await sleep(10);
        }
      })();
      t = performance.now();
      const url = format === 'zip' ? `${base}/api/motorista/dados/exportar` : `${base}/api/extrato/exportar?formato=${format}`;
      const res = await fetch(url, { headers: { ...headers, 'accept-encoding': encoding } });
      if (res.status !== 200 || !res.body) throw new Error(`exportar ${format} -> ${res.status}`);
      let bytes = 0;
      // Counted as it arrives (fetch decodes gzip: decoded bytes); the client holds nothing either.
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
      }
      const seconds = (performance.now() - t) / 1000;
      sampling = false;
      await sampler;
      runs.push({ format, encoding, seconds, bytes, peakRssMb: mb(peak), growthMb: mb(peak - before) });
      await sleep(500);
    }
    return { entries, fillSeconds, baselineRssMb, statementPageMs, runs };
  } finally {
    if (server) await stop(server);
    await bench.close();
  }
}
