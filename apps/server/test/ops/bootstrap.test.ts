import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_COMPANY, DEMO_MEMBERS } from '../../src/startup/demo-fleet.js';
import { prepareDatabase } from '../../src/startup/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/connection.js';
import { createLogger } from '../../src/logger.js';
import { PasswordHasher } from '../../src/modules/auth/passwords.js';
import { TEST_ENV } from '../helpers/app.js';
import { createTestDatabase, describeEachDatabase } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';

describeEachDatabase('início (migrações, termos, demonstração)', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  const lines: string[] = [];
  const log = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _e, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.open();
  });
  afterAll(async () => {
    await db.kysely.destroy();
    await database.drop();
  });

  it('migrates, publishes the MODELO term and creates the demo driver through registration; running twice changes nothing', async () => {
    const config = loadConfig({ ...TEST_ENV, DEMO_SEED: 'true', DATABASE_URL: database.url });
    await prepareDatabase(config, db, log);
    await prepareDatabase(config, db, log);

    const terms = await db.kysely.selectFrom('terms').select(['version', 'file_name']).execute();
    expect(terms).toEqual([{ version: 1, file_name: 'Termos-de-Uso.pdf' }]);
    const drivers = await db.kysely.selectFrom('drivers').selectAll().orderBy('id').execute();
    // The demo driver, then the demo carrier and its three other people (decision 77), each once.
    expect(drivers.map((d) => d.cpf_cnpj)).toEqual(['52998224725', DEMO_COMPANY.cpfCnpj, ...DEMO_MEMBERS.map((m) => m.cpfCnpj)]);
    const demo = drivers[0]!;
    expect(demo).toMatchObject({ cpf_cnpj: '52998224725', phone_number: '+5511987654321' });
    expect(await new PasswordHasher(config.argon2).verify(demo.password_hash, 'motorista123')).toBe(true);
    const accounts = await db.kysely.selectFrom('accounts').select('kind').where('driver_id', '=', demo.id).orderBy('kind').execute();
    expect(accounts.map((a) => a.kind)).toEqual(['own', 'third', 'vpo']);
    // The demo's credentials are the README's: the log holds neither the whole CPF nor the password.
    expect(lines.join('')).toContain('Motorista de demonstração pronto: CPF 529******25 (CPF e senha no README)');
    expect(lines.join('')).not.toMatch(/52998224725|529\.982\.247-25|motorista123/);

    // A history made through the services, once: two paid purchases and one withdrawal.
    const charges = await db.kysely
      .selectFrom('pix_charges')
      .select(['status', 'amount_cents'])
      .where('driver_id', '=', demo.id)
      .orderBy('created_at')
      .execute();
    expect(charges.map((c) => [c.status, Number(c.amount_cents)])).toEqual([
      ['RECEIVED', 15_000],
      ['RECEIVED', 25_000],
    ]);
    const withdrawals = await db.kysely
      .selectFrom('withdrawals')
      .select(['status', 'amount_cents', 'pix_key_type'])
      .where('driver_id', '=', demo.id)
      .execute();
    expect(withdrawals.map((w) => [w.status, Number(w.amount_cents), w.pix_key_type])).toEqual([['DONE', 4_000, 'EMAIL']]);
    const entries = await db.kysely
      .selectFrom('ledger_entries')
      .select(['amount_cents', 'origin'])
      // The place in the statement, 1 the oldest (decision 54: by created_at, then id).
      .select(sql<number>`row_number() over (order by created_at, id)`.as('driver_seq'))
      .where('driver_id', '=', demo.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(entries.map((e) => [Number(e.amount_cents), e.origin, Number(e.driver_seq)])).toEqual([
      // In the statement's date order: the partners' movements of the last days before today's purchases.
      // demo-vpo-2's trip began four days ago: its money is dated at the trip's start (decision 52), and
      // pays the first two passages, which fall in its trip, not Saldo.
      [12_000, 'credito-terceiro-movemais', 1],
      [64_590, 'vpo-recebido', 2],
      [-1_890, 'passagem-vpo', 3],
      [-2_240, 'passagem-vpo', 4],
      // The same plaza four minutes later: a possible double charge (decision 56), paid by the VPO too.
      [-2_240, 'passagem-vpo', 5],
      [-3_170, 'passagem', 6],
      [-4_550, 'debito-terceiro-movemais', 7],
      [15_000, 'compra-pix', 8],
      [25_000, 'compra-pix', 9],
      [-4_000, 'saque-pix', 10],
      [-1_590, 'mensalidade-tag', 11],
      [-1_590, 'mensalidade-tag', 12],
      // Each other VPO's value held in the VPO account when issued; the closed and the cancelled one gave theirs back.
      [128_040, 'vpo-recebido', 13],
      [-128_040, 'devolucao-vpo', 14],
      [31_200, 'vpo-recebido', 15],
      [9_850, 'vpo-recebido', 16],
      [-9_850, 'devolucao-vpo', 17],
      // Decision 76: the demo's free-flow toll the driver paid from Saldo.
      [-840, 'pedagio-sem-cancela', 18],
    ]);
    const flagged = await db.kysely
      .selectFrom('passages')
      .select(['external_id', 'duplicate_of'])
      .where('driver_id', '=', demo.id)
      .orderBy('id')
      .execute();
    expect(flagged.map((p) => [p.external_id, p.duplicate_of !== null])).toEqual([
      ['demo-passagem-1', false],
      ['demo-passagem-2', false],
      ['demo-passagem-3', false],
      ['demo-passagem-4', true],
    ]);
    const own = await db.kysely
      .selectFrom('accounts')
      .select('balance_cents')
      .where('driver_id', '=', demo.id)
      .where('kind', '=', 'own')
      .executeTakeFirstOrThrow();
    expect(Number(own.balance_cents)).toBe(36_000 - 2 * 1_590 - 840);
    const vpoAccount = await db.kysely
      .selectFrom('accounts')
      .select('balance_cents')
      .where('driver_id', '=', demo.id)
      .where('kind', '=', 'vpo')
      .executeTakeFirstOrThrow();
    expect(Number(vpoAccount.balance_cents)).toBe(64_590 - 1_890 - 2 * 2_240 + 31_200);
    const third = await db.kysely
      .selectFrom('accounts')
      .select('balance_cents')
      .where('driver_id', '=', demo.id)
      .where('kind', '=', 'third')
      .executeTakeFirstOrThrow();
    expect(Number(third.balance_cents)).toBe(-3_170 + 12_000 - 4_550);

    // VPOs, passages and third-party movements through the partner services (issue 5), once.
    const vpos = await db.kysely
      .selectFrom('vpos')
      .select(['external_id', 'status', 'value_cents', 'used_cents', 'left_cents', 'refunded_cents'])
      .where('driver_id', '=', demo.id)
      .orderBy('id')
      .execute();
    expect(
      vpos.map((v) => [v.external_id, v.status, ...[v.value_cents, v.used_cents, v.left_cents, v.refunded_cents].map(Number)]),
    ).toEqual([
      ['demo-vpo-1', 'ENCERRADO', 128_040, 0, 0, 128_040],
      ['demo-vpo-2', 'EM_VIAGEM', 64_590, 1_890 + 2 * 2_240, 64_590 - 1_890 - 2 * 2_240, 0],
      ['demo-vpo-3', 'EMITIDO', 31_200, 0, 31_200, 0],
      ['demo-vpo-4', 'CANCELADO', 9_850, 0, 0, 9_850],
    ]);
    expect(await db.kysely.selectFrom('partners').select('kind').orderBy('id').execute()).toEqual([
      { kind: 'shipper' },
      { kind: 'operator' },
      { kind: 'platform' },
      { kind: 'concessionaire' },
    ]);
    // Decision 76: the active tag's plate opted in, one toll paid, one open, one flagged (the tag paid there minutes before).
    const tolls = await db.kysely
      .selectFrom('free_flow_tolls')
      .select(['external_id', 'plate', 'paid_at', 'flag'])
      .where('driver_id', '=', demo.id)
      .orderBy('external_id')
      .execute();
    expect(tolls.map((x) => [x.external_id, x.plate, x.paid_at !== null, x.flag])).toEqual([
      ['demo-livre-1', 'RIO2A18', true, null],
      ['demo-livre-2', 'RIO2A18', false, null],
      ['demo-livre-3', 'RIO2A18', false, 'TAG_PAGOU'],
    ]);

    // Vehicles and tags in every state, through the tag service (issue 4).
    const tags = await db.kysely
      .selectFrom('tags')
      .innerJoin('vehicles', 'vehicles.id', 'tags.vehicle_id')
      .select(['vehicles.license_plate', 'tags.status_code', 'tags.ownership_type'])
      .where('tags.driver_id', '=', demo.id)
      .orderBy('tags.id')
      .execute();
    expect(tags.map((t) => [t.license_plate, t.status_code === null ? null : Number(t.status_code), t.ownership_type])).toEqual([
      ['RIO2A18', 100, 'own'],
      ['BRA2E19', 200, 'own'],
      ['MGA1234', null, 'own'],
      ['PRN4C56', 300, 'own'],
      ['TGY5G66', 201, 'operator'],
    ]);
  });

  it('does not seed when DEMO_SEED is off', async () => {
    const other = await createTestDatabase(dialect);
    const otherDb = other.open();
    try {
      await prepareDatabase(loadConfig({ ...TEST_ENV, DEMO_SEED: 'false', DATABASE_URL: other.url }), otherDb, log);
      expect(await otherDb.kysely.selectFrom('drivers').select('id').execute()).toEqual([]);
      expect(await otherDb.kysely.selectFrom('terms').select('id').execute()).toHaveLength(1);
    } finally {
      await otherDb.kysely.destroy();
      await other.drop();
    }
  });
});
