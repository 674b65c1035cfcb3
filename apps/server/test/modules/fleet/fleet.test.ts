import { ACTING_ACCOUNT_HEADER, billingPeriod, costCentreMessages, fleetMessages, maskCpfCnpj, TAG_ORIGEM } from '@portal/domain';
import { cnpj } from 'cpf-cnpj-validator';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, newCpf, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { expectLedgerInvariant, fund } from '../../helpers/pix.js';
import { activeTag, registerTag, SEMPARAR } from '../../helpers/tags.js';
import { saoPaulo, saoPauloThisMonth } from '../../helpers/world.js';
import { PartnerService } from '../../../src/modules/partners/service.js';

/** A call as `who`, acting on `account` (its id in X-Conta) when given. */
function call(app: FastifyInstance, who: Registered, method: 'GET' | 'POST' | 'DELETE', url: string, account?: number, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: { ...bearer(who.token), ...(account ? { [ACTING_ACCOUNT_HEADER]: String(account) } : {}) },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

describeEachDatabase('frotas: membros, papéis, veículos atribuídos e auditoria (decisão 77)', (dialect) => {
  const ctx = useTestApp(dialect);

  async function company(): Promise<Registered> {
    return registerDriver(ctx().app, { name: 'Transportes Teste Ltda', cpfCnpj: cnpj.generate() });
  }

  /** The company's holder invites a person in a role; the person accepts. Returns the member id. */
  async function join(
    holder: Registered,
    person: Registered,
    papel: 'gestor' | 'financeiro' | 'motorista',
    actingAs?: Registered,
  ): Promise<number> {
    const { app } = ctx();
    const invited = await call(app, actingAs ?? holder, 'POST', '/api/empresa/membros', actingAs ? holder.id : undefined, {
      cpf: person.cpfCnpj,
      papel,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const invitations = (await call(app, person, 'GET', '/api/convites')).json<{ Convites: { id: number; empresa: string }[] }>();
    const invitation = invitations.Convites.find((c) => c.empresa === 'Transportes Teste Ltda');
    expect(invitation).toBeDefined();
    const accepted = await call(app, person, 'POST', `/api/convites/${invitation?.id}/aceitar`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    return invited.json<{ Membro: { id: number } }>().Membro.id;
  }

  /** A company with two Motoristas, the first assigned an active truck. */
  async function twoMotoristas() {
    const { app } = ctx();
    const firm = await company();
    const moto = await registerDriver(app, { name: 'Mário Motorista' });
    const other = await registerDriver(app, { name: 'Otávio Motorista' });
    const motoId = await join(firm, moto, 'motorista');
    await join(firm, other, 'motorista');
    const truck = await activeTag(app, firm);
    const assigned = await call(app, firm, 'POST', `/api/empresa/veiculos/${truck.vehicleId}/motoristas`, undefined, {
      motoristas: [motoId],
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    return { firm, moto, other, motoId, truck };
  }

  it('convida pelo CPF, a pessoa aceita e passa a ver a conta da empresa no seletor, com o papel', async () => {
    const { app } = ctx();
    const firm = await company();
    const ana = await registerDriver(app, { name: 'Ana Gestora' });
    await join(firm, ana, 'gestor');
    const accounts = (await call(app, ana, 'GET', '/api/contas')).json<{
      Contas: { id: number; nome: string; papel: string; propria: boolean }[];
    }>();
    expect(accounts.Contas.map((c) => [c.nome, c.papel, c.propria])).toEqual([
      ['Ana Gestora', 'titular', true],
      ['Transportes Teste Ltda', 'gestor', false],
    ]);
    // Acting on the company: its balance, not Ana's.
    await fund(app, firm, 120);
    await fund(app, ana, 150);
    const balance = await call(app, ana, 'GET', '/api/motorista/saldo', firm.id);
    expect(balance.json<{ Saldo: number }>().Saldo).toBe(120);
    expect((await call(app, ana, 'GET', '/api/motorista/saldo')).json<{ Saldo: number }>().Saldo).toBe(150);
    await expectLedgerInvariant(ctx().db);
  });

  it('um convite para um CPF sem conta espera o cadastro; um CNPJ, um CPF inválido ou um convite repetido são recusados sem gravar', async () => {
    const { app, db } = ctx();
    const firm = await company();
    const cpf = newCpf();
    const waiting = await call(app, firm, 'POST', '/api/empresa/membros', undefined, { cpf, papel: 'motorista' });
    expect(waiting.statusCode, waiting.body).toBe(201);
    expect(waiting.json<{ Mensagem: string }>().Mensagem).toBe(fleetMessages.invited);
    const again = await call(app, firm, 'POST', '/api/empresa/membros', undefined, { cpf, papel: 'gestor' });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ Mensagem: string }>().Mensagem).toBe(fleetMessages.alreadyMember);
    const bad = await call(app, firm, 'POST', '/api/empresa/membros', undefined, { cpf: '111.111.111-11', papel: 'gestor' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ errors: Record<string, string[]> }>().errors.cpf).toEqual(['CPF inválido']);
    const aCnpj = await call(app, firm, 'POST', '/api/empresa/membros', undefined, { cpf: cnpj.generate(), papel: 'gestor' });
    expect(aCnpj.json<{ errors: Record<string, string[]> }>().errors.cpf).toEqual([fleetMessages.inviteCpfOnly]);
    const noRole = await call(app, firm, 'POST', '/api/empresa/membros', undefined, { cpf: newCpf(), papel: 'dono' });
    expect(noRole.statusCode).toBe(422);
    const members = await db.kysely.selectFrom('company_members').select('cpf').where('company_id', '=', firm.id).execute();
    expect(members.map((m) => m.cpf)).toEqual([cpf]);
    // The person registers: the invitation is there.
    const joe = await registerDriver(app, { name: 'José Motorista', cpfCnpj: cpf });
    const invitations = (await call(app, joe, 'GET', '/api/convites')).json<{ Convites: { papel: string }[] }>();
    expect(invitations.Convites.map((c) => c.papel)).toEqual(['motorista']);
    // A person's own account (CPF) has no members.
    const solo = await call(app, joe, 'POST', '/api/empresa/membros', undefined, { cpf: newCpf(), papel: 'gestor' });
    expect(solo.statusCode).toBe(403);
    expect(solo.json<{ Mensagem: string }>().Mensagem).toBe(fleetMessages.onlyCompanies);
  });

  it('cada papel faz só o que pode; o Motorista vê só os veículos atribuídos', async () => {
    const { app } = ctx();
    const firm = await company();
    const fin = await registerDriver(app, { name: 'Fábio Financeiro' });
    const moto = await registerDriver(app, { name: 'Mário Motorista' });
    const other = await registerDriver(app, { name: 'Otávio Motorista' });
    await join(firm, fin, 'financeiro');
    const motoId = await join(firm, moto, 'motorista');
    await join(firm, other, 'motorista');
    const truck1 = await registerTag(app, firm);
    const truck2 = await registerTag(app, firm);

    const assigned = await call(app, firm, 'POST', `/api/empresa/veiculos/${truck1.vehicleId}/motoristas`, undefined, {
      motoristas: [motoId],
    });
    expect(assigned.statusCode, assigned.body).toBe(200);

    const plates = async (who: Registered) =>
      (await call(app, who, 'GET', '/api/veiculo/listar', firm.id))
        .json<{ Veiculos: { LicensePlate: string }[] }>()
        .Veiculos.map((v) => v.LicensePlate);
    expect(await plates(moto)).toEqual([truck1.plate]);
    expect(await plates(other)).toEqual([]);
    expect((await plates(fin)).sort()).toEqual([truck1.plate, truck2.plate].sort());
    const tags = (await call(app, moto, 'GET', '/api/tag/listar', firm.id)).json<{ Tags: { serialNumber: string }[] }>();
    expect(tags.Tags.map((t) => t.serialNumber)).toEqual([truck1.serial]);
    expect((await call(app, moto, 'GET', `/api/veiculo/detail/${truck2.plate}`, firm.id)).statusCode).toBe(404);
    expect((await call(app, moto, 'GET', `/api/veiculo/detail/${truck1.plate}`, firm.id)).statusCode).toBe(200);

    const forbidden = [
      [moto, 'GET', '/api/motorista/saldo'],
      [moto, 'GET', '/api/extrato/listar'],
      [fin, 'POST', '/api/tag/bloquear'],
      [fin, 'GET', '/api/motorista/chaves-pix'],
      [fin, 'GET', '/api/empresa/membros'],
      [moto, 'GET', '/api/empresa/auditoria'],
    ] as const;
    for (const [who, method, url] of forbidden) {
      const res = await call(app, who, method, url, firm.id, method === 'POST' ? { serialNumber: truck1.serial } : undefined);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
      expect(res.json<{ Mensagem: string }>().Mensagem).toMatch(
        /^O seu papel nesta empresa \((Motorista|Financeiro)\) não permite esta ação\.$/,
      );
    }
    expect((await call(app, fin, 'GET', '/api/extrato/listar', firm.id)).statusCode).toBe(200);
    // Self calls act on the person whatever X-Conta says.
    const profile = await call(app, moto, 'GET', '/api/motorista/dados', firm.id);
    expect(profile.json<{ Dados: { cpfCnpj: string } }>().Dados.cpfCnpj).toBe(moto.cpfCnpj);
    // The refusals are on the company's trail, attributable.
    const trail = (await call(app, firm, 'GET', '/api/empresa/auditoria?resultado=negado')).json<{
      Registros: { quem: string; papel: string }[];
    }>();
    expect(trail.Registros.length).toBe(forbidden.length);
    expect(trail.Registros.map((r) => r.quem)).toContain('Mário Motorista');
  });

  it('remover um membro termina o acesso na hora, na sessão aberta; a empresa mantém um Gestor', async () => {
    const { app, db } = ctx();
    const firm = await company();
    const ana = await registerDriver(app, { name: 'Ana Gestora' });
    const bia = await registerDriver(app, { name: 'Bia Gestora' });
    const anaId = await join(firm, ana, 'gestor');
    const biaId = await join(firm, bia, 'gestor', ana);
    expect((await call(app, bia, 'GET', '/api/motorista/saldo', firm.id)).statusCode).toBe(200);
    const removed = await call(app, ana, 'DELETE', `/api/empresa/membros/${biaId}`, firm.id);
    expect(removed.statusCode, removed.body).toBe(200);
    const after = await call(app, bia, 'GET', '/api/motorista/saldo', firm.id);
    expect(after.statusCode).toBe(403);
    expect(after.json<{ code: string }>().code).toBe('ACCOUNT_ACCESS_ENDED');
    // Bia keeps her own account.
    expect((await call(app, bia, 'GET', '/api/motorista/saldo')).statusCode).toBe(200);
    // Ana is the last Gestor: she can neither leave nor become Financeiro.
    const last = await call(app, ana, 'DELETE', `/api/empresa/membros/${anaId}`, firm.id);
    expect(last.statusCode).toBe(409);
    expect(last.json<{ Mensagem: string }>().Mensagem).toBe(fleetMessages.lastGestor);
    const demote = await call(app, ana, 'POST', `/api/empresa/membros/${anaId}/papel`, firm.id, { papel: 'financeiro' });
    expect(demote.statusCode).toBe(409);
    // Another company's member id is not found; nothing changes.
    const elsewhere = await company();
    expect((await call(app, elsewhere, 'DELETE', `/api/empresa/membros/${anaId}`)).statusCode).toBe(404);
    const state = await db.kysely
      .selectFrom('company_members')
      .select(['id', 'state'])
      .where('company_id', '=', firm.id)
      .orderBy('id')
      .execute();
    expect(state).toEqual([
      { id: anaId, state: 'ativo' },
      { id: biaId, state: 'removido' },
    ]);
    // Bia's actions stay on the trail after she left.
    const trail = (await call(app, firm, 'GET', '/api/empresa/auditoria')).json<{ Registros: { quem: string; acao: string }[] }>();
    expect(trail.Registros).toContainEqual(expect.objectContaining({ quem: 'Bia Gestora', acao: 'Aceitou o convite' }));
    expect(trail.Registros[0]).toMatchObject({ quem: 'Ana Gestora', acao: 'Removeu um membro' });
  });

  it('dois Gestores rebaixando um ao outro ao mesmo tempo: um só passa', async () => {
    const { app } = ctx();
    const firm = await company();
    const ana = await registerDriver(app, { name: 'Ana Gestora' });
    const bia = await registerDriver(app, { name: 'Bia Gestora' });
    const anaId = await join(firm, ana, 'gestor');
    const biaId = await join(firm, bia, 'gestor', ana);
    const [a, b] = await Promise.all([
      call(app, ana, 'POST', `/api/empresa/membros/${biaId}/papel`, firm.id, { papel: 'financeiro' }),
      call(app, bia, 'POST', `/api/empresa/membros/${anaId}/papel`, firm.id, { papel: 'financeiro' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
  });

  it('o registro de ações é somente inclusão, filtra e exporta em CSV', async () => {
    const { app, db } = ctx();
    const firm = await company();
    const ana = await registerDriver(app, { name: 'Ana Gestora' });
    const anaId = await join(firm, ana, 'gestor');
    const truck = await activeTag(app, firm);
    const block = await call(app, ana, 'POST', '/api/tag/bloquear', firm.id, {
      serialNumber: truck.serial,
      statusId: '200',
      origem: TAG_ORIGEM,
    });
    expect(block.statusCode, block.body).toBe(200);
    const mine = (await call(app, ana, 'GET', `/api/empresa/auditoria?membro=${anaId}`, firm.id)).json<{
      Registros: { acao: string; depois: string | null; endereco: string }[];
    }>();
    expect(mine.Registros[0]?.depois).toContain(truck.serial);
    expect(mine.Registros.every((r) => r.endereco.length > 0)).toBe(true);
    const csv = await call(app, ana, 'GET', `/api/empresa/auditoria/exportar?membro=${anaId}`, firm.id);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain('Ana Gestora');
    expect(csv.body.split('\r\n')[0]).toBe('\uFEFFData e hora;Quem;Documento;Papel;Ação;Resultado;Endereço;Antes;Depois');
    // Taking the trail as a file is itself on the trail, once.
    const after = (await call(app, ana, 'GET', `/api/empresa/auditoria?membro=${anaId}`, firm.id)).json<{
      Registros: { acao: string }[];
    }>();
    expect(after.Registros.filter((r) => r.acao === 'O registro das ações em CSV, com os mesmos filtros (Gestor)')).toHaveLength(1);
    await expect(db.kysely.updateTable('audit_events').set({ action: 'nada' }).execute()).rejects.toThrow(/somente inclusão/);
    await expect(db.kysely.deleteFrom('audit_events').execute()).rejects.toThrow(/somente inclusão/);
  });

  it('a passagem e o VPO de um caminhão atribuído aparecem para o seu Motorista e não para o outro', async () => {
    const { app, db } = ctx();
    const { firm, moto, other, truck } = await twoMotoristas();
    const partners = new PartnerService(db);
    const operator = (await partners.create('operator', 'SemParar Frota', SEMPARAR)).key;
    const shipper = (await partners.create('shipper', 'Embarcadora Frota')).key;
    const vpo = await app.inject({
      method: 'POST',
      url: '/api/parceiro/vpos',
      headers: { 'x-api-key': shipper },
      payload: {
        externalId: `vpo-${truck.serial}`,
        serialNumber: truck.serial,
        PlacaVeiculo: truck.plate,
        CpfCnpjEmbarcador: cnpj.generate(),
        ValorTotalVP: 80,
      },
    });
    expect([200, 201], vpo.body).toContain(vpo.statusCode);
    const passage = await app.inject({
      method: 'POST',
      url: '/api/parceiro/passagens',
      headers: { 'x-api-key': operator },
      payload: {
        externalId: `p-${truck.serial}`,
        serialNumber: truck.serial,
        placeName: 'Praça Jacareí',
        value: 12.3,
        occurredAt: saoPaulo(30).local,
        is_third: false,
      },
    });
    expect(passage.statusCode, passage.body).toBe(200);

    const passages = (who: Registered) => call(app, who, 'GET', '/api/veiculo/passagens', firm.id);
    const seen = (await passages(moto)).json<{ Passagens: { placa: string; praca: string; valor: number }[] }>().Passagens;
    expect(seen).toEqual([expect.objectContaining({ placa: truck.plate, praca: 'Praça Jacareí', valor: 12.3 })]);
    expect((await passages(other)).json<{ Passagens: unknown[] }>().Passagens).toEqual([]);
    const vpos = (who: Registered) => call(app, who, 'GET', '/api/pedagio/motoristaVpos?page=1', firm.id);
    expect((await vpos(moto)).json<{ VPOS: { PlacaVeiculo: string }[] }>().VPOS.map((v) => v.PlacaVeiculo)).toEqual([truck.plate]);
    expect((await vpos(other)).json<{ VPOS: unknown[] }>().VPOS).toEqual([]);
    const vpoId = Number(vpo.json<{ id: string }>().id);
    expect((await call(app, other, 'GET', `/api/pedagio/motoristaVpos/${vpoId}`, firm.id)).statusCode).toBe(404);
    expect((await call(app, moto, 'GET', `/api/pedagio/motoristaVpos/${vpoId}`, firm.id)).statusCode).toBe(200);
    // The VPO's money is the company's, held for the trip; the passage paid from it.
    await expectLedgerInvariant(db);
  });

  it('centros de custo: o relatório do mês por placa soma pedágios (e o que o VPO pagou), mensalidades e VPO recebido', async () => {
    const { app, db } = ctx();
    const firm = await company();
    const fin = await registerDriver(app, { name: 'Fábio Financeiro' });
    const moto = await registerDriver(app, { name: 'Mário Motorista' });
    await join(firm, fin, 'financeiro');
    await join(firm, moto, 'motorista');
    const south = await call(app, firm, 'POST', '/api/empresa/centros-de-custo', undefined, { nome: 'Operação Sul', codigo: 'op-sul' });
    expect(south.statusCode, south.body).toBe(201);
    const southId = south.json<{ Centro: { id: number; codigo: string } }>().Centro.id;
    expect(south.json<{ Centro: { codigo: string } }>().Centro.codigo).toBe('OP-SUL');
    const again = await call(app, firm, 'POST', '/api/empresa/centros-de-custo', undefined, { nome: 'Outro', codigo: 'OP-SUL' });
    expect(again.statusCode).toBe(422);
    expect(again.json<{ errors: Record<string, string[]> }>().errors.codigo).toEqual([costCentreMessages.codeTaken]);
    const north = (
      await call(app, firm, 'POST', '/api/empresa/centros-de-custo', undefined, { nome: 'Operação Norte', codigo: 'OP-NORTE' })
    ).json<{ Centro: { id: number } }>().Centro.id;
    expect((await call(app, fin, 'POST', '/api/empresa/centros-de-custo', firm.id, { nome: 'X', codigo: 'X' })).statusCode).toBe(403);
    // Each creation once on the trail, with what was created (not again as the bare call).
    const created = (await call(app, firm, 'GET', '/api/empresa/auditoria?resultado=ok')).json<{
      Registros: { acao: string; depois: string | null }[];
    }>();
    expect(created.Registros.filter((r) => r.acao !== 'Convidou um membro' && r.acao !== 'Aceitou o convite').map((r) => r.acao)).toEqual([
      'Criou um centro de custo',
      'Criou um centro de custo',
    ]);

    const truck = await activeTag(app, firm);
    const other = await activeTag(app, firm);
    expect(
      (await call(app, firm, 'POST', `/api/empresa/veiculos/${truck.vehicleId}/centro-de-custo`, undefined, { centroDeCusto: southId }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call(app, firm, 'POST', `/api/empresa/veiculos/${other.vehicleId}/centro-de-custo`, undefined, { centroDeCusto: north }))
        .statusCode,
    ).toBe(200);
    const partners = new PartnerService(db);
    const operator = (await partners.create('operator', 'SemParar Centro', SEMPARAR)).key;
    const shipper = (await partners.create('shipper', 'Embarcadora Centro')).key;
    const trip = { inicioViagem: saoPauloThisMonth(120).local, fimViagem: saoPaulo(-600).local };
    const vpo = await app.inject({
      method: 'POST',
      url: '/api/parceiro/vpos',
      headers: { 'x-api-key': shipper },
      payload: {
        externalId: `vpo-cc-${truck.serial}`,
        serialNumber: truck.serial,
        PlacaVeiculo: truck.plate,
        CpfCnpjEmbarcador: cnpj.generate(),
        ValorTotalVP: 80,
        ...trip,
      },
    });
    expect([200, 201], vpo.body).toContain(vpo.statusCode);
    await app.inject({
      method: 'PATCH',
      url: `/api/parceiro/vpos/vpo-cc-${truck.serial}`,
      headers: { 'x-api-key': shipper },
      payload: { Status: 'EM_VIAGEM' },
    });
    for (const [serial, value] of [
      [truck.serial, 12.3],
      [other.serial, 9.9],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/parceiro/passagens',
        headers: { 'x-api-key': operator },
        payload: {
          externalId: `cc-${serial}`,
          serialNumber: serial,
          placeName: 'Praça Registro',
          value,
          occurredAt: saoPauloThisMonth(30).local,
          is_third: false,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const month = billingPeriod(new Date());
    const csv = await call(app, fin, 'GET', `/api/empresa/centros-de-custo/${southId}/relatorio?mes=${month}&formato=csv`, firm.id);
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Mês;Centro de custo;Código;Placa;Passagens;Pedágios (R$);Pagos por VPO (R$);Mensalidades (R$);Pedágios sem cancela (R$);Total de despesas (R$);VPO recebido (R$)',
    );
    // Decision 79: what was posted to the centre. The tag's fee was charged when it was activated,
    // before the truck joined OP-SUL: it stays where it was posted (no centre).
    expect(lines.slice(1)).toEqual([
      `${month};Operação Sul;OP-SUL;${truck.plate};1;12,30;12,30;0,00;0,00;12,30;80,00`,
      `${month};Operação Sul;OP-SUL;Total;1;12,30;12,30;0,00;0,00;12,30;80,00`,
    ]);
    // The truck moves to OP-NORTE: its past stays in OP-SUL's month; OP-NORTE lists it, at zero.
    expect(
      (await call(app, firm, 'POST', `/api/empresa/veiculos/${truck.vehicleId}/centro-de-custo`, undefined, { centroDeCusto: north }))
        .statusCode,
    ).toBe(200);
    const report = async (centre: number) =>
      (await call(app, fin, 'GET', `/api/empresa/centros-de-custo/${centre}/relatorio?mes=${month}&formato=csv`, firm.id)).body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .slice(1);
    expect(await report(southId)).toEqual([
      `${month};Operação Sul;OP-SUL;${truck.plate};1;12,30;12,30;0,00;0,00;12,30;80,00`,
      `${month};Operação Sul;OP-SUL;Total;1;12,30;12,30;0,00;0,00;12,30;80,00`,
    ]);
    expect(await report(north)).toEqual(
      [
        `${month};Operação Norte;OP-NORTE;${other.plate};1;9,90;0,00;0,00;0,00;9,90;0,00`,
        `${month};Operação Norte;OP-NORTE;${truck.plate};0;0,00;0,00;0,00;0,00;0,00;0,00`,
      ]
        .sort()
        .concat(`${month};Operação Norte;OP-NORTE;Total;1;9,90;0,00;0,00;0,00;9,90;0,00`),
    );
    expect(
      (await call(app, firm, 'POST', `/api/empresa/veiculos/${truck.vehicleId}/centro-de-custo`, undefined, { centroDeCusto: southId }))
        .statusCode,
    ).toBe(200);
    const pdf = await call(app, firm, 'GET', `/api/empresa/centros-de-custo/${southId}/relatorio?mes=${month}&formato=pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await call(app, moto, 'GET', `/api/empresa/centros-de-custo/${southId}/relatorio?mes=${month}`, firm.id)).statusCode).toBe(403);
    const badMonth = await call(app, fin, 'GET', `/api/empresa/centros-de-custo/${southId}/relatorio?mes=2026-13`, firm.id);
    expect(badMonth.statusCode).toBe(422);
    // Another company's centre is not found.
    const elsewhere = await company();
    expect((await call(app, elsewhere, 'GET', `/api/empresa/centros-de-custo/${southId}/relatorio?mes=${month}`)).statusCode).toBe(404);
    const listed = (await call(app, fin, 'GET', '/api/empresa/centros-de-custo', firm.id)).json<{
      Centros: { codigo: string; veiculos: number }[];
    }>();
    expect(listed.Centros.map((c) => [c.codigo, c.veiculos])).toEqual([
      ['OP-NORTE', 1],
      ['OP-SUL', 1],
    ]);
    await expectLedgerInvariant(db);
  });

  describe('sem ser membro', () => {
    it('um X-Conta de uma empresa de que a pessoa não é membro, ou inválido, é recusado sem mostrar nada', async () => {
      const { app } = ctx();
      const firm = await company();
      const stranger = await registerDriver(app, { name: 'Estranho' });
      for (const header of [String(firm.id), 'abc', '-1', '99999999']) {
        const res = await app.inject({
          method: 'GET',
          url: '/api/motorista/saldo',
          headers: { ...bearer(stranger.token), [ACTING_ACCOUNT_HEADER]: header },
        });
        expect(res.statusCode, header).toBe(403);
        expect(res.json<{ Mensagem: string }>().Mensagem).toBe(fleetMessages.noAccess);
      }
    });
  });
  it('o Motorista vê, contesta e tira o comprovante dos pedágios sem cancela dos seus caminhões; pagar é de quem cuida do dinheiro', async () => {
    const { app, db } = ctx();
    const { firm, moto, other, truck: mine } = await twoMotoristas();
    const theirs = await activeTag(app, firm);
    for (const truck of [mine, theirs]) {
      const chosen = await call(app, firm, 'POST', '/api/livre-passagem/placas', undefined, {
        veiculoId: truck.vehicleId,
        ativo: true,
        automatico: false,
      });
      expect(chosen.statusCode, chosen.body).toBe(200);
    }
    const key = (await new PartnerService(db).create('concessionaire', 'RioSP Frota')).key;
    for (const truck of [mine, theirs]) {
      const pushed = await app.inject({
        method: 'POST',
        url: '/api/parceiro/livre-passagem',
        headers: { 'x-api-key': key },
        payload: {
          externalId: `lp-${truck.plate}`,
          placa: truck.plate,
          portico: 'Pórtico Arujá',
          rodovia: 'BR-116',
          km: 204.5,
          sentido: 'São Paulo',
          eixos: 3,
          valor: 12.75,
          occurredAt: saoPaulo(30).local,
        },
      });
      expect([200, 201, 202], pushed.body).toContain(pushed.statusCode);
    }
    const list = (who: Registered) =>
      call(app, who, 'GET', '/api/livre-passagem?page=1', firm.id).then((r) =>
        r.json<{ Debitos: { id: number; placa: string }[]; Resumo: { emAberto: number; valorEmAberto: number; placasAtivas: number } }>(),
      );
    const seen = await list(moto);
    expect(seen.Debitos.map((d) => d.placa)).toEqual([mine.plate]);
    expect(seen.Resumo).toMatchObject({ emAberto: 1, valorEmAberto: 12.75, placasAtivas: 1 });
    const plates = (await call(app, moto, 'GET', '/api/livre-passagem/placas', firm.id)).json<{ Placas: { placa: string }[] }>();
    expect(plates.Placas.map((p) => p.placa)).toEqual([mine.plate]);
    const all = (await call(app, firm, 'GET', '/api/livre-passagem?page=1')).json<{ Debitos: { id: number; placa: string }[] }>();
    expect(all.Debitos).toHaveLength(2);
    const theirToll = all.Debitos.find((d) => d.placa === theirs.plate)?.id;
    const myToll = seen.Debitos[0]?.id;

    // Another truck's toll is the toll's own 404; paying is refused by the role, and nothing moves.
    expect((await call(app, moto, 'GET', `/api/livre-passagem/${theirToll}/comprovante-recurso`, firm.id)).statusCode).toBe(404);
    expect(
      (await call(app, moto, 'POST', `/api/livre-passagem/${theirToll}/contestar`, firm.id, { motivo: 'NAO_PASSOU_PORTICO' })).statusCode,
    ).toBe(404);
    expect((await call(app, moto, 'POST', `/api/livre-passagem/${myToll}/pagar`, firm.id)).statusCode).toBe(403);
    const proof = await call(app, moto, 'GET', `/api/livre-passagem/${myToll}/comprovante-recurso`, firm.id);
    expect(proof.statusCode, proof.body.slice(0, 200)).toBe(200);
    expect(proof.headers['content-type']).toBe('application/pdf');
    const contested = await call(app, moto, 'POST', `/api/livre-passagem/${myToll}/contestar`, firm.id, {
      motivo: 'PLACA_ERRADA',
    });
    expect(contested.statusCode, contested.body).toBe(201);
    expect((await list(other)).Debitos).toEqual([]);
    await expectLedgerInvariant(db);
  });
  it('uma pessoa que encerra a conta sai das empresas: o vínculo termina, o caminhão fica sem ela e o CPF guardado fica mascarado', async () => {
    const { app, db } = ctx();
    const { firm, moto, motoId } = await twoMotoristas();
    const closing = await call(app, moto, 'POST', '/api/motorista/encerramento', undefined, { senha: moto.password, confirmacao: true });
    expect(closing.statusCode, closing.body).toBe(200);
    const row = await db.kysely.selectFrom('company_members').selectAll().where('id', '=', motoId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'removido', cpf: maskCpfCnpj(moto.cpfCnpj) });
    expect(row.ended_at).not.toBeNull();
    expect(await db.kysely.selectFrom('vehicle_drivers').selectAll().where('member_id', '=', motoId).execute()).toEqual([]);
    // The company's list shows its live members only: the person is no longer one.
    const members = (await call(app, firm, 'GET', '/api/empresa/membros')).json<{ Membros: { cpf: string }[] }>();
    expect(members.Membros.map((m) => m.cpf)).not.toContain(maskCpfCnpj(moto.cpfCnpj));
    const everywhere = JSON.stringify(await db.kysely.selectFrom('company_members').selectAll().execute());
    expect(everywhere).not.toContain(moto.cpfCnpj);
  });
});
