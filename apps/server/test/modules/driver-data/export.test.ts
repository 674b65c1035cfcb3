import { PARTITIONED_TABLES } from '../../../src/db/partitions.js';
import { api } from '@portal/contract';
import { DRIVER_DATA_EXPORTS_PER_DAY, DRIVER_DATA_KINDS, type DriverDataKind, driverDataMessages, formatCpfCnpj } from '@portal/domain';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../../src/db/schema.js';
import { DATA_KINDS, TABLES_NOT_EXPORTED } from '../../../src/modules/driver-data/kinds.js';
import { SUMMARY_FILE } from '../../../src/modules/driver-data/zip.js';
import { bearer, recordedDownloads, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { pdfText, unzip } from '../../helpers/files.js';
import { buildWorld, validRequest, type DriverWorld, type World } from '../../helpers/world.js';

const URL = api.driverDataExport.path;
type Table = keyof Database;
const KINDS = Object.keys(DRIVER_DATA_KINDS) as DriverDataKind[];
const FILES = KINDS.map((k) => DRIVER_DATA_KINDS[k].file);

describeEachDatabase("'Meus dados': tudo o que o portal guarda sobre o motorista, num ZIP (LGPD art. 18, II e V)", (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  const db = () => ctx().db.kysely;
  let world: World;

  const download = (d: Registered, headers: Record<string, string> = {}) =>
    app().inject({ method: 'GET', url: URL, headers: { ...bearer(d.token), 'x-forwarded-for': '203.0.113.9', ...headers } });
  const files = async (d: Registered) => {
    const res = await download(d);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return { res, files: await unzip(res.rawPayload) };
  };
  const records = (zip: Map<string, Buffer>, kind: DriverDataKind) =>
    JSON.parse(zip.get(DRIVER_DATA_KINDS[kind].file)?.toString('utf8') ?? 'null') as Record<string, unknown>[];
  const forgetDownloads = (d: Registered) =>
    db().deleteFrom('access_records').where('driver_id', '=', d.id).where('action', '=', 'dados-baixados').execute();

  /** Whatever the world lacks of a kind, done the way the driver does it. */
  async function everyKind(d: DriverWorld) {
    const call = async (name: keyof typeof api, expected: number) => {
      const valid = validRequest(name, world, d, d === world.a ? world.b : world.a);
      const res = await app().inject({ method: api[name].method, url: api[name].path, headers: bearer(d.token), payload: valid.body });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(expected);
    };
    await call('savePushSubscription', 200);
    await call('updateProfile', 200);
    await call('withdraw', 200);
    await call('updatePayoutLimits', 200);
  }

  beforeAll(async () => {
    world = await buildWorld(app(), ctx().db);
    await everyKind(world.a);
    await everyKind(world.b);
  });

  it('answers a ZIP named for the day: the PDF summary first, then one JSON array per kind; only with a session', async () => {
    const { res, files: zip } = await files(world.a);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="meus-dados-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect([...zip.keys()]).toEqual([SUMMARY_FILE, ...FILES]);
    for (const file of FILES) expect(Array.isArray(JSON.parse(zip.get(file)?.toString('utf8') ?? '')), file).toBe(true);
    expect((await app().inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });

  it('holds every kind of the driver, each file with as many records as the database holds of them', async () => {
    const { files: zip } = await files(world.a);
    const id = world.a.id;
    const countOf = async (table: Table, join?: { table: Table; on: string }) => {
      const query = join
        ? sql<{
            n: number;
          }>`select count(*) as n from ${sql.table(table)} t join ${sql.table(join.table)} o on o.id = t.${sql.ref(join.on)} where o.driver_id = ${id}`
        : sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where driver_id = ${id}`;
      return Number((await query.execute(db())).rows[0]?.n);
    };
    const expected: Record<DriverDataKind, number> = {
      profile: 1,
      terms: await countOf('term_decisions'),
      sessions: await countOf('sessions'),
      access: await countOf('access_records'),
      pixKeys: await countOf('pix_keys'),
      payoutLimits: await countOf('payout_limits'),
      vehicles: await countOf('vehicles'),
      tags: await countOf('tags'),
      tagFees: await countOf('tag_fee_charges', { table: 'tags', on: 'tag_id' }),
      tagUsage: await countOf('tag_month_usage', { table: 'tags', on: 'tag_id' }),
      movements: await countOf('ledger_entries'),
      purchases: await countOf('pix_charges'),
      withdrawals: await countOf('withdrawals'),
      vpos: await countOf('vpos'),
      passages: await countOf('passages'),
      passagePayments: await countOf('passage_payments', { table: 'passages', on: 'passage_id' }),
      freeFlowTolls: await countOf('free_flow_tolls'),
      contests: await countOf('contests'),
      pushDevices: await countOf('push_subscriptions'),
      notices: await countOf('notification_outbox'),
      automaticTopUps: await countOf('pix_automatic_authorizations'),
      automaticTopUpCycles: await countOf('pix_automatic_cycles', { table: 'pix_automatic_authorizations', on: 'authorization_id' }),
      // Decision 77: one record of the person's companies (A is invited by one, and has cost centres).
      fleet: 1,
      audit: Number(
        (await sql<{ n: number }>`select count(*) as n from audit_events where company_id = ${id} or actor_id = ${id}`.execute(db()))
          .rows[0]?.n,
      ),
    };
    for (const kind of KINDS) {
      expect(records(zip, kind).length, kind).toBe(expected[kind]);
      // The world gives the driver at least one of every kind, so an empty file is a kind not read.
      // A driver's own account (a CPF) keeps no audit trail: only a company's does (decision 77).
      if (kind !== 'automaticTopUpCycles' && kind !== 'tagFees' && kind !== 'audit') expect(expected[kind], kind).toBeGreaterThan(0);
    }
    const [profile] = records(zip, 'profile');
    expect(profile).toMatchObject({ id, nome: 'Fulano de Tal Corrigido', cpfCnpj: world.a.cpfCnpj, telefone: '+5521998765432' });
    expect(profile?.correcoes).toEqual([{ campos: ['nome', 'telefone'], em: expect.any(String) }]);
    const movements = records(zip, 'movements');
    const sum = movements.reduce((total, m) => total + Math.round(Number(m.valor) * 100), 0);
    const balances = await db()
      .selectFrom('accounts')
      .select((eb) => eb.fn.sum<number>('balance_cents').as('n'))
      .where('driver_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(sum).toBe(Number(balances.n));
  });

  it('never carries a secret: no password hash, no session token hash, no push keys', async () => {
    const { files: zip } = await files(world.a);
    const text = [...zip.entries()]
      .filter(([name]) => name.endsWith('.json'))
      .map(([, b]) => b.toString('utf8'))
      .join('\n');
    const secrets = [
      ...(await db().selectFrom('drivers').select('password_hash as s').where('id', '=', world.a.id).execute()),
      ...(await db().selectFrom('sessions').select('token_hash as s').where('driver_id', '=', world.a.id).execute()),
      ...(await db().selectFrom('push_subscriptions').select('p256dh as s').where('driver_id', '=', world.a.id).execute()),
      ...(await db().selectFrom('push_subscriptions').select('auth as s').where('driver_id', '=', world.a.id).execute()),
    ].map((r) => r.s);
    expect(secrets.length).toBeGreaterThan(3);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(records(zip, 'pushDevices')[0]).toEqual({
      id: expect.any(Number),
      servicoDeNotificacao: 'https://fcm.googleapis.com',
      cadastradoEm: expect.any(String),
      ultimoEnvioEm: null,
    });
  });

  it("holds nothing of another driver's, with both drivers' rows interleaved in every table", async () => {
    const b = world.b;
    const bRows = {
      vehicles: await db().selectFrom('vehicles').select(['license_plate as v']).where('driver_id', '=', b.id).execute(),
      tags: await db().selectFrom('tags').select(['serial_number as v']).where('driver_id', '=', b.id).execute(),
      charges: await db().selectFrom('pix_charges').select(['id as v']).where('driver_id', '=', b.id).execute(),
      withdrawals: await db().selectFrom('withdrawals').select(['id as v']).where('driver_id', '=', b.id).execute(),
      vpos: await db().selectFrom('vpos').select(['external_id as v']).where('driver_id', '=', b.id).execute(),
      passages: await db().selectFrom('passages').select(['external_id as v']).where('driver_id', '=', b.id).execute(),
      keys: await db().selectFrom('pix_keys').select(['key as v']).where('driver_id', '=', b.id).execute(),
      automatic: await db().selectFrom('pix_automatic_authorizations').select(['id as v']).where('driver_id', '=', b.id).execute(),
    };
    const bSecrets = [
      b.cpfCnpj,
      formatCpfCnpj(b.cpfCnpj),
      'Bruno',
      ...Object.values(bRows).flatMap((rows) => rows.map((r) => String(r.v))),
    ];
    const { files: zip } = await files(world.a);
    const text = [...zip.entries()]
      .filter(([name]) => name.endsWith('.json'))
      .map(([, bytes]) => bytes.toString('utf8'))
      .join('\n');
    const summary = (await pdfText(zip.get(SUMMARY_FILE) ?? Buffer.alloc(0))).pages.join(' ');
    for (const secret of bSecrets) {
      expect(text, secret).not.toContain(secret);
      expect(summary, secret).not.toContain(secret);
    }
    // The control: A's own identifiers of the same kinds are there.
    for (const mine of [world.a.cpfCnpj, world.a.active.serial, world.a.active.plate, world.a.vpoExternalId, world.a.automaticId]) {
      expect(text).toContain(mine);
    }
    // Every row of A's tables is A's: the ids in each file are exactly A's ids.
    const aTags = (await db().selectFrom('tags').select('id').where('driver_id', '=', world.a.id).execute()).map((r) => r.id).sort();
    expect(
      records(zip, 'tags')
        .map((t) => t.id)
        .sort(),
    ).toEqual(aTags);
    expect(new Set(records(zip, 'tagUsage').map((t) => t.tagId)).size).toBeGreaterThan(0);
    for (const usage of records(zip, 'tagUsage')) expect(aTags).toContain(usage.tagId);
  });

  it('the PDF summary reads in Portuguese: who, the balances and each file with its count', async () => {
    const { files: zip } = await files(world.a);
    const text = (await pdfText(zip.get(SUMMARY_FILE) ?? Buffer.alloc(0))).pages.join(' ');
    expect(text).toContain('Meus dados');
    expect(text).toContain('Fulano de Tal Corrigido');
    expect(text).toContain(formatCpfCnpj(world.a.cpfCnpj));
    expect(text).toContain('(21) 99876-5432');
    for (const kind of KINDS) expect(text).toContain(DRIVER_DATA_KINDS[kind].file);
    expect(text).toContain(`${records(zip, 'movements').length} registros`);
    expect(text).toContain('Gerado em');
  });

  it('records each download as an access (time and address); a few a day, then refused with nothing recorded', async () => {
    const d = await registerDriver(app());
    for (let i = 0; i < DRIVER_DATA_EXPORTS_PER_DAY; i++) expect((await download(d)).statusCode).toBe(200);
    expect(await recordedDownloads(ctx().db, d.id)).toHaveLength(DRIVER_DATA_EXPORTS_PER_DAY);
    const refused = await download(d);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ Sucesso: false, Mensagem: driverDataMessages.dailyLimit });
    expect(refused.headers['retry-after']).toBeDefined();
    expect(await recordedDownloads(ctx().db, d.id)).toHaveLength(DRIVER_DATA_EXPORTS_PER_DAY);
    // The sign-up is an access too, with the same address.
    const signUp = await db()
      .selectFrom('access_records')
      .select('ip_address')
      .where('driver_id', '=', d.id)
      .where('action', '=', 'cadastro')
      .execute();
    expect(signUp).toHaveLength(1);
    await forgetDownloads(d);
  });

  it('one download at a time per driver: a second while the first streams is told to wait', async () => {
    const d = await registerDriver(app());
    const first = app().inject({ method: 'GET', url: URL, headers: bearer(d.token) });
    const second = app().inject({ method: 'GET', url: URL, headers: bearer(d.token) });
    const answers = await Promise.all([first, second]);
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 429]);
    expect(answers.find((r) => r.statusCode === 429)?.json()).toEqual({ Sucesso: false, Mensagem: driverDataMessages.busy });
    // Freed once the first is sent: the next one goes.
    expect((await download(d)).statusCode).toBe(200);
  });

  it('every table holding a driver row is a file of the ZIP, or named with the reason it is not', async () => {
    const holding = await tablesHoldingDriverRows();
    const exported = new Set<string>(KINDS.flatMap((k) => DATA_KINDS[k].tables));
    const named = new Set<string>(Object.keys(TABLES_NOT_EXPORTED));
    expect(
      holding.filter((t) => !exported.has(t) && !named.has(t)),
      'tabelas com dados do motorista fora do ZIP',
    ).toEqual([]);
    expect(
      [...exported].filter((t) => !holding.includes(t)),
      'arquivos de tabelas sem motorista',
    ).toEqual([]);
    expect(holding).toContain('ledger_entries');
    expect(holding).toContain('passage_payments');
  });

  /** Tables with a driver_id column, or a foreign key to one that has (tag fees, passage payments, cycles...), read from the catalogue. */
  async function tablesHoldingDriverRows(): Promise<string[]> {
    const columns: { table: string; column: string; references: string | null }[] =
      dialect === 'sqlite'
        ? (
            await sql<{ table: string; column: string; references: string | null }>`
              select m.name as "table", c.name as "column",
                (select f."table" from pragma_foreign_key_list(m.name) f where f."from" = c.name) as "references"
              from sqlite_master m, pragma_table_info(m.name) c
              where m.type = 'table' and m.name not like 'sqlite_%' and m.name not like 'kysely_%'`.execute(db())
          ).rows
        : (
            await sql<{ table: string; column: string; references: string | null }>`
              select c.table_name as "table", c.column_name as "column",
                (select ccu.table_name from information_schema.key_column_usage k
                   join information_schema.table_constraints tc on tc.constraint_name = k.constraint_name and tc.constraint_type = 'FOREIGN KEY'
                   join information_schema.constraint_column_usage ccu on ccu.constraint_name = k.constraint_name
                  where k.table_name = c.table_name and k.column_name = c.column_name limit 1) as "references"
              from information_schema.columns c
              where c.table_schema = current_schema() and c.table_name not like 'kysely_%'
                and c.table_name not in (select relname from pg_class where relispartition)`.execute(db())
          ).rows.concat(
            // Decision 80: references into a partitioned table are kept by its writers, not by foreign keys.
            PARTITIONED_TABLES.flatMap((spec) =>
              spec.referencedBy.map((r) => ({ table: r.table, column: r.column, references: spec.table })),
            ),
          );
    const holding = new Set(columns.filter((c) => c.column === 'driver_id').map((c) => c.table));
    holding.add('drivers');
    for (let grew = true; grew;) {
      grew = false;
      for (const c of columns) {
        if (c.references && holding.has(c.references) && !holding.has(c.table)) {
          holding.add(c.table);
          grew = true;
        }
      }
    }
    return [...holding].sort();
  }
});
