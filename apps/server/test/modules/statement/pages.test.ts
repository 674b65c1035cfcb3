import fc from 'fast-check';
import { formatSerial, serverMessages, STATEMENT_ORIGINS } from '@portal/domain';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '../../../src/db/connection.js';
import { migrateTo, migrateToLatest } from '../../../src/db/migrate.js';
import { accountId, post } from '../../../src/modules/ledger/ledger.js';
import { PartnerService } from '../../../src/modules/partners/service.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase, useFreshDatabase } from '../../helpers/databases.js';
import { acceptTerms, expectLedgerInvariant, FakePixProvider, fund } from '../../helpers/pix.js';
import { activeTag, SEMPARAR } from '../../helpers/tags.js';
import { expectStatementInDateOrder, placeOf } from '../../helpers/statement-order.js';
import { saoPaulo } from '../../helpers/world.js';

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

const minute = (m: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, m * 60)).toISOString();

describeEachDatabase('extrato', (dialect) => {
  const ctx = useTestApp(dialect, {}, { pixProvider: new FakePixProvider() });
  const app = () => ctx().app;
  const page = async (d: Registered, query = '') => {
    const res = await app().inject({ method: 'GET', url: `/api/extrato/listar${query}`, headers: bearer(d.token) });
    expect(res.statusCode).toBe(200);
    return json<Page>(res);
  };

  const allPages = async (d: Registered) => {
    const first = await page(d, '?page=1');
    const rest = [];
    for (let p = 2; p <= first.Paginacao.TotalPaginas; p++) rest.push(await page(d, `?page=${p}`));
    return [first, ...rest].map((p) => p.Transacoes);
  };

  /** One own passage in its own transaction, as a partner's push posts it. */
  const passage = async (d: Registered, placeName: string, createdAt: string, key = placeName) =>
    ctx()
      .db.kysely.transaction()
      .execute(async (trx) =>
        post(trx, {
          accountId: await accountId(trx, d.id, 'own'),
          amountCents: -100,
          origin: STATEMENT_ORIGINS.passage,
          placeName,
          idempotencyKey: `late-${d.id}-${key}`,
          createdAt,
        }),
      );

  /** n entries: own passages and third-party movements, amount = i reais, dated 2026-01-01 + i minutes. */
  async function history(d: Registered, n: number): Promise<void> {
    await ctx()
      .db.kysely.transaction()
      .execute(async (trx) => {
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
    expect(p1).toMatchObject({ Sucesso: true, Mensagem: serverMessages.statement.ok, Paginacao: { TotalPaginas: 3 } });
    expect(p1.Transacoes.map((t) => t.placeName)).toEqual([23, 22, 21, 20, 19, 18, 17, 16, 15, 14].map((i) => `Praça ${i}`));
    expect((await page(d, '?page=2')).Transacoes.map((t) => t.placeName)).toEqual(
      [13, 12, 11, 10, 9, 8, 7, 6, 5, 4].map((i) => `Praça ${i}`),
    );
    const p3 = await page(d, '?page=3');
    expect(p3.Transacoes.map((t) => t.placeName)).toEqual(['Praça 3', 'Praça 2', 'Praça 1']);
    expect(await page(d, '?page=4')).toMatchObject({ Transacoes: [], Paginacao: { TotalPaginas: 3 } });
    expect(await page(d, '?page=999999')).toMatchObject({ Transacoes: [], Paginacao: { TotalPaginas: 3 } });
    // No page, or nonsense, reads as page 1.
    for (const q of ['', '?page=0', '?page=abc']) expect((await page(d, q)).Transacoes[0]?.placeName).toBe('Praça 23');
  });

  it('maps every field of spec §3', async () => {
    const d = await registerDriver(app());
    await history(d, 5);
    const rows = (await page(d)).Transacoes;
    const ids = await ctx()
      .db.kysely.selectFrom('ledger_entries')
      .select('id')
      .where('driver_id', '=', d.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect(rows.map((r) => r.transactionId)).toEqual(ids.map((r) => r.id));
    expect(rows.map(({ transactionId: _id, ...rest }) => rest)).toEqual([
      {
        placeName: 'Praça 5',
        value: -5,
        created_at: '2026-01-01T12:05:00.000Z',
        event: null,
        origin: 'passagem',
        is_third: false,
        user_transaction: false,
        kind: 'passagens',
        receipt: null,
        vpo: null,
        passagem: null,
        conta: { tipo: 'SALDO', vpoId: null, embarcador: null, rota: null },
        saldoApos: -7,
        veiculo: null,
      },
      {
        placeName: 'Praça 4',
        value: 4,
        created_at: '2026-01-01T12:04:00.000Z',
        event: null,
        origin: 'credito-terceiro-movemais',
        is_third: true,
        user_transaction: false,
        kind: 'terceiros',
        receipt: null,
        vpo: null,
        passagem: null,
        conta: { tipo: 'SALDO_TERCEIRO', vpoId: null, embarcador: null, rota: null },
        saldoApos: 4,
        veiculo: null,
      },
      {
        placeName: 'Praça 3',
        value: -3,
        created_at: '2026-01-01T12:03:00.000Z',
        event: null,
        origin: 'passagem',
        is_third: false,
        user_transaction: false,
        kind: 'passagens',
        receipt: null,
        vpo: null,
        passagem: null,
        conta: { tipo: 'SALDO', vpoId: null, embarcador: null, rota: null },
        saldoApos: -2,
        veiculo: null,
      },
      {
        placeName: 'Praça 2',
        value: 2,
        created_at: '2026-01-01T12:02:00.000Z',
        event: null,
        origin: 'passagem',
        is_third: false,
        user_transaction: false,
        kind: 'passagens',
        receipt: null,
        vpo: null,
        passagem: null,
        conta: { tipo: 'SALDO', vpoId: null, embarcador: null, rota: null },
        saldoApos: 1,
        veiculo: null,
      },
      {
        placeName: 'Praça 1',
        value: -1,
        created_at: '2026-01-01T12:01:00.000Z',
        event: null,
        origin: 'passagem',
        is_third: false,
        user_transaction: false,
        kind: 'passagens',
        receipt: null,
        vpo: null,
        passagem: null,
        conta: { tipo: 'SALDO', vpoId: null, embarcador: null, rota: null },
        saldoApos: -1,
        veiculo: null,
      },
    ]);
  });

  it('entries posted out of date order show in date order across pages, ties the later posted first', async () => {
    const d = await registerDriver(app());
    await history(d, 23);
    await passage(d, 'Tardia', minute(2.5));
    await passage(d, 'Empate A', minute(15));
    await passage(d, 'Empate B', minute(15));
    await passage(d, 'Mais antiga', minute(0));
    await passage(d, 'Futura', minute(40));
    const places = (await allPages(d)).map((rows) => rows.map((t) => t.placeName));
    const praca = (...ns: number[]) => ns.map((n) => `Praça ${n}`);
    expect(places).toEqual([
      ['Futura', ...praca(23, 22, 21, 20, 19, 18, 17, 16), 'Empate B'],
      ['Empate A', ...praca(15, 14, 13, 12, 11, 10, 9, 8, 7)],
      [...praca(6, 5, 4, 3), 'Tardia', ...praca(2, 1), 'Mais antiga'],
    ]);
    expect((await page(d, '?page=3')).Transacoes.find((t) => t.placeName === 'Tardia')?.created_at).toBe('2026-01-01T12:02:30.000Z');
    await expectStatementInDateOrder(ctx().db, d.id);
    await expectLedgerInvariant(ctx().db);
  });

  it('a passage the operator reports late shows below the newer movements (22/11 never under January)', async () => {
    const d = await registerDriver(app());
    await acceptTerms(app(), d);
    const tag = await activeTag(app(), d, { Operadora: SEMPARAR });
    const { key } = await new PartnerService(ctx().db).create('operator', 'SemParar Extrato', SEMPARAR);
    const [hourAgo, halfHourAgo, threeQuartersAgo] = [saoPaulo(60), saoPaulo(30), saoPaulo(45)];
    const push = async (externalId: string, placeName: string, at: { local: string }) => {
      const res = await app().inject({
        method: 'POST',
        url: '/api/parceiro/passagens',
        headers: { 'x-api-key': key },
        payload: { externalId, serialNumber: tag.serial, placeName, value: 10, occurredAt: at.local, is_third: false },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    await push('p-1', 'Praça Itupeva', hourAgo);
    await push('p-2', 'Praça Jacareí', halfHourAgo);
    // Reported after the two above, and after the purchase and the fee of a moment ago.
    await push('p-3', 'Praça Campo Limpo', threeQuartersAgo);
    const rows = (await page(d)).Transacoes;
    expect(rows.map((t) => [t.placeName, t.created_at])).toEqual([
      [`Mensalidade da tag ${formatSerial(tag.serial)}`, expect.any(String)],
      ['Compra de saldo via Pix', expect.any(String)],
      ['Praça Jacareí', halfHourAgo.utc],
      ['Praça Campo Limpo', threeQuartersAgo.utc],
      ['Praça Itupeva', hourAgo.utc],
    ]);
    await expectStatementInDateOrder(ctx().db, d.id);
  });

  it('any order of posting gives the same statement: by date, newest first, the later posted first on a tie', async () => {
    // Few distinct dates, so that ties are common; each entry posted in its own transaction.
    const entries = fc.array(fc.record({ at: fc.integer({ min: 0, max: 6 }), third: fc.boolean() }), { minLength: 1, maxLength: 24 });
    await fc.assert(
      fc.asyncProperty(entries, async (list) => {
        const d = await registerDriver(app());
        for (const [i, e] of list.entries()) {
          await ctx()
            .db.kysely.transaction()
            .execute(async (trx) =>
              post(trx, {
                accountId: await accountId(trx, d.id, e.third ? 'third' : 'own'),
                amountCents: 100 + i,
                origin: e.third ? STATEMENT_ORIGINS.thirdPartyCredit : STATEMENT_ORIGINS.passage,
                placeName: `Lançamento ${i}`,
                isThird: e.third,
                idempotencyKey: `prop-${d.id}-${i}`,
                createdAt: minute(e.at),
              }),
            );
        }
        const expected = list
          .map((e, i) => ({ at: e.at, i }))
          .sort((x, y) => y.at - x.at || y.i - x.i)
          .map((e) => `Lançamento ${e.i}`);
        const pages = await allPages(d);
        expect(pages.flat().map((t) => t.placeName)).toEqual(expected);
        expect(pages.slice(0, -1).every((rows) => rows.length === 10)).toBe(true);
      }),
      { numRuns: 8 },
    );
  });

  it('concurrent late movements on both accounts of one driver each take their place', async () => {
    const d = await registerDriver(app());
    await history(d, 12);
    const late = Array.from({ length: 16 }, (_, i) => ({ at: minute(i % 2 === 0 ? 12 - i / 2 : 30 + i), third: i % 3 === 0, i }));
    await Promise.all(
      late.map((e) =>
        ctx()
          .db.kysely.transaction()
          .execute(async (trx) =>
            post(trx, {
              accountId: await accountId(trx, d.id, e.third ? 'third' : 'own'),
              amountCents: 100,
              origin: STATEMENT_ORIGINS.passage,
              placeName: `Concorrente ${e.i}`,
              isThird: e.third,
              idempotencyKey: `conc-${d.id}-${e.i}`,
              createdAt: e.at,
            }),
          ),
      ),
    );
    await expectStatementInDateOrder(ctx().db, d.id);
    const byDate = await ctx()
      .db.kysely.selectFrom('ledger_entries')
      .select('id')
      .where('driver_id', '=', d.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect((await allPages(d)).flat().map((t) => t.transactionId)).toEqual(byDate.map((r) => r.id));
    await expectLedgerInvariant(ctx().db);
  });

  it("shows purchases and withdrawals of the driver's own, and nobody else's", async () => {
    const d = await registerDriver(app());
    await acceptTerms(app(), d);
    await fund(app(), d, 150);
    await app().inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description: 'x', receiver_document: d.cpfCnpj, amount: 40, pix: { type: 'EMAIL', key: 'a@b.com' }, senha: d.password },
    });
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
  const freshDb = useFreshDatabase(dialect);

  it('numbers existing entries per driver by id and starts the counters there', async () => {
    const db = freshDb();
    await migrateTo(db, '001-initial');
    const now = new Date().toISOString();
    const drivers = await insertDriverRows(db, ['MIG1', 'MIG2', 'MIG3'], now);
    const [a, b] = drivers as [number, number, number];
    // Interleaved entries of two drivers (balances are not the point here).
    for (const [i, driver] of [a, b, a, a, b].entries()) {
      await sql`insert into ledger_entries (account_id, driver_id, amount_cents, origin, place_name, idempotency_key, created_at)
        values ((select id from accounts where driver_id = ${driver} and kind = 'own'), ${driver}, ${100 + i}, 'teste', 'Teste', ${`mig-${i}`}, ${now})`.execute(
        db.kysely,
      );
    }
    await migrateTo(db, '014-vpo-money');
    const rows = await seqRows(db);
    expect(rows.map((r) => [r.driver_id, Number(r.driver_seq), Number(r.amount_cents)])).toEqual([
      [a, 1, 100],
      [b, 1, 101],
      [a, 2, 102],
      [a, 3, 103],
      [b, 2, 104],
    ]);
    const { rows: counters } = await sql<{ driver_id: number; entry_count: number }>`
      select driver_id, entry_count from driver_ledger_counters order by driver_id`.execute(db.kysely);
    expect(counters.map((c) => [c.driver_id, Number(c.entry_count)])).toEqual([
      [drivers[0], 3],
      [drivers[1], 2],
      [drivers[2], 0],
    ]);
    await migrateToLatest(db);
    const next = await db.kysely.transaction().execute(async (trx) =>
      post(trx, {
        accountId: await accountId(trx, a, 'own'),
        amountCents: 1,
        origin: 'teste',
        placeName: 'T',
        idempotencyKey: 'mig-next',
      }),
    );
    expect(next.status).toBe('posted');
    // Since migration 015 (decision 54) the place is the entry's rank by (created_at, id).
    expect(await placeOf(db, await entryIdOf(db, 'mig-next'))).toBe(4);
    await expectStatementInDateOrder(db, a);
  });
});

describeEachDatabase('migração 008: extrato na ordem das datas', (dialect) => {
  const freshDb = useFreshDatabase(dialect);

  it('renumbers existing entries of each driver by date, then id; new ones keep the order', async () => {
    const db = freshDb();
    await migrateTo(db, '007-webhook-events');
    const now = new Date().toISOString();
    const drivers = await insertDriverRows(db, ['ORD1', 'ORD2'], now);
    const [a, b] = drivers as [number, number];
    // As posted before: driver_seq in posting order, the dates not.
    const posted: [number, number, string][] = [
      [a, 1, minute(10)],
      [b, 1, minute(5)],
      [a, 2, minute(20)],
      [a, 3, minute(5)],
      [b, 2, minute(1)],
      [a, 4, minute(10)],
    ];
    for (const [i, [driver, seq, at]] of posted.entries()) {
      await sql`insert into ledger_entries (account_id, driver_id, driver_seq, amount_cents, origin, place_name, idempotency_key, created_at)
        values ((select id from accounts where driver_id = ${driver} and kind = 'own'), ${driver}, ${seq}, ${100 + i}, 'teste', ${`Entrada ${i}`}, ${`ord-${i}`}, ${at})`.execute(
        db.kysely,
      );
    }
    await sql`insert into driver_ledger_counters (driver_id, entry_count) values (${a}, 4), (${b}, 2)`.execute(db.kysely);
    await migrateTo(db, '014-vpo-money');
    const rows = await seqRows(db);
    expect(rows.map((r) => [r.driver_id, Number(r.driver_seq), Number(r.amount_cents)])).toEqual([
      [a, 2, 100],
      [b, 2, 101],
      [a, 4, 102],
      [a, 1, 103],
      [b, 1, 104],
      [a, 3, 105],
    ]);
    await migrateToLatest(db);
    const next = await db.kysely.transaction().execute(async (trx) =>
      post(trx, {
        accountId: await accountId(trx, a, 'own'),
        amountCents: 1,
        origin: 'teste',
        placeName: 'T',
        idempotencyKey: 'ord-next',
        createdAt: minute(7),
      }),
    );
    expect(next.status).toBe('posted');
    await expectStatementInDateOrder(db, a);
    await expectStatementInDateOrder(db, b);
  });
});

/** Each entry's driver_seq, by id, while the column exists (up to migration 014). */
async function seqRows(db: Db) {
  const { rows } = await sql<{ driver_id: number; driver_seq: number; amount_cents: number }>`
    select driver_id, driver_seq, amount_cents from ledger_entries order by id`.execute(db.kysely);
  return rows;
}

async function entryIdOf(db: Db, idempotencyKey: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('ledger_entries')
    .select('id')
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Drivers and their two accounts written as rows, under a schema older than the app's code. */
async function insertDriverRows(db: Db, documents: string[], now: string): Promise<number[]> {
  const drivers: number[] = [];
  for (const doc of documents) {
    const r = await sql<{
      id: number;
    }>`insert into drivers (name, cpf_cnpj, phone_number, password_hash, created_at) values ('M', ${doc}, '+5511900000000', 'x', ${now}) returning id`.execute(
      db.kysely,
    );
    const id = r.rows[0]!.id;
    drivers.push(id);
    await sql`insert into accounts (driver_id, kind, balance_cents) values (${id}, 'own', 0), (${id}, 'third', 0)`.execute(db.kysely);
  }
  return drivers;
}
