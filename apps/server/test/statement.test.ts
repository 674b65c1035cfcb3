import { messages, STATEMENT_ORIGINS } from '@portal/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../src/db/connection.js';
import { migrateTo, migrateToLatest } from '../src/db/migrate.js';
import { accountId, post } from '../src/modules/ledger/ledger.js';
import { bearer, json, registerDriver, useTestApp } from './helpers/app.js';
import type { Registered } from './helpers/app.js';
import { createTestDatabase, describeEachDatabase } from './helpers/databases.js';
import type { TestDatabase } from './helpers/databases.js';
import { acceptTerms, FakePixProvider, fund } from './helpers/pix.js';

interface Tx {
  transactionId: number;
  placeName: string;
  value: number;
  created_at: string;
  event: string | null;
  origin: string;
  is_third: boolean;
  user_transaction: boolean;
}
interface Page {
  Sucesso: boolean;
  Mensagem: string;
  Transacoes: Tx[];
  Paginacao: { TotalPaginas: number };
}

describeEachDatabase('extrato', (dialect) => {
  const ctx = useTestApp(dialect, {}, { pixProvider: new FakePixProvider() });
  const app = () => ctx().app;
  const page = async (d: Registered, query = '') => {
    const res = await app().inject({ method: 'GET', url: `/api/extrato/listar${query}`, headers: bearer(d.token) });
    expect(res.statusCode).toBe(200);
    return json<Page>(res);
  };

  /** n entries: own passages and third-party movements, amount = i reais, dated 2026-01-01 + i minutes. */
  async function history(d: Registered, n: number): Promise<void> {
    await ctx().db.kysely.transaction().execute(async (trx) => {
      const own = await accountId(trx, d.id, 'own');
      const third = await accountId(trx, d.id, 'third');
      for (let i = 1; i <= n; i++) {
        const isThird = i % 4 === 0;
        await post(trx, {
          accountId: isThird ? third : own,
          amountCents: (i % 2 === 0 ? 1 : -1) * i * 100,
          origin: isThird ? STATEMENT_ORIGINS.thirdPartyCredit : STATEMENT_ORIGINS.passage,
          event: i === 5 ? 'OUTRO' : null,
          placeName: `Praça ${i}`,
          isThird,
          idempotencyKey: `hist-${d.id}-${i}`,
          createdAt: new Date(Date.UTC(2026, 0, 1, 12, i)).toISOString(),
        });
      }
    });
  }

  it('pages newest first, 10 a page, with TotalPaginas; past the end is an empty page', async () => {
    const d = await registerDriver(app());
    await history(d, 23);
    const p1 = await page(d, '?page=1');
    expect(p1).toMatchObject({ Sucesso: true, Mensagem: messages.statement.ok, Paginacao: { TotalPaginas: 3 } });
    expect(p1.Transacoes.map((t) => t.placeName)).toEqual([23, 22, 21, 20, 19, 18, 17, 16, 15, 14].map((i) => `Praça ${i}`));
    expect((await page(d, '?page=2')).Transacoes.map((t) => t.placeName)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4].map((i) => `Praça ${i}`));
    const p3 = await page(d, '?page=3');
    expect(p3.Transacoes.map((t) => t.placeName)).toEqual(['Praça 3', 'Praça 2', 'Praça 1']);
    expect(await page(d, '?page=4')).toMatchObject({ Transacoes: [], Paginacao: { TotalPaginas: 3 } });
    expect(await page(d, '?page=999999')).toMatchObject({ Transacoes: [], Paginacao: { TotalPaginas: 3 } });
    // No page, or nonsense, reads as page 1.
    for (const q of ['', '?page=0', '?page=abc']) expect((await page(d, q)).Transacoes[0]?.placeName).toBe('Praça 23');
  });

  it('maps every field of SPEC 3', async () => {
    const d = await registerDriver(app());
    await history(d, 5);
    const rows = (await page(d)).Transacoes;
    const ids = await ctx().db.kysely.selectFrom('ledger_entries').select('id').where('driver_id', '=', d.id).orderBy('driver_seq', 'desc').execute();
    expect(rows.map((r) => r.transactionId)).toEqual(ids.map((r) => r.id));
    expect(rows.map(({ transactionId: _id, ...rest }) => rest)).toEqual([
      { placeName: 'Praça 5', value: -5, created_at: '2026-01-01T12:05:00.000Z', event: null, origin: 'passagem', is_third: false, user_transaction: false },
      { placeName: 'Praça 4', value: 4, created_at: '2026-01-01T12:04:00.000Z', event: null, origin: 'credito-terceiro-movemais', is_third: true, user_transaction: false },
      { placeName: 'Praça 3', value: -3, created_at: '2026-01-01T12:03:00.000Z', event: null, origin: 'passagem', is_third: false, user_transaction: false },
      { placeName: 'Praça 2', value: 2, created_at: '2026-01-01T12:02:00.000Z', event: null, origin: 'passagem', is_third: false, user_transaction: false },
      { placeName: 'Praça 1', value: -1, created_at: '2026-01-01T12:01:00.000Z', event: null, origin: 'passagem', is_third: false, user_transaction: false },
    ]);
  });

  it("shows purchases and withdrawals of the driver's own, and nobody else's", async () => {
    const d = await registerDriver(app());
    await acceptTerms(app(), d);
    await fund(app(), d, 150);
    await app().inject({ method: 'POST', url: '/api/motorista/sacar', headers: bearer(d.token), payload: { description: 'x', receiver_document: d.cpfCnpj, amount: 40, pix: { type: 'EMAIL', key: 'a@b.com' } } });
    const other = await registerDriver(app());
    expect(await page(other)).toMatchObject({ Transacoes: [], Paginacao: { TotalPaginas: 0 } });
    const rows = (await page(d)).Transacoes;
    expect(rows.map((r) => [r.placeName, r.value, r.event, r.origin, r.user_transaction])).toEqual([
      ['Saque via Pix', -40, null, 'saque-pix', true],
      ['Compra de saldo via Pix', 150, 'RECEIVED', 'compra-pix', true],
    ]);
    expect(rows[0]!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect((await app().inject({ method: 'GET', url: '/api/extrato/listar' })).statusCode).toBe(401);
  });
});

describeEachDatabase('migração 002: sequência por motorista', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.open();
  });
  afterAll(async () => {
    await db.kysely.destroy();
    await database.drop();
  });

  it('numbers existing entries per driver by id and starts the counters there', async () => {
    await migrateTo(db, '001-initial');
    const now = new Date().toISOString();
    const drivers: number[] = [];
    for (const doc of ['MIG1', 'MIG2', 'MIG3']) {
      const r = await sql<{ id: number }>`insert into drivers (name, cpf_cnpj, phone_number, password_hash, created_at) values ('M', ${doc}, '+5511900000000', 'x', ${now}) returning id`.execute(db.kysely);
      const id = r.rows[0]!.id;
      drivers.push(id);
      await sql`insert into accounts (driver_id, kind, balance_cents) values (${id}, 'own', 0), (${id}, 'third', 0)`.execute(db.kysely);
    }
    const [a, b] = drivers as [number, number, number];
    // Interleaved entries of two drivers (balances are not the point here).
    for (const [i, driver] of [a, b, a, a, b].entries()) {
      await sql`insert into ledger_entries (account_id, driver_id, amount_cents, origin, place_name, idempotency_key, created_at)
        values ((select id from accounts where driver_id = ${driver} and kind = 'own'), ${driver}, ${100 + i}, 'teste', 'Teste', ${`mig-${i}`}, ${now})`.execute(db.kysely);
    }
    await migrateToLatest(db);
    const rows = await db.kysely.selectFrom('ledger_entries').select(['driver_id', 'driver_seq', 'amount_cents']).orderBy('id').execute();
    expect(rows.map((r) => [r.driver_id, Number(r.driver_seq), Number(r.amount_cents)])).toEqual([
      [a, 1, 100],
      [b, 1, 101],
      [a, 2, 102],
      [a, 3, 103],
      [b, 2, 104],
    ]);
    const counters = await db.kysely.selectFrom('driver_ledger_counters').selectAll().orderBy('driver_id').execute();
    expect(counters.map((c) => [c.driver_id, Number(c.entry_count)])).toEqual([
      [drivers[0], 3],
      [drivers[1], 2],
      [drivers[2], 0],
    ]);
    const next = await db.kysely.transaction().execute(async (trx) =>
      post(trx, { accountId: await accountId(trx, a, 'own'), amountCents: 1, origin: 'teste', placeName: 'T', idempotencyKey: 'mig-next' }),
    );
    expect(next.status).toBe('posted');
    const last = await db.kysely.selectFrom('ledger_entries').select('driver_seq').where('idempotency_key', '=', 'mig-next').executeTakeFirstOrThrow();
    expect(Number(last.driver_seq)).toBe(4);
  });
});

