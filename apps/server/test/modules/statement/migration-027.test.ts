import { expect, it } from 'vitest';
import type { Contest, DriverContest } from '@portal/contract';
import { bearer, json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { minutes, spAt, useVpoApp } from '../../helpers/vpos.js';
import { nameEntryVehicles } from '../../../src/db/migrations/027-entry-vehicles.js';
import type { Db } from '../../../src/db/connection.js';

/**
 * Migration 027 (decision 79) over a history written before it: every entry that was for a vehicle
 * (a passage paid by Saldo or by a VPO, the tag's fee, a VPO's money in and back to the shipper, a
 * contest's refund) learns its vehicle and cost centre from what it paid, exactly as the ledger
 * names them since, and the counters per vehicle and centre are the same.
 */
describeEachDatabase('migração 027: o veículo e o centro de custo de cada movimentação', (dialect) => {
  const t = useVpoApp(dialect);

  async function named(db: Db) {
    const entries = await db.kysely
      .selectFrom('ledger_entries')
      .select(['id', 'origin', 'vehicle_id', 'cost_centre_id'])
      .orderBy('id')
      .execute();
    const counts = await db.kysely
      .selectFrom('ledger_scope_counts')
      .selectAll()
      .orderBy(['driver_id', 'scope', 'scope_id', 'unit', 'bucket'])
      .execute();
    return { entries, counts: counts.map((c) => ({ ...c, bucket: String(c.bucket instanceof Date ? c.bucket.toISOString() : c.bucket) })) };
  }

  it('names the entries already there as the ledger names new ones', async () => {
    const d = await t.driver();
    const db = t.db();
    // The truck in a cost centre (written as the fleet's screens would), so its entries have one.
    const centre = await db.kysely
      .insertInto('cost_centres')
      .values({ company_id: d.id, name: 'Operação Migração', code: 'MIG', created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.kysely.updateTable('vehicles').set({ cost_centre_id: centre.id }).where('id', '=', d.tag.vehicleId).execute();
    const s = await t.shipper('Embarcadora Migração');
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 30 });
    await t.passed(d.tag, 22.4, spAt(-minutes(50)), { placeName: 'Praça do VPO' });
    await t.passed(d.tag, 15, spAt(-minutes(40)), { placeName: 'Praça que passa do VPO' });
    await t.passed(d.tag, 7.5, spAt(-minutes(20)), { placeName: 'Praça de depois' });
    const passage = (await t.statement(d)).find((r) => r.placeName === 'Praça do VPO' && r.value < 0)?.passagem?.id;
    const opened = await t.app().inject({
      method: 'POST',
      url: '/api/motorista/contestacoes',
      headers: bearer(d.token),
      payload: { passagemId: passage, motivo: 'CATEGORIA' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const contest = json<{ Contestacao: DriverContest }>(opened).Contestacao.id;
    const { key } = await t.operator();
    const answered = await t.app().inject({
      method: 'POST',
      url: `/api/parceiro/contestacoes/${contest}/resposta`,
      headers: { 'x-api-key': key },
      payload: { decisao: 'ACEITA', valor: 22.4, motivo: 'Cobrança indevida' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(json<{ Contestacao: Contest }>(answered).Contestacao.estado).toBe('ACEITA');
    expect((await t.close(s, vpo.externalId)).statusCode).toBe(200);

    const live = await named(db);
    const origins = new Set(live.entries.filter((e) => e.vehicle_id === d.tag.vehicleId).map((e) => e.origin));
    expect(live.entries.some((e) => e.cost_centre_id === centre.id && e.origin === 'passagem')).toBe(true);
    expect([...origins].sort()).toEqual(
      ['devolucao-vpo', 'estorno-passagem-vpo', 'mensalidade-tag', 'passagem', 'passagem-vpo', 'vpo-recebido'].sort(),
    );
    expect(live.entries.filter((e) => e.origin === 'compra-pix').every((e) => e.vehicle_id === null)).toBe(true);

    // As before migration 027: no entry named, no counter per vehicle or centre.
    await db.kysely.updateTable('ledger_entries').set({ vehicle_id: null, cost_centre_id: null }).execute();
    await db.kysely.deleteFrom('ledger_scope_counts').execute();
    await nameEntryVehicles(db.kysely, dialect);
    const after = await named(db);
    // The same vehicle for every entry. The centre is the vehicle's of today: the tag's fee was
    // posted before the truck joined it (the ledger named no centre then), the migration cannot know.
    expect(after.entries.map((e) => [e.id, e.vehicle_id])).toEqual(live.entries.map((e) => [e.id, e.vehicle_id]));
    expect(after.entries.every((e) => e.cost_centre_id === (e.vehicle_id === null ? null : centre.id))).toBe(true);
    const of = (scope: string, rows: typeof live.counts) =>
      rows.filter((c) => c.scope === scope).map(({ scope: _scope, scope_id: _id, ...rest }) => rest);
    expect(of('vehicle', after.counts)).toEqual(of('vehicle', live.counts));
    // One truck in one centre: the centre's counters are the truck's.
    expect(of('centre', after.counts)).toEqual(of('vehicle', live.counts));
  });
});
