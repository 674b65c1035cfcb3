import { serverMessages, STATEMENT_ORIGINS } from '@portal/domain';
import { expect, it } from 'vitest';
import { createPartner, issueVpo, recordPassage, scopePartner, showVpo } from '../../src/cli/partners.js';
import { newKey, partnerByKey } from '../../src/modules/partners/keys.js';
import { PartnerService } from '../../src/modules/partners/service.js';
import { bearer, json, registerDriver, useTestApp } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { expectLedgerInvariant } from '../helpers/pix.js';
import { activeTag, OPERATORS, registerTag, SEMPARAR } from '../helpers/tags.js';
import { runCli } from '../helpers/cli.js';
import { balances } from '../../src/modules/ledger/ledger.js';

/** The CLI against one database. */
const cli = (args: string[], databaseUrl: string) => runCli(args, { DATABASE_URL: databaseUrl });

describeEachDatabase('cli de parceiros', (dialect) => {
  const ctx = useTestApp(dialect);

  it('partner:create prints the key alone on its last line; list shows the prefix; revoke makes it unknown', async () => {
    const url = ctx().config.databaseUrl;
    const created = await cli(['partner:create', '--kind', 'operator', '--name', 'Operadora Teste', '--operator', 'SemParar'], url);
    expect(created.code, created.stderr).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    const key = lines.at(-1) ?? '';
    expect(key).toMatch(/^pm_[A-Za-z0-9_-]{43}$/);
    expect(lines.slice(0, -1).join('\n')).not.toContain(key);
    expect(lines[0]).toContain('operadora SemParar');
    const partner = await partnerByKey(ctx().db.kysely, key);
    expect(partner).toMatchObject({ kind: 'operator', name: 'Operadora Teste', operatorCnpj: SEMPARAR });
    const stored = await ctx().db.kysely.selectFrom('partners').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(key);

    const list = await cli(['partner:list'], url);
    expect(list.stdout).toContain(key.slice(0, 10));
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).toContain('Operadora Teste  [operadora SemParar]');
    expect((await cli(['partner:create', '--kind', 'banco', '--name', 'X'], url)).code).toBe(1);
    expect((await cli(['help'], url)).stdout).toContain(
      'partner:create --kind shipper|operator|platform|concessionaria --name <nome> [--operator <nome ou CNPJ>]',
    );

    const revoked = await cli(['partner:revoke', String(partner?.id)], url);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await partnerByKey(ctx().db.kysely, key)).toBeNull();
  });

  it('an operator key belongs to one operator, given by name or CNPJ; partner:scope binds an old key', async () => {
    const url = ctx().config.databaseUrl;
    const veloe = OPERATORS.Veloe ?? '';
    const formatted = veloe.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
    const { hash, prefix, key: oldKey } = newKey();
    const old = await ctx()
      .db.kysely.insertInto('partners')
      .values({
        kind: 'operator',
        name: 'Operadora Antiga',
        api_key_hash: hash,
        api_key_prefix: prefix,
        created_at: new Date().toISOString(),
        revoked_at: null,
        operator_cnpj: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // In process (the same functions `npm run cli` runs): each spawned CLI costs seconds.
    const run = (args: string[]) =>
      args[0] === 'partner:scope' ? scopePartner(ctx().db, args.slice(1)) : createPartner(ctx().db, args.slice(1));
    const lastLine = (out: string) => out.trimEnd().split('\n').at(-1) ?? '';
    const byCnpj = await run(['partner:create', '--kind', 'operator', '--name', 'Veloe Integração', '--operator', formatted]);
    expect(await partnerByKey(ctx().db.kysely, lastLine(byCnpj))).toMatchObject({ operatorCnpj: veloe });
    const byName = await run(['partner:create', '--kind', 'operator', '--name', 'ConectCar Integração', '--operator', 'conectcar']);
    expect(await partnerByKey(ctx().db.kysely, lastLine(byName))).toMatchObject({ operatorCnpj: OPERATORS.ConectCar });
    await expect(run(['partner:create', '--kind', 'operator', '--name', 'X', '--operator', 'Pedágio Feliz'])).rejects.toThrow(
      new RegExp(`^Operadora não encontrada: Pedágio Feliz\\..*Veloe \\(${veloe}\\)`),
    );
    await expect(run(['partner:create', '--kind', 'operator', '--name', 'X'])).rejects.toThrow('Chaves de operadora exigem --operator');
    await expect(run(['partner:create', '--kind', 'operator', '--name', 'X', '--operator'])).rejects.toThrow(
      'Chaves de operadora exigem --operator',
    );
    await expect(run(['partner:create', '--kind', 'shipper', '--name', 'X', '--operator', 'Veloe'])).rejects.toThrow(
      '--operator vale só para --kind operator',
    );
    await expect(run(['partner:scope', String(old.id + 1000), '--operator', 'MoveMais'])).rejects.toThrow('Parceiro não encontrado');
    expect(await run(['partner:scope', String(old.id), '--operator', 'MoveMais'])).toBe(
      'Chave do parceiro ' + old.id + ' vinculada à operadora MoveMais.',
    );
    expect(await partnerByKey(ctx().db.kysely, oldKey)).toMatchObject({ operatorCnpj: OPERATORS.MoveMais });
    await expect(run(['partner:scope', String(old.id), '--operator', 'Taggy'])).rejects.toThrow('já pertence a outra operadora');
    // Through the real CLI once: the same refusal, exit code 1.
    const spawned = await cli(['partner:create', '--kind', 'operator', '--name', 'X'], url);
    expect(spawned.code).toBe(1);
    expect(spawned.stderr).toContain('Chaves de operadora exigem --operator');
    // Nothing was created by the refused commands.
    const names = (await ctx().db.kysely.selectFrom('partners').select('name').execute()).map((p) => p.name);
    expect(names.filter((n) => n === 'X')).toEqual([]);
  });

  it('vpo:issue, passage:record and third-party:record go through the same services, idempotently', async () => {
    const url = ctx().config.databaseUrl;
    const d = await registerDriver(ctx().app);
    const t = await activeTag(ctx().app, d, { Operadora: SEMPARAR });
    const service = new PartnerService(ctx().db);
    const shipper = await service.create('shipper', 'Embarcador');
    const operator = await service.create('operator', 'Operadora', SEMPARAR);
    const platform = await service.create('platform', 'MoveMais');
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const passageOf = (value: string) => [
      'passage:record',
      '--partner',
      String(operator.id),
      '--externalId',
      'p1',
      '--serial',
      t.serial,
      '--place',
      'Praça Itatiba',
      '--value',
      value,
      '--at',
      at,
      '--third',
    ];
    const passageArgs = passageOf('9.80');
    const [vpo, passage, passageAgain, movement, wrongKind] = await Promise.all([
      cli(
        [
          'vpo:issue',
          '--partner',
          String(shipper.id),
          '--externalId',
          'v1',
          '--serial',
          t.serial,
          '--plate',
          t.plate,
          '--shipper',
          '11.222.333/0001-81',
          '--value',
          '250,75',
        ],
        url,
      ),
      cli(passageArgs, url),
      cli(passageArgs, url),
      cli(
        [
          'third-party:record',
          '--partner',
          String(platform.id),
          '--externalId',
          'm1',
          '--cpfCnpj',
          d.cpfCnpj,
          '--type',
          'credito',
          '--value',
          '50',
        ],
        url,
      ),
      cli(
        ['passage:record', '--partner', String(shipper.id), '--externalId', 'p2', '--serial', t.serial, '--place', 'X', '--value', '1'],
        url,
      ),
    ]);
    for (const out of [vpo, passage, passageAgain, movement]) expect(out.code, out.stderr).toBe(0);
    expect([passage.stdout, passageAgain.stdout].filter((o) => o.includes('já recebido antes'))).toHaveLength(1);
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toContain('exige operator');
    const res = await ctx().app.inject({ method: 'GET', url: '/api/pedagio/motoristaVpos', headers: bearer(d.token) });
    expect(json<{ VPOS: unknown[] }>(res).VPOS).toEqual([
      expect.objectContaining({ ValorTotalVP: 250.75, PlacaVeiculo: t.plate, Status: 'EMITIDO' }),
    ]);
    const balance = await ctx().app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) });
    expect(json(balance)).toMatchObject({ Saldo: 84.1, SaldoTerceiro: 40.2 });
    const origins = await ctx()
      .db.kysely.selectFrom('ledger_entries')
      .select('origin')
      .where('driver_id', '=', d.id)
      .where('reference', 'like', 'partner:%')
      .execute();
    expect(origins.map((o) => o.origin).sort()).toEqual([STATEMENT_ORIGINS.thirdPartyCredit, STATEMENT_ORIGINS.passage].sort());
    await expectLedgerInvariant(ctx().db);
    const [bad, conflict] = await Promise.all([
      cli(
        ['passage:record', '--partner', String(operator.id), '--externalId', 'p3', '--serial', t.serial, '--place', 'X', '--value', '0'],
        url,
      ),
      cli(passageOf('9.81'), url),
    ]);
    const inactive = await registerTag(ctx().app, d, { Operadora: SEMPARAR });
    await expect(
      recordPassage(ctx().db, [
        '--partner',
        String(operator.id),
        '--externalId',
        'p4',
        '--serial',
        inactive.serial,
        '--place',
        'X',
        '--value',
        '1',
      ]),
    ).rejects.toThrow(serverMessages.partner.tagNotActive);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('value');
    expect(conflict.code, conflict.stdout).toBe(1);
    expect(conflict.stderr).toContain(serverMessages.partner.externalIdConflict);
    expect(json(await ctx().app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) }))).toMatchObject({
      Saldo: 84.1,
      SaldoTerceiro: 40.2,
    });
  });
  it('vpo:issue takes the trip fields; vpo:show prints what GET /api/parceiro/vpos/:externalId answers (decision 52)', async () => {
    const { app, db } = ctx();
    const d = await registerDriver(app);
    const t = await activeTag(app, d, { Operadora: SEMPARAR });
    const service = new PartnerService(db);
    const shipper = await service.create('shipper', 'Transportes Vale Verde');
    const operator = await service.create('operator', 'Operadora', SEMPARAR);
    const vehicle = await db.kysely
      .selectFrom('vehicles')
      .select('rntrc_antt')
      .where('license_plate', '=', t.plate)
      .executeTakeFirstOrThrow();
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const end = new Date(Date.now() + 86_400_000).toISOString();
    // In process: the same functions `npm run cli` runs (the spawned CLI is proven above).
    const issued = await issueVpo(db, [
      ...['--partner', String(shipper.id), '--externalId', 'viagem-1', '--serial', t.serial, '--plate', t.plate],
      ...['--shipper', '11.222.333/0001-81', '--value', '30,00', '--origem', 'Campinas (SP)', '--destino', 'Santos (SP)'],
      ...['--inicio', start, '--fim', end, '--antt', 'ANTT-2026-000123', '--rntrc', vehicle.rntrc_antt, '--eixos', '3'],
    ]);
    expect(issued).toMatch(/^VPO registrado \(id \d+\)\.$/);
    await recordPassage(db, [
      ...['--partner', String(operator.id), '--externalId', 'p-viagem', '--serial', t.serial],
      ...['--place', 'Praça Itupeva', '--value', '12,50', '--at', new Date().toISOString()],
    ]);
    const shown = await showVpo(db, ['--partner', String(shipper.id), '--externalId', 'viagem-1']);
    expect(shown).toContain('VPO viagem-1');
    expect(shown).toContain('Emitido · ANTT ANTT-2026-000123');
    expect(shown).toContain(`RNTRC ${vehicle.rntrc_antt} · eixos 3`);
    expect(shown).toContain('Rota: Campinas (SP) – Santos (SP)');
    expect(shown).toMatch(/Valor R\$\s30,00 · utilizado R\$\s12,50 · restante R\$\s17,50 · devolvido R\$\s0,00/);
    expect(shown).toMatch(/Praça Itupeva\s+R\$\s12,50\s+pelo VPO/);
    // A wrong RNTRC is refused with the API's message; another shipper's VPO is not found.
    await expect(
      issueVpo(db, [
        ...['--partner', String(shipper.id), '--externalId', 'viagem-2', '--serial', t.serial, '--plate', t.plate],
        ...['--shipper', '11.222.333/0001-81', '--value', '10', '--rntrc', '11112222'],
      ]),
    ).rejects.toThrow(serverMessages.partner.rntrcMismatch);
    const other = await service.create('shipper', 'Outro embarcador');
    await expect(showVpo(db, ['--partner', String(other.id), '--externalId', 'viagem-1'])).rejects.toThrow(
      serverMessages.partner.vpoNotFound,
    );
    await expectLedgerInvariant(db);
  });
  /** A driver's passage of R$ 12,40 recorded by the operator through the CLI, and the driver's contest of it. */
  async function contestedPassage(operatorName: string) {
    const url = ctx().config.databaseUrl;
    const d = await registerDriver(ctx().app);
    const t = await activeTag(ctx().app, d, { Operadora: SEMPARAR });
    const operator = await new PartnerService(ctx().db).create('operator', operatorName, SEMPARAR);
    const recorded = await cli(
      [
        'passage:record',
        '--partner',
        String(operator.id),
        '--externalId',
        'pc1',
        '--serial',
        t.serial,
        '--place',
        'Praça Atibaia',
        '--value',
        '12,40',
      ],
      url,
    );
    expect(recorded.code, recorded.stderr).toBe(0);
    const rows = json<{ Transacoes: { placeName: string; passagem: { id: number } | null }[] }>(
      await ctx().app.inject({ method: 'GET', url: '/api/extrato/listar?page=1', headers: bearer(d.token) }),
    ).Transacoes;
    const passagemId = rows.find((r) => r.placeName === 'Praça Atibaia')?.passagem?.id;
    const opened = await ctx().app.inject({
      method: 'POST',
      url: '/api/motorista/contestacoes',
      headers: bearer(d.token),
      payload: { passagemId, motivo: 'CATEGORIA' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    return { url, d, operator, id: String(json<{ Contestacao: { id: number } }>(opened).Contestacao.id) };
  }

  it('contest:list shows contests, the overdue ones apart; contest:answer answers for the operator once (decision 56)', async () => {
    const { url, d, operator, id } = await contestedPassage('Operadora Contestada');
    const taggy = await new PartnerService(ctx().db).create('operator', 'Outra Operadora', OPERATORS.Taggy ?? '');

    expect((await cli(['contest:list', '--atrasadas'], url)).stdout).not.toContain(`#${id} `);
    await ctx()
      .db.kysely.updateTable('contests')
      .set({ due_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', Number(id))
      .execute();
    const overdue = await cli(['contest:list', '--atrasadas'], url);
    expect(overdue.code, overdue.stderr).toBe(0);
    expect(overdue.stdout).toContain(`#${id} · Em análise · ATRASADA`);
    expect(overdue.stdout).toContain('Praça Atibaia');
    const mine = await cli(['contest:list', '--partner', String(operator.id), '--estado', 'ABERTA'], url);
    expect(mine.stdout).toContain(`#${id} `);
    expect((await cli(['contest:list', '--partner', String(taggy.id)], url)).stdout).toContain('Nenhuma contestação');

    const answer = (partner: number, valor: string) => [
      'contest:answer',
      '--partner',
      String(partner),
      '--id',
      id,
      '--decisao',
      'ACEITA',
      '--valor',
      valor,
      '--motivo',
      'Categoria corrigida',
    ];
    const foreign = await cli(answer(taggy.id, '3,50'), url);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain(serverMessages.contest.contestNotFound);
    const before = await balances(ctx().db.kysely, d.id);
    const done = await cli(answer(operator.id, '3,50'), url);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('Resposta registrada.');
    const again = await cli(answer(operator.id, '3,50'), url);
    expect(again.stdout).toContain('já estava registrada');
    const other = await cli(answer(operator.id, '4,00'), url);
    expect(other.code).toBe(1);
    expect((await balances(ctx().db.kysely, d.id)).own).toBe(before.own + 350);
    await expectLedgerInvariant(ctx().db);
  });

  it('issue 33: contest:answer ACEITA without --valor gives back what the passage charged, and the help says so', async () => {
    const { url, d, operator, id } = await contestedPassage('Operadora Sem Valor');
    const before = await balances(ctx().db.kysely, d.id);
    const accept = ['contest:answer', '--partner', String(operator.id), '--id', id, '--decisao', 'ACEITA', '--motivo', 'Cobrança indevida'];
    const done = await cli(accept, url);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/Resposta registrada\.[\s\S]*devolvido R\$\s12,40/);
    expect((await balances(ctx().db.kysely, d.id)).own).toBe(before.own + 1_240);
    // Answered again the same way: nothing moves twice.
    expect((await cli(accept, url)).stdout).toContain('já estava registrada');
    expect((await balances(ctx().db.kysely, d.id)).own).toBe(before.own + 1_240);
    expect((await cli(['help'], url)).stdout).toContain('ACEITA sem --valor devolve tudo o que a passagem cobrou');
    await expectLedgerInvariant(ctx().db);
  });
});
