import { SORT_DIRECTIONS, VPO_SORT_FIELDS } from '@portal/domain';
import { PartnerService } from '../apps/server/src/modules/partners/service.js';
import { insertActiveTag, openBenchApp } from './app.js';
import { median } from './lib.js';

export interface PartnersBenchResult {
  passages: number;
  passagesPerSecond: number;
  healthPerSecond: number;
  ratio: number;
  vpos: number;
  fillSeconds: number;
  listing: { sort: string; direction: string; page: number; medianMs: number }[];
  worstMedianMs: number;
}

const SERIAL = '7000000000000001';
const PLATE = 'BEN1C23';
/** SemParar in src/data/operators.json: an operator key posts passages only for its own operator's active tags. */
const OPERATOR_CNPJ = '90200002000117';

/**
 * On SQLite, one app: toll passages per second through POST /api/parceiro/passagens (key check,
 * validation, ledger post) against GET /api/health; then GET /api/pedagio/motoristaVpos sorted by
 * each column and direction, first, middle and last page, for a driver with `vpos` VPOs.
 */
export async function benchPartners(vpos: number, passages = 3000, samples = 50): Promise<PartnersBenchResult> {
  const { db, app, token, driverId, close } = await openBenchApp('partners');
  try {
    const now = new Date().toISOString();
    await insertActiveTag(
      db.kysely,
      { id: driverId, document: '11144477735' },
      { serial: SERIAL, plate: PLATE, operatorCnpj: OPERATOR_CNPJ },
    );
    const service = new PartnerService(db);
    const operator = await service.create('operator', 'Operadora Benchmark', OPERATOR_CNPJ);
    const shipper = await service.create('shipper', 'Embarcador Benchmark');

    let start = performance.now();
    for (let i = 0; i < passages; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/parceiro/passagens',
        headers: { 'x-api-key': operator.key },
        payload: {
          externalId: `p-${i}`,
          serialNumber: SERIAL,
          placeName: `Praça ${i % 50}`,
          value: 12.3,
          occurredAt: now,
          is_third: i % 10 === 0,
        },
      });
      if (res.statusCode !== 200) throw new Error(`passagem -> ${res.statusCode} ${res.body}`);
    }
    const passagesPerSecond = passages / ((performance.now() - start) / 1000);
    start = performance.now();
    for (let i = 0; i < passages; i++) {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      if (res.statusCode !== 200) throw new Error(`health -> ${res.statusCode}`);
    }
    const healthPerSecond = passages / ((performance.now() - start) / 1000);

    start = performance.now();
    const batch = 500;
    const base = Date.UTC(2025, 0, 1);
    for (let done = 0; done < vpos; done += batch) {
      const rows = [];
      for (let i = done; i < Math.min(done + batch, vpos); i++) {
        const at = new Date(base + ((i * 7919) % vpos) * 60_000).toISOString();
        rows.push({
          driver_id: driverId,
          partner_id: shipper.id,
          external_id: `v-${i}`,
          serial_number: SERIAL,
          plate: `ABC${i % 10}D${String(i % 97).padStart(2, '0')}`,
          shipper_document: '11222333000181',
          value_cents: 100 + ((i * 104_729) % 500_000),
          status: 'EMITIDO',
          origin: null,
          destination: null,
          created_at: at,
          updated_at: at,
        });
      }
      await db.kysely.insertInto('vpos').values(rows).execute();
    }
    const issued = await db.kysely
      .selectFrom('driver_vpo_counters')
      .select('vpo_count')
      .where('driver_id', '=', driverId)
      .executeTakeFirst();
    await db.kysely
      .insertInto('driver_vpo_counters')
      .values({ driver_id: driverId, vpo_count: vpos })
      .onConflict((oc) => oc.column('driver_id').doUpdateSet({ vpo_count: vpos + Number(issued?.vpo_count ?? 0) }))
      .execute();
    const fillSeconds = (performance.now() - start) / 1000;

    const totalPages = Math.ceil(vpos / 10);
    const listing = [];
    for (const sort of VPO_SORT_FIELDS) {
      for (const direction of SORT_DIRECTIONS) {
        for (const page of [1, Math.ceil(totalPages / 2), totalPages]) {
          const times: number[] = [];
          for (let i = 0; i < samples; i++) {
            const t = performance.now();
            const res = await app.inject({
              method: 'GET',
              url: `/api/pedagio/motoristaVpos?page=${page}&sort=${sort}&direction=${direction}`,
              headers: { authorization: `Bearer ${token}` },
            });
            times.push(performance.now() - t);
            if (res.statusCode !== 200 || res.json<{ VPOS: unknown[] }>().VPOS.length === 0)
              throw new Error(`vpos ${sort} ${direction} ${page} -> ${res.statusCode}`);
          }
          listing.push({ sort, direction, page, medianMs: median(times) });
        }
      }
    }
    return {
      passages,
      passagesPerSecond,
      healthPerSecond,
      ratio: passagesPerSecond / healthPerSecond,
      vpos,
      fillSeconds,
      listing,
      worstMedianMs: Math.max(...listing.map((l) => l.medianMs)),
    };
  } finally {
    await close();
  }
}
