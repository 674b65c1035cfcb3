import { STATEMENT_ORIGINS } from '@portal/domain';
import { expect, it } from 'vitest';
import { partnerByKey } from '../src/modules/partners/keys.js';
import { PartnerService } from '../src/modules/partners/service.js';
import { bearer, json, registerDriver, useTestApp } from './helpers/app.js';
import { describeEachDatabase } from './helpers/databases.js';
import { expectLedgerInvariant } from './helpers/pix.js';
import { registerTag } from './helpers/tags.js';
import { runCli } from './helpers/cli.js';

/** The CLI against one database. */
const cli = (args: string[], databaseUrl: string) => runCli(args, { DATABASE_URL: databaseUrl });

describeEachDatabase('cli de parceiros', (dialect) => {
  const ctx = useTestApp(dialect);

  it('partner:create prints the key alone on its last line; list shows the prefix; revoke makes it unknown', async () => {
    const url = ctx().config.databaseUrl;
    const created = await cli(['partner:create', '--kind', 'operator', '--name', 'Operadora Teste'], url);
    expect(created.code, created.stderr).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    const key = lines.at(-1) ?? '';
    expect(key).toMatch(/^pm_[A-Za-z0-9_-]{43}$/);
    expect(lines.slice(0, -1).join('\n')).not.toContain(key);
    const partner = await partnerByKey(ctx().db.kysely, key);
    expect(partner).toMatchObject({ kind: 'operator', name: 'Operadora Teste' });
    const stored = await ctx().db.kysely.selectFrom('partners').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(key);

    const list = await cli(['partner:list'], url);
    expect(list.stdout).toContain(key.slice(0, 10));
    expect(list.stdout).not.toContain(key);
    expect((await cli(['partner:create', '--kind', 'banco', '--name', 'X'], url)).code).toBe(1);
    expect((await cli(['help'], url)).stdout).toContain('partner:create --kind shipper|operator|platform');

    const revoked = await cli(['partner:revoke', String(partner?.id)], url);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await partnerByKey(ctx().db.kysely, key)).toBeNull();
  });

  it('vpo:issue, passage:record and third-party:record go through the same services, idempotently', async () => {
    const url = ctx().config.databaseUrl;
    const d = await registerDriver(ctx().app);
    const t = await registerTag(ctx().app, d);
    const service = new PartnerService(ctx().db);
    const shipper = await service.create('shipper', 'Embarcador');
    const operator = await service.create('operator', 'Operadora');
    const platform = await service.create('platform', 'MoveMais');
    const [vpo, passage, passageAgain, movement, wrongKind] = await Promise.all([
      cli(['vpo:issue', '--partner', String(shipper.id), '--externalId', 'v1', '--serial', t.serial, '--plate', t.plate, '--shipper', '11.222.333/0001-81', '--value', '250,75'], url),
      cli(['passage:record', '--partner', String(operator.id), '--externalId', 'p1', '--serial', t.serial, '--place', 'Praça Itatiba', '--value', '9.80', '--third'], url),
      cli(['passage:record', '--partner', String(operator.id), '--externalId', 'p1', '--serial', t.serial, '--place', 'Praça Itatiba', '--value', '9.80', '--third'], url),
      cli(['third-party:record', '--partner', String(platform.id), '--externalId', 'm1', '--cpfCnpj', d.cpfCnpj, '--type', 'credito', '--value', '50'], url),
      cli(['passage:record', '--partner', String(shipper.id), '--externalId', 'p2', '--serial', t.serial, '--place', 'X', '--value', '1'], url),
    ]);
    for (const out of [vpo, passage, passageAgain, movement]) expect(out.code, out.stderr).toBe(0);
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toContain('exige operator');
    const res = await ctx().app.inject({ method: 'GET', url: '/api/pedagio/motoristaVpos', headers: bearer(d.token) });
    expect(json<{ VPOS: unknown[] }>(res).VPOS).toEqual([expect.objectContaining({ ValorTotalVP: 250.75, PlacaVeiculo: t.plate, Status: 'EMITIDO' })]);
    const balance = await ctx().app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) });
    expect(json(balance)).toMatchObject({ Saldo: 0, SaldoTerceiro: 40.2 });
    const origins = await ctx().db.kysely.selectFrom('ledger_entries').select('origin').where('driver_id', '=', d.id).execute();
    expect(origins.map((o) => o.origin).sort()).toEqual([STATEMENT_ORIGINS.thirdPartyCredit, STATEMENT_ORIGINS.passage].sort());
    await expectLedgerInvariant(ctx().db);
    const bad = await cli(['passage:record', '--partner', String(operator.id), '--externalId', 'p3', '--serial', t.serial, '--place', 'X', '--value', '0'], url);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('value');
  });
});
