import { saoPauloDay, serverMessages } from '@portal/domain';
import { sql } from 'kysely';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { PerformanceObserver } from 'node:perf_hooks';
import { driverHandleOf } from '../apps/server/src/db/connection.js';
import { SessionStore } from '../apps/server/src/modules/auth/sessions.js';
import { PartnerService } from '../apps/server/src/modules/partners/service.js';
import { median } from './lib.js';
import { openScaleApp } from './scale-app.js';
import type { ScaleApp } from './scale-app.js';
import { SCALE_OPERATORS, SCALE_PASSWORD } from './scale-shape.js';

/** One operation's timings at one size: through app.inject, in process, one call at a time. */
export interface OpTiming {
  op: string;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** What the answers held (rows of a page or an export, passages accepted), to see the work was done. */
  detail: string;
  /** The rows an export answered: its sizes are compared by the row, as a period of days never holds the same rows twice. */
  rows?: number;
  /** The slowest calls, each with what happened in the process during it: what a p99 is made of. */
  slowest: SlowCall[];
}

/** One timed call and what overlapped it: the process's garbage collection and the PostgreSQL connections the pool opened. */
export interface SlowCall {
  ms: number;
  gcMs: number;
  newConnections: number;
}

/** The calls a p99 is read from: the slowest of each operation, kept to explain it. */
const SLOWEST_KEPT = 3;

/** Who the measured calls are made for, picked once per size (the same picks every run: md5 order). */
export interface Picks {
  /** Drivers (CPF) with a tag of the load's operator: the light end of the skew. */
  light: { id: number; cpfCnpj: string; serial: string }[];
  /** The carriers with the most entries: the heavy end (`serials`: up to 40 of their trucks' tags). */
  heavy: { id: number; cpfCnpj: string; serial: string; serials: string[]; entries: number }[];
  /** Carriers of about FIXED_CARRIER_ENTRIES entries at every size: the database's growth apart from the driver's. */
  fixed: { id: number; entries: number }[];
  vpos: { id: number; driverId: number }[];
}

const OPERATOR = SCALE_OPERATORS[0];
const DAY = 86_400_000;
const BATCH = 1000;
/**
 * The heaviest carrier grows with the year (50 times the entries from 1/50 to the year), so its
 * pages measure the driver as much as the database. Carriers of this many entries exist at every
 * size: their pages measure the database alone.
 */
const FIXED_CARRIER_ENTRIES = 5_000;

/** One operation's figures, printed as they come (a size's operations take minutes). */
function spread(op: string, calls: SlowCall[], detail: string, rows?: number): OpTiming {
  const values = calls.map((c) => c.ms);
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const round = (v: number) => Math.round(v * 100) / 100;
  const timing = {
    op,
    samples: values.length,
    p50Ms: round(median(values)),
    p99Ms: round(at(0.99)),
    maxMs: round(sorted.at(-1) ?? 0),
    detail,
    ...(rows === undefined ? {} : { rows }),
    slowest: [...calls]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_KEPT)
      .map((c) => ({ ms: round(c.ms), gcMs: round(c.gcMs), newConnections: c.newConnections })),
  };
  console.log(
    `  ${op}: p50 ${timing.p50Ms} ms, p99 ${timing.p99Ms} ms (${timing.samples} calls); slowest ${describeSlowest(timing.slowest)}`,
  );
  return timing;
}

/** "81 ms (GC 62 ms), 40 ms (1 new connection), 22 ms". */
export function describeSlowest(calls: readonly SlowCall[]): string {
  return calls
    .map((c) => {
      const why = [
        ...(c.gcMs >= 1 ? [`GC ${Math.round(c.gcMs)} ms`] : []),
        ...(c.newConnections > 0 ? [`${c.newConnections} new connection${c.newConnections > 1 ? 's' : ''}`] : []),
      ];
      return `${Math.round(c.ms)} ms${why.length ? ` (${why.join(', ')})` : ''}`;
    })
    .join(', ');
}

/** The process's garbage-collection pauses and the pool's new connections, to lay over each timed call. */
function watchPauses(app: ScaleApp) {
  const pauses: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ start: e.startTime, end: e.startTime + e.duration });
    if (pauses.length > 10_000) pauses.splice(0, pauses.length - 10_000);
  });
  observer.observe({ entryTypes: ['gc'] });
  const handle = driverHandleOf(app.db.kysely);
  let connections = 0;
  if (handle && 'pool' in handle) handle.pool.on('connect', () => connections++);
  return {
    connections: () => connections,
    gcMsBetween: (start: number, end: number) =>
      pauses.reduce((sum, p) => sum + Math.max(0, Math.min(end, p.end) - Math.max(start, p.start)), 0),
    stop: () => observer.disconnect(),
  };
}

/** The picks: `light` drivers in md5 order, the 5 carriers with the most entries, `vpos` VPOs in md5 order. */
async function pick(app: ScaleApp, light = 200, vpos = 100): Promise<Picks> {
  const db = app.db.kysely;
  const { rows: lightRows } = await sql<{ id: number; cpf_cnpj: string; serial: string }>`
    select d.id, d.cpf_cnpj, min(t.serial_number) as serial from drivers d join tags t on t.driver_id = d.id
    where t.operator_cnpj = ${OPERATOR.cnpj} and t.deleted_at is null and length(d.cpf_cnpj) = 11
    group by d.id, d.cpf_cnpj order by md5(d.id::text) limit ${light}`.execute(db);
  const { rows: heavyRows } = await sql<{ id: number; cpf_cnpj: string; entries: string }>`
    select d.id, d.cpf_cnpj, c.entries from (select driver_id, sum(entries) as entries from ledger_entry_counts where unit = 'month'
      group by driver_id order by 2 desc limit 5) c join drivers d on d.id = c.driver_id order by c.entries desc`.execute(db);
  const heavy = [];
  for (const r of heavyRows) {
    const tags = await db
      .selectFrom('tags')
      .select('serial_number')
      .where('driver_id', '=', r.id)
      .where('operator_cnpj', '=', OPERATOR.cnpj)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .limit(40)
      .execute();
    const serials = tags.map((t) => t.serial_number);
    if (serials[0]) heavy.push({ id: r.id, cpfCnpj: r.cpf_cnpj, serial: serials[0], serials, entries: Number(r.entries) });
  }
  const { rows: fixedRows } = await sql<{ id: number; entries: string }>`
    select c.driver_id as id, c.entries from (select driver_id, sum(entries) as entries from ledger_entry_counts where unit = 'month'
      group by driver_id) c join drivers d on d.id = c.driver_id where length(d.cpf_cnpj) = 14
    order by abs(c.entries - ${FIXED_CARRIER_ENTRIES}), c.driver_id limit 5`.execute(db);
  const { rows: vpoRows } = await sql<{
    id: number;
    driver_id: number;
  }>`select id, driver_id from vpos order by md5(id::text) limit ${vpos}`.execute(db);
  if (lightRows.length === 0 || heavy.length === 0) throw new Error('sem motoristas para medir');
  return {
    light: lightRows.map((r) => ({ id: r.id, cpfCnpj: r.cpf_cnpj, serial: r.serial })),
    heavy,
    fixed: fixedRows.map((r) => ({ id: r.id, entries: Number(r.entries) })),
    vpos: vpoRows.map((r) => ({ id: r.id, driverId: r.driver_id })),
  };
}

/**
 * The São Paulo days holding the driver's last `rows` entries of the built year, from the day
 * counters (all of them when fewer), ending two days before the year's end: the passages this bench
 * posts (its batches, dated the last hours before it runs) stay out, so every run exports the same
 * rows. Null: none.
 */
async function exportPeriod(app: ScaleApp, driverId: number, rows: number, anchor: string): Promise<{ from: string; to: string } | null> {
  const untilMs = new Date(anchor).getTime() - 2 * DAY;
  const { rows: days } = await sql<{ bucket: Date; entries: string }>`select bucket, entries from ledger_entry_counts
    where driver_id = ${driverId} and unit = 'day' and bucket < ${new Date(untilMs - DAY).toISOString()}
    order by bucket desc`.execute(app.db.kysely);
  const to = saoPauloDay(new Date(untilMs - DAY));
  const dayOf = (d: { bucket: Date }) => saoPauloDay(new Date(new Date(d.bucket).getTime() + 12 * 3_600_000));
  let total = 0;
  for (const d of days) {
    total += Number(d.entries);
    if (total >= rows) return { from: dayOf(d), to };
  }
  // Fewer in the whole year: all of them.
  const first = days.at(-1);
  return first ? { from: dayOf(first), to } : null;
}

/** Rows of the statement's CSV: its lines but the header and the totals per account. */
function csvRows(body: string): number {
  const lines = body.split('\n').filter((l) => l.length > 0);
  const total = serverMessages.statement.exportLabels.total;
  return lines.length - 1 - lines.filter((l) => l.includes(total)).length;
}

/**
 * Every operation of issue 38 at one size, in process through app.inject (the server's whole work
 * but the network), for drivers across the skew: each warmed up (a tenth of its samples, at
 * least 3, not counted), then timed. `samples` reads each (the writes and the heavy calls fewer);
 * with samples = 1 (the test's run) every call is made once and checked.
 */
export async function measureOperations(
  databaseUrl: string,
  options: { samples: number; runId: string; anchor: string },
): Promise<{ ops: OpTiming[]; picks: Picks }> {
  const { samples, runId, anchor } = options;
  const app = await openScaleApp(databaseUrl);
  const pauses = watchPauses(app);
  const partners = new PartnerService(app.db);
  const key = await partners.create('operator', `Bench de escala ${runId}`, OPERATOR.cnpj);
  try {
    const picks = await pick(app);
    const sessions = new SessionStore(app.db.kysely, app.config.sessionTtlHours);
    const tokens = new Map<number, string>();
    const tokenOf = async (driverId: number) => {
      const known = tokens.get(driverId);
      if (known) return known;
      const made = await sessions.create(app.db.kysely, driverId);
      tokens.set(driverId, made);
      return made;
    };
    const inject = async (opts: InjectOptions, expect = 200): Promise<LightMyRequestResponse> => {
      const res = await app.app.inject(opts);
      if (res.statusCode !== expect)
        throw new Error(`${String(opts.method)} ${String(opts.url)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res;
    };
    const timed = async (count: number, call: (i: number) => Promise<void>): Promise<SlowCall[]> => {
      const warm = samples > 1 ? Math.max(3, Math.ceil(count / 10)) : 0;
      const calls: { t0: number; t1: number; newConnections: number }[] = [];
      for (let i = 0; i < count + warm; i++) {
        const opened = pauses.connections();
        const t0 = performance.now();
        await call(i);
        const t1 = performance.now();
        if (i >= warm) calls.push({ t0, t1, newConnections: pauses.connections() - opened });
      }
      // The GC entries arrive after the pauses they time: read them once the calls are done.
      await new Promise((resolve) => setImmediate(resolve));
      return calls.map((c) => ({ ms: c.t1 - c.t0, gcMs: pauses.gcMsBetween(c.t0, c.t1), newConnections: c.newConnections }));
    };
    const mixed = [...picks.light.slice(0, 40), ...picks.heavy, ...picks.heavy];
    const auth = async (driverId: number) => ({ authorization: `Bearer ${await tokenOf(driverId)}` });
    const partnerHeaders = { 'x-api-key': key.key };
    const ops: OpTiming[] = [];
    const few = (n: number) => (samples > 1 ? n : 1);

    ops.push(
      spread(
        'balance',
        await timed(samples, async (i) => {
          const d = mixed[i % mixed.length]!;
          await inject({ method: 'GET', url: '/api/motorista/saldo', headers: await auth(d.id) });
        }),
        `${mixed.length} drivers, light and heavy`,
      ),
    );
    let rows = 0;
    ops.push(
      spread(
        'statement page 1, light driver',
        await timed(samples, async (i) => {
          const d = picks.light[i % picks.light.length]!;
          const res = await inject({ method: 'GET', url: '/api/extrato/listar?page=1', headers: await auth(d.id) });
          rows = res.json<{ Transacoes: unknown[] }>().Transacoes.length;
        }),
        `${picks.light.length} drivers (the last call's page: ${rows} rows)`,
      ),
    );
    const pagesOf = new Map<number, number>();
    for (const d of picks.heavy) {
      const res = await inject({ method: 'GET', url: '/api/extrato/listar?page=1', headers: await auth(d.id) });
      const body = res.json<{ Transacoes: unknown[]; Paginacao: { TotalPaginas: number } }>();
      if (body.Transacoes.length === 0) throw new Error(`extrato vazio do motorista ${d.id}`);
      pagesOf.set(d.id, body.Paginacao.TotalPaginas);
    }
    const heaviest = picks.heavy[0]!;
    ops.push(
      spread(
        'statement page 1, carrier',
        await timed(samples, async (i) => {
          const d = picks.heavy[i % picks.heavy.length]!;
          await inject({ method: 'GET', url: '/api/extrato/listar?page=1', headers: await auth(d.id) });
        }),
        `${picks.heavy.length} carriers, ${heaviest.entries.toLocaleString('en')} entries the heaviest`,
      ),
    );
    const fixedEntries = picks.fixed.map((d) => d.entries);
    ops.push(
      spread(
        `statement page 1, carrier of ${FIXED_CARRIER_ENTRIES.toLocaleString('en')}`,
        await timed(samples, async (i) => {
          const d = picks.fixed[i % picks.fixed.length]!;
          await inject({ method: 'GET', url: '/api/extrato/listar?page=1', headers: await auth(d.id) });
        }),
        `${picks.fixed.length} carriers of ${Math.min(...fixedEntries).toLocaleString('en')} to ${Math.max(...fixedEntries).toLocaleString('en')} entries`,
      ),
    );
    ops.push(
      spread(
        'statement deep page, carrier',
        await timed(samples, async (i) => {
          const d = picks.heavy[i % picks.heavy.length]!;
          const page = Math.ceil((pagesOf.get(d.id) ?? 1) / 2);
          const res = await inject({ method: 'GET', url: `/api/extrato/listar?page=${page}`, headers: await auth(d.id) });
          if (res.json<{ Transacoes: unknown[] }>().Transacoes.length === 0) throw new Error(`página ${page} vazia`);
        }),
        `the middle page (the heaviest's ${Math.ceil((pagesOf.get(heaviest.id) ?? 1) / 2).toLocaleString('en')} of ${(pagesOf.get(heaviest.id) ?? 0).toLocaleString('en')})`,
      ),
    );
    const serials = [...picks.light.map((d) => d.serial), ...picks.heavy.map((d) => d.serial)];
    // A partner's batch carries mostly fleets' trucks: the carriers' tags, and a few drivers' own.
    const batchSerials = [...picks.heavy.flatMap((d) => d.serials), ...picks.light.slice(0, 20).map((d) => d.serial)];
    const now = Date.now();
    ops.push(
      spread(
        'late passage (3 weeks old)',
        // As many calls as a read: a p99 of 200 calls is their second slowest, one stall away from the median.
        await timed(samples, async (i) => {
          await inject({
            method: 'POST',
            url: '/api/parceiro/passagens',
            headers: partnerHeaders,
            payload: {
              externalId: `scale-late-${runId}-${i}`,
              serialNumber: serials[i % serials.length],
              placeName: `Praça ${i % 12} – SP-348 Bandeirantes`,
              value: 6.4,
              occurredAt: new Date(now - 21 * 86_400_000 - i * 61_000).toISOString(),
              is_third: false,
            },
          });
        }),
        'POST /api/parceiro/passagens, a tag of a light or heavy driver in turn',
      ),
    );
    let accepted = 0;
    ops.push(
      spread(
        'batch of 1,000 passages',
        await timed(few(10), async (b) => {
          const passagens = Array.from({ length: BATCH }, (_, i) => ({
            externalId: `scale-batch-${runId}-${b}-${i}`,
            serialNumber: batchSerials[(b * BATCH + i) % batchSerials.length],
            placeName: `Praça ${i % 12} – SP-330 Anhanguera`,
            value: 4.3,
            occurredAt: new Date(now - 3_600_000 - (b * BATCH + i) * 11_000).toISOString(),
            is_third: false,
          }));
          const res = await inject({
            method: 'POST',
            url: '/api/parceiro/passagens/lote',
            headers: partnerHeaders,
            payload: { passagens },
          });
          accepted = res.json<{ Aceitas: number }>().Aceitas;
          if (accepted !== BATCH) throw new Error(`lote: ${accepted} aceitas de ${BATCH}`);
        }),
        `POST /api/parceiro/passagens/lote, ${batchSerials.length} tags (the carriers' and 20 drivers')`,
      ),
    );
    ops.push(
      spread(
        "a VPO's read",
        await timed(samples, async (i) => {
          const v = picks.vpos[i % picks.vpos.length]!;
          await inject({ method: 'GET', url: `/api/pedagio/motoristaVpos/${v.id}`, headers: await auth(v.driverId) });
        }),
        `GET /api/pedagio/motoristaVpos/:id, ${picks.vpos.length} VPOs`,
      ),
    );
    let contests = 0;
    ops.push(
      spread(
        "operator's contest list",
        await timed(samples, async (i) => {
          const res = await inject({
            method: 'GET',
            url: `/api/parceiro/contestacoes?page=1${i % 2 ? '&estado=ABERTA' : ''}`,
            headers: partnerHeaders,
          });
          contests = res.json<{ Contestacoes: unknown[] }>().Contestacoes.length;
        }),
        `GET /api/parceiro/contestacoes, page 1 (all and ABERTA in turn; ${contests} rows)`,
      ),
    );
    const period = await exportPeriod(app, heaviest.id, 10_000, anchor);
    const exportUrl = `/api/extrato/exportar?formato=csv${period ? `&periodo=intervalo&de=${period.from}&ate=${period.to}` : ''}`;
    let exported = 0;
    ops.push(
      spread(
        'statement export, 10,000 rows (CSV)',
        await timed(few(10), async () => {
          const res = await inject({ method: 'GET', url: exportUrl, headers: await auth(heaviest.id) });
          exported = csvRows(res.body);
        }),
        `the heaviest carrier, ${period ? `${period.from} to ${period.to}` : 'whole history'}: ${exported.toLocaleString('en')} rows`,
        exported,
      ),
    );
    ops.push(
      spread(
        'sign-in',
        await timed(few(Math.ceil(samples / 4)), async (i) => {
          const d = mixed[i % mixed.length]!;
          await inject({ method: 'POST', url: '/api/tokens/login-motorista', payload: { cpfCnpj: d.cpfCnpj, password: SCALE_PASSWORD } });
        }),
        'POST /api/tokens/login-motorista (argon2 included), light and heavy drivers',
      ),
    );
    return { ops, picks };
  } finally {
    pauses.stop();
    await partners.revoke(key.id);
    await app.close();
  }
}
