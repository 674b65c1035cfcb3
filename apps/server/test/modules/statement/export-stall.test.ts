import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { serverMessages, STATEMENT_ORIGINS } from '@portal/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../../src/db/connection.js';
import { accountId } from '../../../src/modules/ledger/ledger.js';
import { registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { writeCountsOf } from '../../helpers/statement-order.js';

const STALL_MS = 1500;
/** A history whose CSV (about 8 MB) is well past what the kernel's socket buffers hold (about 4 MB on loopback). */
const ROWS = 50_000;
const PLACE = 'Praça de Pedágio da Rodovia dos Bandeirantes, km 72, sentido interior, pista expressa, cabine';

/**
 * A long history written straight into the ledger's tables (the ledger's own path takes minutes
 * for 50,000 rows): passages a minute apart, in statement order, the balance their sum.
 */
async function longHistory(db: Db, driver: Registered): Promise<void> {
  const own = await accountId(db.kysely, driver.id, 'own');
  const start = Date.UTC(2026, 0, 1);
  let balance = 0;
  await db.kysely.transaction().execute(async (trx) => {
    for (let first = 0; first < ROWS; first += 1000) {
      const rows = Array.from({ length: Math.min(1000, ROWS - first) }, (_, k) => {
        const i = first + k;
        const cents = -(100 + (i % 50));
        balance += cents;
        return {
          account_id: own,
          driver_id: driver.id,
          amount_cents: cents,
          origin: STATEMENT_ORIGINS.passage,
          event: null,
          place_name: `${PLACE} ${i + 1}`,
          is_third: 0 as const,
          reference: null,
          idempotency_key: `parado-${driver.id}-${i}`,
          created_at: new Date(start + i * 60_000).toISOString(),
        };
      });
      await trx.insertInto('ledger_entries').values(rows).execute();
    }
    await trx.updateTable('accounts').set({ balance_cents: balance }).where('id', '=', own).execute();
    await writeCountsOf(trx, driver.id);
  });
}

const exportRequest = (token: string) =>
  `GET /api/extrato/exportar?formato=csv&periodo=tudo HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`;

/** A client that sends the export's request and never reads a byte of the answer. */
function neverReads(port: number, token: string): net.Socket {
  const socket = net.connect(port, '127.0.0.1');
  // Paused before it connects: Node never starts reading, so the answer piles up in the kernel.
  socket.pause();
  socket.on('error', () => undefined);
  socket.write(exportRequest(token));
  return socket;
}

/** The body of a chunked HTTP/1.1 answer, its status line apart. */
function dechunk(raw: Buffer): { status: string; body: string } {
  const headEnd = raw.indexOf('\r\n\r\n');
  const status = raw.subarray(0, raw.indexOf('\r\n')).toString('latin1');
  const parts: Buffer[] = [];
  let at = headEnd + 4;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return { status, body: Buffer.concat(parts).toString('utf8') };
}

/**
 * A client that reads at most `burst` bytes, then nothing for `pauseMs`, again and again (far
 * slower than the server writes); resolves with all it read.
 */
function readsSlowly(port: number, token: string, pauseMs: number, burst: number): Promise<{ status: string; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    let budget = burst;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      budget -= chunk.length;
      if (budget <= 0) socket.pause();
    });
    const timer = setInterval(() => {
      budget = burst;
      socket.resume();
    }, pauseMs);
    socket.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    socket.on('end', () => {
      clearInterval(timer);
      resolve({ ...dechunk(Buffer.concat(chunks)), ms: Date.now() - started });
    });
    socket.write(exportRequest(token));
  });
}

/** An export read at once by an ordinary client: its status and body. */
async function exportNow(base: string, token: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${base}/api/extrato/exportar?formato=csv&periodo=tudo`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.text() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 21, point 8: four clients that opened a long export and never read held every export slot,
 * and every other driver's export got 503 for minutes. An export whose client takes nothing for
 * EXPORT_STALL_TIMEOUT_MS is closed and frees its slot; a client that reads, however slowly, is
 * not cut.
 */
describeEachDatabase('exportação parada pelo cliente', (dialect) => {
  const ctx = useTestApp(dialect, { EXPORTS_MAX_IN_FLIGHT: '2', EXPORT_STALL_TIMEOUT_MS: String(STALL_MS) });
  const stalled: net.Socket[] = [];
  let port = 0;
  let base = '';
  let big: Registered[] = [];
  let other: Registered;

  beforeAll(async () => {
    const { app, db } = ctx();
    big = [await registerDriver(app, { name: 'Primeira Parada' }), await registerDriver(app, { name: 'Segunda Parada' })];
    for (const d of big) await longHistory(db, d);
    other = await registerDriver(app, { name: 'Outra Motorista' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  }, 120_000);

  afterAll(() => {
    for (const socket of stalled) socket.destroy();
  });

  /** Asks for an export every 250 ms while the answer is `busyStatus`, for at most 20 s after `since`. */
  async function exportOnceFree(token: string, busyStatus: number, since: number): Promise<{ status: number; body: string }> {
    let answer = await exportNow(base, token);
    while (answer.status === busyStatus && Date.now() - since < 20_000) {
      await sleep(250);
      answer = await exportNow(base, token);
    }
    return answer;
  }

  it("clients that never read hold the slots only until the stall limit; then another driver's export is 200", async () => {
    for (const d of big) stalled.push(neverReads(port, d.token));
    await sleep(300);
    const opened = Date.now();
    // The slots are full: the two answers are under way, far larger than the socket buffers.
    const busy = await exportNow(base, other.token);
    expect(busy.status, busy.body).toBe(503);
    expect(JSON.parse(busy.body)).toEqual({ Sucesso: false, Mensagem: serverMessages.statement.exportServerBusy });

    const answer = await exportOnceFree(other.token, 503, opened);
    expect(answer.status, answer.body).toBe(200);
    expect(answer.body).toContain('Data;Descrição');
    // Freed by the stall limit, not by the connection's own timeout (60 s) or the answer's end.
    expect(Date.now() - opened).toBeGreaterThanOrEqual(STALL_MS - 300);
    // And the stalled drivers themselves may export again, each once its own stalled export is closed
    // (on a loaded machine the two stalls are not noticed in the same instant).
    for (const d of big) expect((await exportOnceFree(d.token, 429, opened)).status).toBe(200);
  }, 60_000);

  it('a client that reads slowly, with pauses shorter than the limit, gets the whole export', async () => {
    const { status, body, ms } = await readsSlowly(port, big[1]!.token, STALL_MS / 3, 1024 * 1024);
    expect(status).toBe('HTTP/1.1 200 OK');
    const lines = body.split('\r\n').filter(Boolean);
    // The header, the rows and the one total line of the one account they moved (issue 33).
    expect(lines).toHaveLength(ROWS + 2);
    expect(lines[1]).toContain(`${PLACE} 1;`);
    expect(lines[ROWS]).toContain(`${PLACE} ${ROWS};`);
    expect(lines[ROWS + 1]).toMatch(/^;Total do período;;Saldo;/);
    // It lasted longer than the stall limit, paused again and again, and was not cut.
    expect(ms).toBeGreaterThan(STALL_MS);
  }, 120_000);
});
