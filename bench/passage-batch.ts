import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDb } from '../apps/server/src/db/connection.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { PartnerService } from '../apps/server/src/modules/partners/service.js';
import type { BenchDatabase } from './api.js';
import { benchWebhookToken, createPostgresDatabase, median } from './lib.js';

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

/** The server app in process (production settings, silent logs, the partner limits raised) on a fresh database, with one driver. */
async function openApp(database: BenchDatabase) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-passages-'));
  const pgDatabase = database === 'postgres' ? await createPostgresDatabase('portal_bench_passages') : null;
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      DEMONSTRATION: 'true',
      DATABASE_URL: pgDatabase?.url ?? path.join(dir, 'portal.sqlite'),
      PIX_WEBHOOK_TOKEN: benchWebhookToken,
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'false',
      WEB_DIST: path.join(dir, 'no-web'),
      // One call per passage: 6,000 a minute per key would stop the single calls, not measure them.
      PARTNER_MAX_PER_KEY: '1000000',
      PARTNER_MAX_PER_ADDRESS: '1000000',
    },
    dir,
  );
  const db = openDb(config.databaseUrl);
  await migrateToLatest(db);
  const app = await buildApp({ config, db });
  const close = async () => {
    await app.close();
    await db.kysely.destroy();
    await pgDatabase?.drop();
    await rm(dir, { recursive: true, force: true });
  };
  const registration = await app.inject({
    method: 'POST',
    url: '/api/user/create-user',
    payload: {
      name: 'Motorista Benchmark',
      cpfCnpj: '11144477735',
      phoneNumber: '11987654321',
      password: 'benchmark123',
      password_confirmation: 'benchmark123',
      type: 'driver',
    },
  });
  if (registration.statusCode !== 201) {
    await close();
    throw new Error(`registration failed: ${registration.statusCode} ${registration.body}`);
  }
  return { db, app, driverId: registration.json<{ User: { id: number } }>().User.id, close };
}

/**
 * Decision 55, one app, app.inject one request at a time: toll passages per second through
 * POST /api/parceiro/passagens (one call each) against POST /api/parceiro/passagens/lote (batches
 * of 100 and of 1,000), the same kind of passages (ten tags of one driver, new externalIds), in
 * alternating rounds so that the ledger's growth weighs on each way alike.
 */
export async function benchPassageBatch(database: BenchDatabase, passages = 2000, rounds = 3): Promise<PassageBatchBenchResult> {
  const { db, app, driverId, close } = await openApp(database);
  try {
    const now = new Date().toISOString();
    const serials: string[] = [];
    for (let i = 0; i < TAGS; i++) {
      const vehicle = await db.kysely
        .insertInto('vehicles')
        .values({
          driver_id: driverId,
          license_plate: `BEN${i}C2${i}`,
          cpf_cnpj_antt: '11144477735',
          rntrc_antt: '12345678',
          axles: 3,
          vehicle_type: 2,
          model_id: 'scania-r-450',
          created_at: now,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const serial = `70000000000001${String(i).padStart(2, '0')}`;
      serials.push(serial);
      await db.kysely
        .insertInto('tags')
        .values({
          driver_id: driverId,
          vehicle_id: vehicle.id,
          serial_number: serial,
          operator_cnpj: OPERATOR_CNPJ,
          ownership_type: 'own',
          status_code: 100,
          activated_at: now,
          paid_through: null,
          created_at: now,
          deleted_at: null,
        })
        .execute();
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
