import { ACTING_ACCOUNT_HEADER } from '@portal/domain';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Db } from '../../src/db/connection.js';
import { createLogger } from '../../src/logger.js';
import { prepareDatabase } from '../../src/startup/bootstrap.js';
import { DEMO_COMPANY, DEMO_MEMBERS } from '../../src/startup/demo-fleet.js';
import { DEMO_DRIVER } from '../../src/startup/demo-seed.js';
import { bearer, openTestDatabase } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { expectLedgerInvariant } from '../helpers/pix.js';

/** Decision 77: the demo carrier the README describes, seeded once, and what each of its people sees. */
describeEachDatabase('a transportadora de demonstração', (dialect) => {
  let db: Db;
  let drop: () => Promise<void>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const logs: string[] = [];

  beforeAll(async () => {
    const opened = await openTestDatabase(dialect, { DEMO_SEED: 'true' });
    db = opened.db;
    drop = opened.database.drop;
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    });
    const log = createLogger('info', sink);
    await prepareDatabase(opened.config, db, log);
    // A second start finds it done.
    await prepareDatabase(opened.config, db, log);
    app = await buildApp({ config: opened.config, db, logger: log });
  }, 120_000);

  afterAll(async () => {
    await app.close();
    await db.kysely.destroy();
    await drop();
  });

  const signIn = async (cpfCnpj: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/tokens/login-motorista',
      payload: { cpfCnpj, password: DEMO_DRIVER.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ Token: string }>().Token;
  };

  it('the demo driver is its Gestor; a Financeiro and two Motoristas, four trucks in two cost centres, money bought by Pix', async () => {
    const company = await db.kysely.selectFrom('drivers').select('id').where('cpf_cnpj', '=', DEMO_COMPANY.cpfCnpj).execute();
    expect(company).toHaveLength(1);
    const token = await signIn(DEMO_DRIVER.cpfCnpj);
    const accounts = (await app.inject({ method: 'GET', url: '/api/contas', headers: bearer(token) })).json<{
      Contas: { nome: string; papel: string }[];
    }>();
    expect(accounts.Contas.map((c) => [c.nome, c.papel])).toEqual([
      [DEMO_DRIVER.name, 'titular'],
      [DEMO_COMPANY.name, 'gestor'],
    ]);
    const companyId = company[0]?.id ?? 0;
    const onCompany = { ...bearer(token), [ACTING_ACCOUNT_HEADER]: String(companyId) };
    const members = (await app.inject({ method: 'GET', url: '/api/empresa/membros', headers: onCompany })).json<{
      Membros: { nome: string; papel: string; placas: string[] }[];
    }>();
    expect(members.Membros.map((m) => [m.nome, m.papel, m.placas])).toEqual([
      [DEMO_DRIVER.name, 'gestor', []],
      ...DEMO_MEMBERS.map((m) => [m.name, m.role, [...m.plates]]),
    ]);
    const vehicles = (await app.inject({ method: 'GET', url: '/api/veiculo/listar?page=1', headers: onCompany })).json<{
      Veiculos: unknown[];
    }>();
    expect(vehicles.Veiculos).toHaveLength(4);
    const balance = (await app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: onCompany })).json<{ Saldo: number }>();
    // R$ 2.000,00 bought, four monthly fees of R$ 15,90 and the two passages paid.
    expect(balance.Saldo).toBe(1876);
    // Decision 78: FRT1A11's passage took its month past 80 % of its budget: the Gestor's dashboard says so.
    const notices = (await app.inject({ method: 'GET', url: '/api/motorista/avisos', headers: onCompany })).json<{
      Avisos: { tipo: string; placa?: string; percentual?: number }[];
    }>();
    expect(notices.Avisos.filter((a) => a.tipo === 'orcamento-veiculo')).toEqual([
      expect.objectContaining({ placa: 'FRT1A11', percentual: 85 }),
    ]);
    // Decision 79: OP-SUL's statement: its two trucks' fees and FRT1A11's passage, each with its plate.
    const centres = (await app.inject({ method: 'GET', url: '/api/empresa/centros-de-custo', headers: onCompany })).json<{
      Centros: { id: number; codigo: string }[];
    }>();
    const south = centres.Centros.find((c) => c.codigo === 'OP-SUL')?.id;
    const bySouth = await app.inject({ method: 'GET', url: `/api/extrato/listar?page=1&centro=${String(south)}`, headers: onCompany });
    expect(bySouth.statusCode, bySouth.body).toBe(200);
    const rows = bySouth.json<{ Transacoes: { origin: string; veiculo: { placa: string; centroDeCusto: { codigo: string } | null } }[] }>()
      .Transacoes;
    expect(rows.map((r) => [r.origin, r.veiculo.placa, r.veiculo.centroDeCusto?.codigo]).sort()).toEqual(
      [
        ['mensalidade-tag', 'FRT1A11', 'OP-SUL'],
        ['mensalidade-tag', 'FRT2B22', 'OP-SUL'],
        ['passagem', 'FRT1A11', 'OP-SUL'],
      ].sort(),
    );
    await expectLedgerInvariant(db);
    for (const m of DEMO_MEMBERS) for (const line of logs) expect(line).not.toContain(m.cpfCnpj);
  });

  it("each Motorista sees the passages of their own trucks, not the other's", async () => {
    const companyId = (
      await db.kysely.selectFrom('drivers').select('id').where('cpf_cnpj', '=', DEMO_COMPANY.cpfCnpj).executeTakeFirstOrThrow()
    ).id;
    for (const m of DEMO_MEMBERS.filter((x) => x.role === 'motorista')) {
      const token = await signIn(m.cpfCnpj);
      const res = await app.inject({
        method: 'GET',
        url: '/api/veiculo/passagens?page=1',
        headers: { ...bearer(token), [ACTING_ACCOUNT_HEADER]: String(companyId) },
      });
      const plates = res.json<{ Passagens: { placa: string }[] }>().Passagens.map((p) => p.placa);
      expect(plates.length).toBeGreaterThan(0);
      expect(plates.every((p) => m.plates.includes(p))).toBe(true);
    }
  });
});
