import { dualControlMessages, formatBrl } from '@portal/domain';
import { cnpj } from 'cpf-cnpj-validator';
import { expect, it } from 'vitest';
import { registerDriver } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { joinCompany, onCompany } from '../../helpers/fleet.js';
import { expectLedgerInvariant, fund, ownBalance, usePixTestApp } from '../../helpers/pix.js';

const on = onCompany;

const toOwnCnpj = (firm: Registered, amount: number) => ({
  description: 'Saque da frota',
  receiver_document: firm.cpfCnpj,
  amount,
  pix: { key: firm.cpfCnpj, type: 'CNPJ' },
});

describeEachDatabase('dupla aprovação de saques da empresa (decisão 77)', (dialect) => {
  const { app: appOf, db } = usePixTestApp(dialect);

  async function firmWithGestores() {
    const app = appOf();
    const firm = await registerDriver(app, { name: 'Transportes Dupla Ltda', cpfCnpj: cnpj.generate() });
    const member = async (name: string, papel: 'gestor' | 'financeiro') => (await joinCompany(app, firm, name, papel)).person;
    const ana = await member('Ana Gestora', 'gestor');
    const bia = await member('Bia Gestora', 'gestor');
    const fin = await member('Fábio Financeiro', 'financeiro');
    await fund(app, firm, 1000);
    return { app, firm, ana, bia, fin };
  }

  it('acima do valor, o saque espera outro Gestor; quem pediu não aprova; aprovado, sai uma vez', async () => {
    const { app, firm, ana, bia, fin } = await firmWithGestores();
    const set = await on(app, firm, ana, 'POST', '/api/empresa/aprovacao-saques', { valor: 200 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ Mensagem: dualControlMessages.thresholdSet(formatBrl(20000)), limite: 200, pendente: null });

    const asked = await on(app, firm, ana, 'POST', '/api/motorista/sacar', toOwnCnpj(firm, 300));
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ status: 'AGUARDANDO_APROVACAO', Mensagem: dualControlMessages.waiting(formatBrl(30000)) });
    const id = asked.json<{ aprovacaoId: number }>().aprovacaoId;
    expect(await ownBalance(app, firm)).toBe(1000);

    const own = await on(app, firm, ana, 'POST', `/api/empresa/aprovacao-saques/${id}/aprovar`);
    expect(own.statusCode).toBe(403);
    expect(own.json<{ Mensagem: string }>().Mensagem).toBe(dualControlMessages.ownRequest);
    expect((await on(app, firm, fin, 'POST', `/api/empresa/aprovacao-saques/${id}/aprovar`)).statusCode).toBe(403);
    expect(await ownBalance(app, firm)).toBe(1000);

    const seen = (await on(app, firm, bia, 'GET', '/api/empresa/aprovacao-saques')).json<{
      Saques: { id: number; estado: string; podeAprovar: boolean; pedidoPor: string }[];
    }>();
    expect(seen.Saques[0]).toMatchObject({ id, estado: 'PENDENTE', podeAprovar: true, pedidoPor: 'Ana Gestora' });

    // Bia and the company's own login approve at once: the money leaves once.
    const [one, two] = await Promise.all([
      on(app, firm, bia, 'POST', `/api/empresa/aprovacao-saques/${id}/aprovar`),
      on(app, firm, firm, 'POST', `/api/empresa/aprovacao-saques/${id}/aprovar`),
    ]);
    const statuses = [one.statusCode, two.statusCode].sort();
    expect(statuses[0], `${one.body} ${two.body}`).toBe(200);
    expect([404, 409]).toContain(statuses[1]);
    expect(await ownBalance(app, firm)).toBe(700);
    const withdrawals = await db().kysely.selectFrom('withdrawals').select('amount_cents').where('driver_id', '=', firm.id).execute();
    expect(withdrawals.map((w) => Number(w.amount_cents))).toEqual([30000]);

    // Below the threshold a withdrawal goes at once.
    const small = await on(app, firm, ana, 'POST', '/api/motorista/sacar', toOwnCnpj(firm, 150));
    expect(small.json<{ status: string }>().status).toBe('DONE');
    expect(await ownBalance(app, firm)).toBe(550);
    await expectLedgerInvariant(db());
  });

  it('sem aprovação em 24 horas expira e nada sai; recusar não move dinheiro; aumentar ou desligar espera 24 horas', async () => {
    const { app, firm, ana, bia } = await firmWithGestores();
    await on(app, firm, ana, 'POST', '/api/empresa/aprovacao-saques', { valor: 100 });
    const first = (await on(app, firm, ana, 'POST', '/api/motorista/sacar', toOwnCnpj(firm, 250))).json<{ aprovacaoId: number }>()
      .aprovacaoId;
    const second = (await on(app, firm, ana, 'POST', '/api/motorista/sacar', toOwnCnpj(firm, 260))).json<{ aprovacaoId: number }>()
      .aprovacaoId;
    const past = new Date(Date.now() - 1000).toISOString();
    await db().kysely.updateTable('withdrawal_approvals').set({ expires_at: past }).where('id', '=', first).execute();
    const late = await on(app, firm, bia, 'POST', `/api/empresa/aprovacao-saques/${first}/aprovar`);
    expect(late.statusCode).toBe(404);
    expect(late.json<{ Mensagem: string }>().Mensagem).toBe(dualControlMessages.notFound);
    const declined = await on(app, firm, bia, 'POST', `/api/empresa/aprovacao-saques/${second}/recusar`);
    expect(declined.json<{ Mensagem: string }>().Mensagem).toBe(dualControlMessages.declined);
    const list = (await on(app, firm, bia, 'GET', '/api/empresa/aprovacao-saques')).json<{
      Saques: { id: number; estado: string; decididoPor: string | null }[];
    }>();
    expect(list.Saques.map((s) => [s.id, s.estado, s.decididoPor])).toEqual([
      [second, 'RECUSADO', 'Bia Gestora'],
      [first, 'EXPIRADO', null],
    ]);
    expect(await ownBalance(app, firm)).toBe(1000);

    const raised = (await on(app, firm, ana, 'POST', '/api/empresa/aprovacao-saques', { valor: 5000 })).json<{
      limite: number;
      pendente: { valor: number };
    }>();
    expect(raised).toMatchObject({ limite: 100, pendente: { valor: 5000 } });
    const off = (await on(app, firm, ana, 'POST', '/api/empresa/aprovacao-saques', { valor: null })).json<{
      limite: number;
      pendente: { valor: null };
    }>();
    expect(off).toMatchObject({ limite: 100, pendente: { valor: null } });
    // Still in force: a withdrawal above R$ 100,00 waits.
    expect((await on(app, firm, ana, 'POST', '/api/motorista/sacar', toOwnCnpj(firm, 120))).json<{ status: string }>().status).toBe(
      'AGUARDANDO_APROVACAO',
    );
    const bad = await on(app, firm, ana, 'POST', '/api/empresa/aprovacao-saques', { valor: 0.001 });
    expect(bad.statusCode).toBe(422);
  });

  it("a new key is confirmed with the acting Gestor's own password, never the company's", async () => {
    const { app, firm, ana } = await firmWithGestores();
    const body = {
      description: 'Fornecedor',
      receiver_document: firm.cpfCnpj,
      amount: 50,
      pix: { key: 'financeiro@frota.com.br', type: 'EMAIL' },
    };
    const wrong = await on(app, firm, ana, 'POST', '/api/motorista/sacar', { ...body, senha: firm.password.toUpperCase() });
    expect(wrong.statusCode).toBe(422);
    const right = await on(app, firm, ana, 'POST', '/api/motorista/sacar', { ...body, senha: ana.password });
    expect(right.statusCode, right.body).toBe(200);
  });
});
