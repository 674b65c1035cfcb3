import { PartnerService } from '../apps/server/src/modules/partners/service.js';
import type { BenchDatabase } from './api.js';
import { insertActiveTag, openBenchApp } from './app.js';
import { median } from './lib.js';

/** SemParar in src/data/operators.json: an operator key posts passages only for its own operator's active tags. */
const OPERATOR_CNPJ = '90200002000117';
const TAGS = 10;
/** The contract's BATCH_MAX. */
const BATCH_MAX = 1000;

export interface PassageBatchBenchResult {
  database: BenchDatabase;
  /** Passages each way and round. */
  passages: number;
  rounds: number;
  /** Passages per second, median of the rounds: one call each, batches of 100, batches of 1,000. */
  single: number;
  batch100: number;
  batch1000: number;
  ratio100: number;
  ratio1000: number;
  runs: { single: number[]; batch100: number[]; batch1000: number[] };
}

/**
 * Decision 55, one app, app.inject one request at a time: toll passages per second through
 * POST /api/parceiro/passagens (one call each) against POST /api/parceiro/passagens/lote (batches
 * of 100 and of 1,000), the same kind of passages (ten tags of one driver, new externalIds), in
 * alternating rounds so that the ledger's growth weighs on each way alike.
 */
export async function benchPassageBatch(database: BenchDatabase, passages = 2000, rounds = 3): Promise<PassageBatchBenchResult> {
  // One call per passage: 6,000 a minute per key would stop the single calls, not measure them.
  const { db, app, driverId, close } = await openBenchApp('passages', {
    database,
    env: { PARTNER_MAX_PER_KEY: '1000000', PARTNER_MAX_PER_ADDRESS: '1000000' },
  });
  try {
    const serials: string[] = [];
    for (let i = 0; i < TAGS; i++) {
      const serial = `70000000000001${String(i).padStart(2, '0')}`;
      serials.push(serial);
      await insertActiveTag(
        db.kysely,
        { id: driverId, document: '11144477735' },
        { serial, plate: `BEN${i}C2${i}`, operatorCnpj: OPERATOR_CNPJ },
      );
    }
    const operator = await new PartnerService(db).create('operator', 'Operadora Benchmark', OPERATOR_CNPJ);
    const headers = { 'x-api-key': operator.key };
    let seq = 0;
    const passage = () => {
      seq += 1;
      return {
        externalId: `p-${seq}`,
        serialNumber: serials[seq % TAGS],
        placeName: `Praça ${seq % 50} (SP-348)`,
        value: 12.3,
        // A minute apart: a tag meets the same plaza again 50 passages (50 minutes) later, as trucks
        // do, not within decision 56's 10 minutes (a possible double charge, which is rare).
        occurredAt: new Date(Date.now() - seq * 61_000).toISOString(),
        is_third: seq % 10 === 0,
      };
    };

    async function single(): Promise<number> {
      const start = performance.now();
      for (let i = 0; i < passages; i++) {
        const res = await app.inject({ method: 'POST', url: '/api/parceiro/passagens', headers, payload: passage() });
        if (res.statusCode !== 200) throw new Error(`passagem -> ${res.statusCode} ${res.body}`);
      }
      return passages / ((performance.now() - start) / 1000);
    }
    async function batches(size: number): Promise<number> {
      const start = performance.now();
      for (let done = 0; done < passages; done += size) {
        const items = Array.from({ length: Math.min(size, passages - done) }, passage);
        const res = await app.inject({ method: 'POST', url: '/api/parceiro/passagens/lote', headers, payload: { passagens: items } });
        const accepted = res.statusCode === 200 ? res.json<{ Aceitas: number }>().Aceitas : -1;
        if (accepted !== items.length) throw new Error(`lote -> ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
      return passages / ((performance.now() - start) / 1000);
    }

    // A warm-up of each way, not counted (JIT, prepared statements).
    await single();
    await batches(100);
    await batches(BATCH_MAX);
    const runs = { single: [] as number[], batch100: [] as number[], batch1000: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      runs.single.push(await single());
      runs.batch100.push(await batches(100));
      runs.batch1000.push(await batches(BATCH_MAX));
    }
    const [s, b100, b1000] = [median(runs.single), median(runs.batch100), median(runs.batch1000)];
    return {
      database,
      passages,
      rounds,
      single: s,
      batch100: b100,
      batch1000: b1000,
      ratio100: b100 / s,
      ratio1000: b1000 / s,
      runs,
    };
  } finally {
    await close();
  }
}
