import { formatBrl, TAG_ORIGEM, TAG_STATUS, vehicleBudgetMessages } from '@portal/domain';
import { cnpj } from 'cpf-cnpj-validator';
import { expect, it } from 'vitest';
import { registerDriver } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { joinCompany, onCompany } from '../../helpers/fleet.js';
import { expectLedgerInvariant, fund, ownBalance, usePixTestApp } from '../../helpers/pix.js';
import { activeTag, SEMPARAR, tagStatus } from '../../helpers/tags.js';
import { saoPaulo } from '../../helpers/world.js';
import { PartnerService } from '../../../src/modules/partners/service.js';
import { BudgetBlocker } from '../../../src/modules/vehicle-budgets/blocks.js';
import { LocalTagOperatorGateway } from '../../../src/adapters/operators/local.js';
import type { Db } from '../../../src/db/connection.js';

const on = onCompany;

/** The notifications queued for a person, of the budget kinds, as (kind, percent). */
async function budgetNotices(db: Db, personId: number): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('notification_outbox')
    .select(['kind', 'payload'])
    .where('driver_id', '=', personId)
    .where('kind', 'in', ['vehicleBudgetReached', 'vehicleBudgetBlocked'])
    .orderBy('id')
    .execute();
  return rows.map((r) => {
    const payload = JSON.parse(r.payload) as { percent?: number };
    return payload.percent === undefined ? r.kind : `${r.kind}:${payload.percent}`;
  });
}

describeEachDatabase('orçamento mensal por veículo (decisão 78)', (dialect) => {
  const { app: appOf, db: dbOf } = usePixTestApp(dialect);

  async function fleet() {
    const app = appOf();
    const firm = await registerDriver(app, { name: 'Transportes Orçamento Ltda', cpfCnpj: cnpj.generate() });
    const member = (name: string, papel: 'gestor' | 'financeiro' | 'motorista') => joinCompany(app, firm, name, papel);
    const { person: ana } = await member('Ana Gestora', 'gestor');
    const { person: fin } = await member('Fábio Financeiro', 'financeiro');
    const { person: moto, memberId: motoId } = await member('Mário Motorista', 'motorista');
    await fund(app, firm, 500);
    const truck = await activeTag(app, firm, { Operadora: SEMPARAR });
    const assigned = await on(app, firm, firm, 'POST', `/api/empresa/veiculos/${truck.vehicleId}/motoristas`, { motoristas: [motoId] });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const operator = (await new PartnerService(dbOf()).create('operator', 'SemParar Orçamento', SEMPARAR)).key;
    let n = 0;
    const pass = async (value: number) => {
      n += 1;
      const res = await app.inject({
        method: 'POST',
        url: '/api/parceiro/passagens',
        headers: { 'x-api-key': operator },
        payload: {
          externalId: `orc-${truck.serial}-${n}`,
          serialNumber: truck.serial,
          placeName: 'Praça Registro (BR-116)',
          value,
          occurredAt: saoPaulo(10).local,
          is_third: false,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    return { app, firm, ana, fin, moto, truck, pass };
  }

  it('Gestor e Financeiro definem o orçamento; o Motorista não; valor errado e conta de CPF dizem por quê e nada mudam', async () => {
    const { app, firm, ana, fin, moto, truck } = await fleet();
    const url = `/api/empresa/veiculos/${truck.vehicleId}/orcamento`;
    const set = await on(app, firm, ana, 'POST', url, { valor: 1000, bloquearNoLimite: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      Mensagem: vehicleBudgetMessages.setWithBlock(truck.plate, formatBrl(100_000)),
      Orcamento: { placa: truck.plate, orcamento: 1000, gasto: 0, percentual: 0, bloquearNoLimite: true, bloqueadaPeloOrcamento: false },
    });
    const byFin = await on(app, firm, fin, 'POST', url, { valor: 800.5, bloquearNoLimite: false });
    expect(byFin.statusCode, byFin.body).toBe(200);
    expect(byFin.json<{ Mensagem: string }>().Mensagem).toBe(vehicleBudgetMessages.set(truck.plate, formatBrl(80_050)));
    expect((await on(app, firm, moto, 'POST', url, { valor: 5, bloquearNoLimite: false })).statusCode).toBe(403);
    expect((await on(app, firm, moto, 'GET', '/api/empresa/orcamentos?page=1')).statusCode).toBe(403);

    for (const valor of [0, -10, 1_000_001, 10.001, 'mil']) {
      const bad = await on(app, firm, ana, 'POST', url, { valor, bloquearNoLimite: false });
      expect(bad.statusCode).toBe(422);
      expect(bad.json<{ Mensagem: string }>().Mensagem).toBe(vehicleBudgetMessages.invalid);
    }
    const elsewhere = await registerDriver(app, { name: 'Outra Transportadora', cpfCnpj: cnpj.generate() });
    expect((await on(app, elsewhere, elsewhere, 'POST', url, { valor: 10, bloquearNoLimite: false })).statusCode).toBe(404);
    const own = await on(app, moto, moto, 'GET', '/api/empresa/orcamentos?page=1');
    expect(own.statusCode).toBe(403);
    expect(own.json<{ Mensagem: string }>().Mensagem).toBe(vehicleBudgetMessages.onlyCompanies);

    const list = (await on(app, firm, fin, 'GET', '/api/empresa/orcamentos?page=1')).json<{ Orcamentos: unknown[] }>();
    expect(list.Orcamentos).toEqual([expect.objectContaining({ placa: truck.plate, orcamento: 800.5, bloquearNoLimite: false })]);
    const trail = (await on(app, firm, ana, 'GET', '/api/empresa/auditoria?page=1')).json<{
      Registros: { acao: string; resultado: string; antes: string | null; depois: string | null }[];
    }>();
    // Each change once, with before and after; the Motorista's attempts recorded as refused.
    const changes = trail.Registros.filter((r) => r.acao.includes('orçamento') && r.resultado === 'ok');
    expect(changes.map((r) => r.acao)).toEqual(['Alterou o orçamento mensal de um veículo', 'Alterou o orçamento mensal de um veículo']);
    expect(trail.Registros.filter((r) => r.resultado === 'negado')).toHaveLength(2);
    expect(JSON.parse(changes[0]?.antes ?? 'null')).toEqual({ placa: truck.plate, valor: 1000, bloquearNoLimite: true });
    expect(JSON.parse(changes[0]?.depois ?? 'null')).toEqual({ placa: truck.plate, valor: 800.5, bloquearNoLimite: false });
  });

  it('80 % e 100 % avisam os Gestores uma vez no mês; a passagem é sempre paga; a tag bloqueia e só o Gestor libera', async () => {
    const { app, firm, ana, fin, moto, truck, pass } = await fleet();
    const db = dbOf();
    await on(app, firm, ana, 'POST', `/api/empresa/veiculos/${truck.vehicleId}/orcamento`, { valor: 100, bloquearNoLimite: true });

    const start = await ownBalance(app, firm);
    await pass(70);
    expect(await budgetNotices(db, ana.id)).toEqual([]);
    await pass(15);
    expect(await budgetNotices(db, ana.id)).toEqual(['vehicleBudgetReached:80']);
    expect(await budgetNotices(db, firm.id)).toEqual(['vehicleBudgetReached:80']);
    expect(await budgetNotices(db, fin.id)).toEqual([]);
    const notices = (await on(app, firm, fin, 'GET', '/api/motorista/avisos')).json<{ Avisos: { tipo: string; Mensagem: string }[] }>();
    expect(notices.Avisos.find((a) => a.tipo === 'orcamento-veiculo')?.Mensagem).toBe(
      vehicleBudgetMessages.reached(truck.plate, 85, formatBrl(8_500), formatBrl(10_000)),
    );

    await pass(20);
    expect(await ownBalance(app, firm)).toBeCloseTo(start - 105, 2);
    expect(await budgetNotices(db, ana.id)).toEqual(['vehicleBudgetReached:80', 'vehicleBudgetReached:100']);
    // The block goes through the operator outside the passage's transaction.
    expect(await tagStatus(app, firm, truck.plate)).toBe(TAG_STATUS.active);
    const blocker = new BudgetBlocker(db, new LocalTagOperatorGateway(), appOf().log);
    expect(await blocker.run()).toMatchObject({ blocked: 1, failed: 0 });
    expect(await blocker.run()).toEqual({ blocked: 0, ignored: 0, failed: 0 });
    expect(await tagStatus(app, firm, truck.plate)).toBe(TAG_STATUS.blockedByDriver);
    const detail = async () =>
      (await on(app, firm, moto, 'GET', `/api/veiculo/detail/${truck.plate}`)).json<{ Dados: { tag: { bloqueioOrcamento?: boolean } } }>()
        .Dados.tag;
    expect(await detail()).toMatchObject({ bloqueioOrcamento: true });
    expect(await budgetNotices(db, moto.id)).toEqual(['vehicleBudgetBlocked']);
    expect(await budgetNotices(db, ana.id)).toContain('vehicleBudgetBlocked');
    const listed = (await on(app, firm, fin, 'GET', '/api/empresa/orcamentos?page=1')).json<{
      Orcamentos: { percentual: number; gasto: number; bloqueadaPeloOrcamento: boolean }[];
    }>();
    expect(listed.Orcamentos[0]).toMatchObject({ percentual: 105, gasto: 105, bloqueadaPeloOrcamento: true });

    // A passage the operator charges after the block (made before it) is still paid.
    await pass(4.5);
    expect(await ownBalance(app, firm)).toBeCloseTo(start - 109.5, 2);

    const release = { serialNumber: truck.serial, statusId: '100', origem: TAG_ORIGEM };
    // Only a Gestor releases it; the month's 100 % is told once, and does not block again.
    for (const who of [fin, moto]) {
      expect((await on(app, firm, who, 'POST', '/api/tag/liberar-motorista', release)).statusCode).toBe(403);
    }
    const released = await on(app, firm, ana, 'POST', '/api/tag/liberar-motorista', release);
    expect(released.statusCode, released.body).toBe(200);
    expect(await tagStatus(app, firm, truck.plate)).toBe(TAG_STATUS.active);
    expect((await detail()).bloqueioOrcamento).toBeUndefined();
    await pass(30);
    expect(await blocker.run()).toEqual({ blocked: 0, ignored: 0, failed: 0 });
    expect(await tagStatus(app, firm, truck.plate)).toBe(TAG_STATUS.active);
    expect((await budgetNotices(db, ana.id)).filter((k) => k.startsWith('vehicleBudgetReached'))).toHaveLength(2);
    const block = await db.kysely
      .selectFrom('budget_blocks')
      .select(['state', 'released_by'])
      .where('vehicle_id', '=', truck.vehicleId)
      .executeTakeFirstOrThrow();
    expect(block).toEqual({ state: 'liberada', released_by: ana.id });
    await expectLedgerInvariant(db);
  });

  it('sem bloqueio escolhido, 100 % só avisa; um orçamento definido no meio do mês parte do que o mês já gastou', async () => {
    const { app, firm, ana, truck, pass } = await fleet();
    const db = dbOf();
    await pass(90);
    const set = await on(app, firm, ana, 'POST', `/api/empresa/veiculos/${truck.vehicleId}/orcamento`, {
      valor: 100,
      bloquearNoLimite: false,
    });
    expect(set.json()).toMatchObject({ Orcamento: { gasto: 90, percentual: 90 } });
    await pass(10);
    expect(await budgetNotices(db, ana.id)).toEqual(['vehicleBudgetReached:100']);
    expect(await db.kysely.selectFrom('budget_blocks').selectAll().where('vehicle_id', '=', truck.vehicleId).execute()).toEqual([]);
    expect(await tagStatus(app, firm, truck.plate)).toBe(TAG_STATUS.active);
  });
});
