import type { Receipt, ReceiptResponse } from '@portal/contract';
import { formatDateTime, messages, serverMessages } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, json, registerDriver } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { acceptTerms, createCharge, fund, paymentEvent, sendWebhook, usePixTestApp } from '../../helpers/pix.js';
import { pdfPlainText as pdfText } from '../../helpers/files.js';

const OTHER_CPF_KEY = '529.982.247-25';

describeEachDatabase('comprovantes de Pix', (dialect) => {
  const { provider, app, db } = usePixTestApp(dialect);

  async function driver(name = 'Joana Motorista da Silva'): Promise<Registered> {
    const d = await registerDriver(app(), { name });
    await acceptTerms(app(), d);
    return d;
  }

  const receiptRes = (d: Registered, tipo: string, id: string, pdf = false) =>
    app().inject({
      method: 'GET',
      url: `/api/comprovantes/${tipo}/${encodeURIComponent(id)}${pdf ? '/pdf' : ''}`,
      headers: bearer(d.token),
    });

  async function receipt(d: Registered, tipo: string, id: string): Promise<Receipt> {
    const res = await receiptRes(d, tipo, id);
    expect(res.statusCode, res.body).toBe(200);
    const body = json<ReceiptResponse>(res);
    expect(body).toMatchObject({ Sucesso: true, Mensagem: serverMessages.receipt.ok });
    return body.Comprovante;
  }

  async function receiptPdf(d: Registered, tipo: string, id: string): Promise<{ res: LightMyRequestResponse; text: string }> {
    const res = await receiptRes(d, tipo, id, true);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="comprovante-${tipo}-${id}.pdf"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    return { res, text: await pdfText(res.rawPayload) };
  }

  async function withdraw(
    d: Registered,
    amount: number,
    pix: { type: string; key: string },
    description = 'Saque para o posto',
  ): Promise<string> {
    const res = await app().inject({
      method: 'POST',
      url: '/api/motorista/sacar',
      headers: bearer(d.token),
      payload: { description, receiver_document: d.cpfCnpj, amount, pix, senha: d.password },
    });
    expect([200, 502], res.body).toContain(res.statusCode);
    const row = await db()
      .kysely.selectFrom('withdrawals')
      .select('id')
      .where('driver_id', '=', d.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const chargeRow = (id: string) => db().kysely.selectFrom('pix_charges').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const withdrawalRow = (id: string) => db().kysely.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const docMask = (cpf: string) => `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;

  describe('compra (Pix recebido)', () => {
    it('RECEIVED: the driver pays the portal; amount, date, provider and our ids', async () => {
      const d = await driver();
      const id = await fund(app(), d, 150.75);
      const row = await chargeRow(id);
      const r = await receipt(d, 'compra', id);
      expect(r).toEqual({
        tipo: 'compra',
        id,
        titulo: serverMessages.receipt.purchaseTitle,
        valor: 150.75,
        dataHora: new Date(row.received_at ?? '').toISOString(),
        concluidoEm: new Date(row.received_at ?? '').toISOString(),
        status: 'RECEIVED',
        statusTexto: 'Pagamento recebido',
        valorDevolvido: 0,
        pagador: { nome: 'Joana Motorista da Silva', documento: docMask(d.cpfCnpj), chavePix: null, tipoChave: null },
        recebedor: { nome: 'Portal do Motorista', documento: null, chavePix: null, tipoChave: null },
        provedor: 'Portal (ambiente local)',
        idTransacaoProvedor: row.provider_charge_id,
        descricao: 'Compra de saldo via Pix',
        motivo: null,
      });

      const { text } = await receiptPdf(d, 'compra', id);
      for (const part of [
        'Comprovante de compra de saldo via Pix',
        'R$ 150,75',
        `Data e hora: ${formatDateTime(r.dataHora)}`,
        'Situação: Pagamento recebido',
        'Pagador',
        'Nome: Joana Motorista da Silva',
        `CPF/CNPJ: ${docMask(d.cpfCnpj)}`,
        'Recebedor',
        'Nome: Portal do Motorista',
        'Instituição de pagamento: Portal (ambiente local)',
        `ID da transação no provedor: ${row.provider_charge_id}`,
        `ID no Portal do Motorista: ${id}`,
      ]) {
        expect(text).toContain(part);
      }
      expect(text).not.toContain(d.cpfCnpj);
      expect(text).not.toContain('ESTORNADO');
    });

    it('PARTIALLY_REFUNDED and REFUNDED: what was given back', async () => {
      const d = await driver();
      const charge = await createCharge(app(), d, 200);
      await sendWebhook(app(), paymentEvent('PAYMENT_RECEIVED', charge));
      await sendWebhook(app(), paymentEvent('PAYMENT_PARTIALLY_REFUNDED', charge, { refunds: [{ value: 50, status: 'DONE' }] }));
      const partial = await receipt(d, 'compra', charge.id);
      expect(partial).toMatchObject({
        status: 'PARTIALLY_REFUNDED',
        statusTexto: 'Pagamento estornado em parte',
        valor: 200,
        valorDevolvido: 50,
      });
      expect((await receiptPdf(d, 'compra', charge.id)).text).toContain('Valor devolvido: R$ 50,00');

      await sendWebhook(app(), paymentEvent('PAYMENT_REFUNDED', charge));
      const row = await chargeRow(charge.id);
      const whole = await receipt(d, 'compra', charge.id);
      expect(whole).toMatchObject({
        status: 'REFUNDED',
        statusTexto: 'Pagamento estornado',
        valorDevolvido: 200,
        dataHora: new Date(row.received_at ?? '').toISOString(),
        concluidoEm: new Date(row.refunded_at ?? '').toISOString(),
      });
      const { text } = await receiptPdf(d, 'compra', charge.id);
      expect(text).toContain('Situação: Pagamento estornado');
      expect(text).toContain('Valor devolvido: R$ 200,00');
    });

    it("PENDING and OVERDUE (the driver's own, not paid): 409 with the reason, for the JSON and the PDF", async () => {
      const d = await driver();
      const pending = await createCharge(app(), d, 100);
      const overdue = await createCharge(app(), d, 110);
      await sendWebhook(app(), paymentEvent('PAYMENT_OVERDUE', overdue));
      for (const id of [pending.id, overdue.id]) {
        for (const pdf of [false, true]) {
          const res = await receiptRes(d, 'compra', id, pdf);
          expect(res.statusCode).toBe(409);
          expect(res.headers['content-type']).toContain('application/json');
          expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.receipt.purchaseNotPaid });
        }
      }
    });
  });

  describe('saque', () => {
    it('DONE to a CPF key: the portal pays the key; its holder unreported says so, never the driver; the key masked as banks do', async () => {
      const d = await driver();
      await fund(app(), d, 300);
      const id = await withdraw(d, 120.5, { type: 'CPF', key: OTHER_CPF_KEY });
      const row = await withdrawalRow(id);
      const r = await receipt(d, 'saque', id);
      expect(r).toEqual({
        tipo: 'saque',
        id,
        titulo: serverMessages.receipt.withdrawalTitle,
        valor: 120.5,
        dataHora: new Date(row.created_at).toISOString(),
        concluidoEm: new Date(row.completed_at ?? '').toISOString(),
        status: 'DONE',
        statusTexto: 'Saque concluído',
        valorDevolvido: 0,
        pagador: { nome: 'Portal do Motorista', documento: null, chavePix: null, tipoChave: null },
        recebedor: { nome: null, documento: null, chavePix: '***.982.247-**', tipoChave: 'CPF' },
        provedor: 'Portal (ambiente local)',
        idTransacaoProvedor: `tr_${id}`,
        descricao: 'Saque para o posto',
        motivo: null,
      });
      const res = await receiptRes(d, 'saque', id);
      const { text } = await receiptPdf(d, 'saque', id);
      for (const whole of ['52998224725', OTHER_CPF_KEY, d.cpfCnpj]) {
        expect(res.body).not.toContain(whole);
        expect(text).not.toContain(whole);
      }
      for (const part of [
        'Comprovante de saque via Pix',
        'R$ 120,50',
        'Situação: Saque concluído',
        'Chave Pix (CPF): ***.982.247-**',
        'Titular informado pelo banco: indisponível',
        `Concluído em: ${formatDateTime(r.concluidoEm ?? '')}`,
        `ID da transação no provedor: tr_${id}`,
        'Descrição: Saque para o posto',
      ]) {
        expect(text).toContain(part);
      }
      // Nobody is named by assumption: the driver is neither payer nor receiver of a withdrawal.
      expect(text).not.toContain('Joana Motorista da Silva');
      expect(res.body).not.toContain('Joana Motorista da Silva');
    });

    it('the receiver is the holder the provider reported for the key, a CPF masked, whoever the driver is', async () => {
      const d = await driver();
      await fund(app(), d, 300);
      provider.receiver = { name: 'Maria das Graças Souza', document: OTHER_CPF_KEY };
      const id = await withdraw(d, 50, { type: 'CPF', key: OTHER_CPF_KEY });
      expect(await withdrawalRow(id)).toMatchObject({ receiver_name: 'Maria das Graças Souza', receiver_document: '***.982.247-**' });
      const r = await receipt(d, 'saque', id);
      expect(r.recebedor).toEqual({
        nome: 'Maria das Graças Souza',
        documento: '***.982.247-**',
        chavePix: '***.982.247-**',
        tipoChave: 'CPF',
      });
      const res = await receiptRes(d, 'saque', id);
      const { text } = await receiptPdf(d, 'saque', id);
      expect(text).toContain(
        'Recebedor Titular informado pelo banco: Maria das Graças Souza CPF/CNPJ: ***.982.247-** Chave Pix (CPF): ***.982.247-**',
      );
      for (const body of [res.body, text]) {
        expect(body).not.toContain('Joana Motorista da Silva');
        expect(body).not.toContain(OTHER_CPF_KEY);
        expect(body).not.toContain('52998224725');
      }
      // A company's CNPJ is printed whole, as banks do; one the provider already masked stays as it came.
      provider.receiver = { name: 'Transportes Boa Viagem Ltda', document: '11222333000181' };
      const company = await withdraw(d, 20, { type: 'CNPJ', key: '11222333000181' });
      expect((await receipt(d, 'saque', company)).recebedor).toMatchObject({
        nome: 'Transportes Boa Viagem Ltda',
        documento: '11.222.333/0001-81',
      });
      provider.receiver = { name: null, document: '***.143.689-**' };
      const masked = await withdraw(d, 10, { type: 'EMAIL', key: 'joana@example.com' });
      expect((await receipt(d, 'saque', masked)).recebedor).toMatchObject({ nome: null, documento: '***.143.689-**' });
      expect((await receiptPdf(d, 'saque', masked)).text).toContain('Titular informado pelo banco: indisponível CPF/CNPJ: ***.143.689-**');
    });

    it("to the driver's own CPF: neither the key nor the document shows whole", async () => {
      const d = await driver();
      await fund(app(), d, 200);
      const id = await withdraw(d, 10, { type: 'CPF', key: d.cpfCnpj });
      const res = await receiptRes(d, 'saque', id);
      const formatted = `${d.cpfCnpj.slice(0, 3)}.${d.cpfCnpj.slice(3, 6)}.${d.cpfCnpj.slice(6, 9)}-${d.cpfCnpj.slice(9)}`;
      const { text } = await receiptPdf(d, 'saque', id);
      for (const whole of [d.cpfCnpj, formatted]) {
        expect(res.body).not.toContain(whole);
        expect(text).not.toContain(whole);
      }
      expect(json<ReceiptResponse>(res).Comprovante.recebedor).toMatchObject({ nome: null, documento: null, chavePix: docMask(d.cpfCnpj) });
    });

    it.each([
      ['EMAIL', 'joana.motorista@example.com', 'j***@example.com', 'E-mail', ['joana.motorista']],
      ['PHONE', '(11) 98765-4321', '(**) *****-4321', 'Telefone', ['11987654321', '98765-4321', '98765']],
      ['EVP', '123e4567-e89b-42d3-a456-426614174000', '123e…4000', 'Chave Aleatória', ['123e4567-e89b', '426614174000']],
      ['CNPJ', '11222333000181', '11.222.333/0001-81', 'CNPJ', []],
    ])('a %s key %s is shown as %s', async (type, key, masked, label, hidden) => {
      const d = await driver();
      await fund(app(), d, 200);
      const id = await withdraw(d, 10, { type, key });
      const res = await receiptRes(d, 'saque', id);
      expect(json<ReceiptResponse>(res).Comprovante.recebedor).toMatchObject({ chavePix: masked, tipoChave: label });
      const { text } = await receiptPdf(d, 'saque', id);
      expect(text).toContain(`Chave Pix (${label}): ${masked}`);
      for (const part of hidden) {
        expect(res.body).not.toContain(part);
        expect(text).not.toContain(part);
      }
    });

    it('PROCESSING: no completion yet', async () => {
      const d = await driver();
      await fund(app(), d, 200);
      provider.payout = 'PENDING';
      const id = await withdraw(d, 25, { type: 'EMAIL', key: 'joana@example.com' });
      expect(await receipt(d, 'saque', id)).toMatchObject({
        status: 'PROCESSING',
        statusTexto: 'Saque em processamento',
        concluidoEm: null,
        valorDevolvido: 0,
        motivo: null,
      });
      const { text } = await receiptPdf(d, 'saque', id);
      expect(text).toContain('Situação: Saque em processamento');
      expect(text).not.toContain('Concluído em');
    });

    it('FAILED (reversed): says the money came back, prominently, with the reason', async () => {
      const d = await driver();
      await fund(app(), d, 200);
      provider.payout = { reject: 'Chave Pix não encontrada no banco de destino' };
      const id = await withdraw(d, 80, { type: 'EMAIL', key: 'joana@example.com' });
      const row = await withdrawalRow(id);
      expect(row.status).toBe('FAILED');
      const r = await receipt(d, 'saque', id);
      expect(r).toMatchObject({
        status: 'FAILED',
        statusTexto: 'Saque não concluído: o valor voltou para o seu saldo',
        valorDevolvido: 80,
        motivo: row.failure_reason,
        concluidoEm: new Date(row.completed_at ?? '').toISOString(),
      });
      const { text } = await receiptPdf(d, 'saque', id);
      expect(text.indexOf('SAQUE ESTORNADO: este Pix não foi concluído e o valor voltou para o seu saldo.')).toBeGreaterThan(-1);
      expect(text.indexOf('SAQUE ESTORNADO')).toBeLessThan(text.indexOf('R$ 80,00'));
      expect(text).toContain('Valor devolvido: R$ 80,00');
      expect(text).toContain(`Motivo: ${row.failure_reason ?? ''}`);
    });
  });

  describe("another driver's receipts", () => {
    it('read exactly as an unknown id: 404, nothing of theirs in the answer, for the JSON and the PDF', async () => {
      const a = await driver('Ana Alves');
      const b = await driver('Bruno Borges');
      const bCharge = await fund(app(), b, 150);
      const bPending = await createCharge(app(), b, 100);
      const bWithdrawal = await withdraw(b, 20, { type: 'EMAIL', key: 'bruno@example.com' });
      const expected = { Sucesso: false, Mensagem: messages.receipt.notFound };
      for (const [tipo, id] of [
        ['compra', bCharge],
        ['compra', bPending.id],
        ['saque', bWithdrawal],
        ['compra', 'chg_00000000000000000000'],
        ['saque', 'wd_00000000000000000000'],
        ['saque', bCharge],
        ['compra', bWithdrawal],
      ] as const) {
        for (const pdf of [false, true]) {
          const res = await receiptRes(a, tipo, id, pdf);
          expect(res.statusCode, `${tipo} ${id}`).toBe(404);
          expect(json(res)).toEqual(expected);
          for (const secret of ['Bruno', b.cpfCnpj, 'bruno@', 'b***@']) expect(res.body).not.toContain(secret);
        }
      }
      // The control: the owner reads them.
      expect((await receiptRes(b, 'compra', bCharge)).statusCode).toBe(200);
      expect((await receiptRes(b, 'saque', bWithdrawal)).statusCode).toBe(200);
    });

    it('a kind that is not one, and no session, are refused', async () => {
      const d = await driver();
      const id = await fund(app(), d, 100);
      expect((await receiptRes(d, 'boleto', id)).statusCode).toBe(422);
      expect((await app().inject({ method: 'GET', url: `/api/comprovantes/compra/${id}` })).statusCode).toBe(401);
      expect((await app().inject({ method: 'GET', url: `/api/comprovantes/compra/${id}/pdf` })).statusCode).toBe(401);
    });
  });
});
