import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../../src/db/migrate.js';
import { accountId, post } from '../../../src/modules/ledger/ledger.js';
import { PartnerService } from '../../../src/modules/partners/service.js';
import { openVposOf } from '../../../src/modules/passages/vpo-shares.js';
import { vpoDetails } from '../../../src/modules/vpos/queries.js';
import { VpoService } from '../../../src/modules/vpos/service.js';
import { describeEachDatabase, useFreshDatabase } from '../../helpers/databases.js';
import { expectLedgerInvariant } from '../../helpers/pix.js';
import { placeOf } from '../../helpers/statement-order.js';

/**
 * Migration 014 over a database written before it: every driver gets a VPO account at zero (on
 * SQLite the accounts table is rebuilt, so its ids, balances, entries and rules must survive), and
 * a VPO issued before holds no money and covers no passage.
 */
describeEachDatabase('migração 014: o dinheiro dos VPOs', (dialect) => {
  const freshDb = useFreshDatabase(dialect);

  it('adds one empty VPO account per driver, keeps the accounts and their entries, and leaves old VPOs holding nothing', async () => {
    const db = freshDb();
    await migrateTo(db, '013-payout-protection');
    const now = new Date().toISOString();
    const drivers: number[] = [];
    for (const doc of ['MIG14A', 'MIG14B']) {
      const r = await sql<{ id: number }>`insert into drivers (name, cpf_cnpj, phone_number, password_hash, created_at)
        values ('M', ${doc}, '+5511900000000', 'x', ${now}) returning id`.execute(db.kysely);
      const id = r.rows[0]!.id;
      drivers.push(id);
      await sql`insert into accounts (driver_id, kind, balance_cents) values (${id}, 'own', 1500), (${id}, 'third', -200)`.execute(
        db.kysely,
      );
      await sql`insert into ledger_entries (account_id, driver_id, driver_seq, amount_cents, origin, place_name, idempotency_key, created_at)
        values ((select id from accounts where driver_id = ${id} and kind = 'own'), ${id}, 1, 1500, 'compra-pix', 'Compra', ${`m14-${id}-1`}, ${now}),
               ((select id from accounts where driver_id = ${id} and kind = 'third'), ${id}, 2, -200, 'passagem', 'Praça', ${`m14-${id}-2`}, ${now})`.execute(
        db.kysely,
      );
      await sql`insert into driver_ledger_counters (driver_id, entry_count) values (${id}, 2)`.execute(db.kysely);
    }
    const [a] = drivers as [number, number];
    const shipper = await new PartnerService(db).create('shipper', 'Embarcador Antigo');
    await sql`insert into vpos (driver_id, partner_id, external_id, serial_number, plate, shipper_document, value_cents, status, origin, destination, created_at, updated_at)
      values (${a}, ${shipper.id}, 'antigo-1', '7000000000000001', 'ABC1D23', '11222333000181', 9900, 'EM_VIAGEM', null, null, ${now}, ${now})`.execute(
      db.kysely,
    );
    const before = await db.kysely.selectFrom('accounts').select(['id', 'driver_id', 'kind', 'balance_cents']).orderBy('id').execute();

    await migrateToLatest(db);

    const after = await db.kysely.selectFrom('accounts').select(['id', 'driver_id', 'kind', 'balance_cents']).orderBy('id').execute();
    const norm = (rows: typeof after) => rows.map((r) => [r.id, r.driver_id, r.kind, Number(r.balance_cents)]);
    expect(norm(after.filter((r) => r.kind !== 'vpo'))).toEqual(norm(before));
    expect(norm(after.filter((r) => r.kind === 'vpo')).map(([, driver, kind, balance]) => [driver, kind, balance])).toEqual(
      drivers.map((id) => [id, 'vpo', 0]),
    );
    await expectLedgerInvariant(db);
    if (dialect === 'sqlite') expect((await sql`pragma foreign_key_check`.execute(db.kysely)).rows).toEqual([]);

    // The rules of the rebuilt table hold: one account of each kind per driver, and only the three kinds.
    await expect(sql`insert into accounts (driver_id, kind, balance_cents) values (${a}, 'vpo', 0)`.execute(db.kysely)).rejects.toThrow(
      /unique/i,
    );
    await expect(sql`insert into accounts (driver_id, kind, balance_cents) values (${a}, 'outra', 0)`.execute(db.kysely)).rejects.toThrow(
      /check/i,
    );
    // An entry still needs an account that exists.
    await expect(
      sql`insert into ledger_entries (account_id, driver_id, amount_cents, origin, place_name, idempotency_key, created_at)
        values (999999, ${a}, 1, 'teste', 'T', 'm14-orfa', ${now})`.execute(db.kysely),
    ).rejects.toThrow(/foreign key/i);

    // The old VPO: no money, no window, nothing it pays; closing it gives back nothing.
    const old = await db.kysely.selectFrom('vpos').selectAll().where('external_id', '=', 'antigo-1').executeTakeFirstOrThrow();
    expect(old).toMatchObject({ trip_start: null, trip_end: null, closed_at: null, antt_id: null, rntrc: null, axles: null });
    expect([old.held_cents, old.used_cents, old.left_cents, old.refunded_cents, old.short_cents].map(Number)).toEqual([0, 0, 0, 0, 0]);
    expect(await db.kysely.transaction().execute((trx) => openVposOf(trx, ['7000000000000001']))).toEqual([]);
    expect(await vpoDetails(db.kysely, { driverId: a, id: old.id }, new Date())).toMatchObject({
      ValorTotalVP: 99,
      inicioViagem: null,
      fimViagem: null,
      Utilizado: 0,
      Restante: 0,
      Devolvido: 0,
      Passagens: [],
    });
    const partner = await new PartnerService(db).byId(shipper.id);
    expect(await new VpoService(db).updateStatus(partner!, 'antigo-1', 'ENCERRADO')).toEqual({ id: String(old.id), duplicate: false });
    expect(await db.kysely.selectFrom('ledger_entries').select('id').where('vpo_id', '=', old.id).execute()).toEqual([]);

    // The new account takes entries like the others, after the old ones.
    const posted = await db.kysely.transaction().execute(async (trx) =>
      post(trx, {
        accountId: await accountId(trx, a, 'vpo'),
        amountCents: 700,
        origin: 'vpo-recebido',
        placeName: 'Novo',
        idempotencyKey: 'm14-novo',
      }),
    );
    expect(posted).toMatchObject({ status: 'posted', balanceCents: 700 });
    // Its place in the statement, 1 the oldest (since migration 015, its rank by created_at then id).
    expect(posted.status === 'posted' && (await placeOf(db, posted.entryId))).toBe(3);
    await expectLedgerInvariant(db);
  });
});
