import type { VpoDetails } from '@portal/contract';
import { formatCpfCnpj, serverMessages } from '@portal/domain';
import { expect, it } from 'vitest';
import { json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { minutes, spAt, useVpoApp } from '../../helpers/vpos.js';
import { pdfPlainText as pdfText } from '../../helpers/files.js';

/** Decision 52: the shipper reads its own VPO's money and passages; the driver reads theirs, and its record as a PDF. */
describeEachDatabase('VPO: o que o embarcador e o motorista leem', (dialect) => {
  const t = useVpoApp(dialect);

  it("GET /api/parceiro/vpos/:externalId answers the shipper's own VPO: status, value, used, left, refunded, paid by Saldo and its passages", async () => {
    const d = await t.driver();
    const s = await t.shipper('Cargas Leitura Ltda');
    const vpo = await t.issued(s, d.tag, {
      ValorTotalVP: 25,
      idVpoAntt: 'ANTT-2026/000123',
      origem: 'Campinas (SP)',
      destino: 'Santos (SP)',
    });
    const [first, second] = [spAt(-minutes(30)), spAt(-minutes(20))];
    await t.passed(d.tag, 10, first, { placeName: 'Praça Itupeva' });
    await t.passed(d.tag, 20.5, second, { placeName: 'Praça Campo Limpo' });

    const res = await t.partnerVpo(s, vpo.externalId);
    expect(res.statusCode, res.body).toBe(200);
    const body = json<{ Sucesso: boolean; Mensagem: string; VPO: VpoDetails }>(res);
    expect(body).toMatchObject({ Sucesso: true, Mensagem: serverMessages.vpo.found });
    expect(body.VPO).toMatchObject({
      IdTransacao: String(vpo.id),
      externalId: vpo.externalId,
      serialNumber: d.tag.serial,
      PlacaVeiculo: d.tag.plate,
      Status: 'EMITIDO',
      Embarcador: 'Cargas Leitura Ltda',
      idVpoAntt: 'ANTT-2026/000123',
      origem: 'Campinas (SP)',
      destino: 'Santos (SP)',
      ValorTotalVP: 25,
      Utilizado: 25,
      Restante: 0,
      Devolvido: 0,
      PagoPeloSaldo: 5.5,
    });
    expect(body.VPO.Passagens).toEqual([
      { placeName: 'Praça Itupeva', occurredAt: new Date(first).toISOString(), value: 10, pagoPor: 'VPO', passagem: null },
      { placeName: 'Praça Campo Limpo', occurredAt: new Date(second).toISOString(), value: 15, pagoPor: 'VPO', passagem: null },
      { placeName: 'Praça Campo Limpo', occurredAt: new Date(second).toISOString(), value: 5.5, pagoPor: 'SALDO', passagem: null },
    ]);
    // Nothing of the driver beyond what the shipper sent: not their CPF, not their name.
    expect(res.body).not.toContain(d.cpfCnpj);
    expect(res.body).not.toContain('Maria das Graças');

    // Closed: what was left goes back, and the shipper reads it.
    const other = await t.issued(s, d.tag, { ValorTotalVP: 40 });
    await t.passed(d.tag, 12, spAt(-minutes(5)));
    expect((await t.close(s, other.externalId)).statusCode).toBe(200);
    const closed = json<{ VPO: VpoDetails }>(await t.partnerVpo(s, other.externalId)).VPO;
    expect(closed).toMatchObject({ Status: 'ENCERRADO', ValorTotalVP: 40, Utilizado: 12, Restante: 0, Devolvido: 28, PagoPeloSaldo: 0 });
    expect(closed.Passagens.map((p) => [p.value, p.pagoPor])).toEqual([[12, 'VPO']]);
  });

  it("another shipper's externalId and an unknown one get the same 404; without a key, 401", async () => {
    const d = await t.driver();
    const owner = await t.shipper();
    const stranger = await t.shipper();
    const vpo = await t.issued(owner, d.tag, { ValorTotalVP: 30 });

    const foreign = await t.partnerVpo(stranger, vpo.externalId);
    const unknown = await t.partnerVpo(stranger, 'nunca-emitido');
    for (const res of [foreign, unknown]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.partner.vpoNotFound });
    }
    expect(foreign.body).toBe(unknown.body);
    expect(foreign.body).not.toContain(d.tag.serial);
    expect((await t.partnerVpo(null, vpo.externalId)).statusCode).toBe(401);
    // The operator's key is not a shipper's.
    const { key } = await t.operator();
    expect((await t.partnerVpo({ key }, vpo.externalId)).statusCode).toBe(403);
    expect((await t.partnerVpo(owner, vpo.externalId)).statusCode).toBe(200);
  });

  it("the driver reads their own VPO and its PDF; another driver's is a 404, like an unknown id", async () => {
    const d = await t.driver();
    const other = await t.driver();
    const s = await t.shipper('Embarcador do Registro');
    const vpo = await t.issued(s, d.tag, { ValorTotalVP: 80, idVpoAntt: 'ANTT-REG-42', rntrc: '12345678', eixos: 3 });
    await t.passed(d.tag, 14.2, spAt(-minutes(15)), { placeName: 'Praça Registro' });

    const mine = await t.driverVpo(d, vpo.id);
    expect(mine).toMatchObject({
      IdTransacao: String(vpo.id),
      externalId: vpo.externalId,
      Embarcador: 'Embarcador do Registro',
      idVpoAntt: 'ANTT-REG-42',
      rntrc: '12345678',
      eixos: 3,
      ValorTotalVP: 80,
      Utilizado: 14.2,
      Restante: 65.8,
      Passagens: [{ placeName: 'Praça Registro', occurredAt: expect.any(String), value: 14.2, pagoPor: 'VPO' }],
    });

    const theirs = await t.get(other, `/api/pedagio/motoristaVpos/${vpo.id}`);
    const unknown = await t.get(other, '/api/pedagio/motoristaVpos/999999999');
    for (const res of [theirs, unknown]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.vpo.notFound });
    }
    const theirPdf = await t.get(other, `/api/pedagio/motoristaVpos/${vpo.id}/pdf`);
    expect(theirPdf.statusCode).toBe(404);
    expect(json(theirPdf)).toEqual({ Sucesso: false, Mensagem: serverMessages.vpo.notFound });
    expect((await t.app().inject({ method: 'GET', url: `/api/pedagio/motoristaVpos/${vpo.id}` })).statusCode).toBe(401);

    const pdf = await t.get(d, `/api/pedagio/motoristaVpos/${vpo.id}/pdf`);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="vpo-${vpo.id}.pdf"`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf.rawPayload);
    for (const expected of [
      String(vpo.id),
      vpo.externalId,
      'ANTT-REG-42',
      'Embarcador do Registro',
      formatCpfCnpj(mine.CpfCnpjEmbarcador),
      d.tag.plate,
      '12345678',
      'Praça Registro',
      '14,20',
      '65,80',
      'Paga pelo VPO',
    ]) {
      expect(text).toContain(expected);
    }
  });
});
