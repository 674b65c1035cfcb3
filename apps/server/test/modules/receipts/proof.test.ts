import { randomUUID } from 'node:crypto';
import type { ProofFacts, ProofVerifyResponse } from '@portal/contract';
import { formatDateTime, freeFlowMessages, maskCpfCnpj, proofMessages } from '@portal/domain';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { bearer, json } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { pdfPlainText } from '../../helpers/files.js';
import { fund } from '../../helpers/pix.js';
import { spAt, useVpoApp } from '../../helpers/vpos.js';
import type { VpoDriver } from '../../helpers/vpos.js';
import { PartnerService } from '../../../src/modules/partners/service.js';

/** Saldo of a driver of useVpoApp: R$ 100,00 bought, the tag's first fee paid. */
const SALDO = 84.1;
const CODE_IN_PDF = /Código de verificação: (\S+)/;
const CODE_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.';

let address = 0;
/** A client address of its own: each test's verifications are counted in their own bucket. */
const nextAddress = () => `198.51.100.${(address += 1)}`;

/** Decision 76: 'Comprovante para recurso', its public verification, and the toll's payment receipt. */
describeEachDatabase('Comprovante para recurso', (dialect) => {
  const t = useVpoApp(dialect);
  let concessionaire: { id: number; key: string } | null = null;

  async function concessionaireKey(): Promise<string> {
    concessionaire ??= await new PartnerService(t.db()).create('concessionaire', 'Rota Livre Concessionária');
    return concessionaire.key;
  }

  /** A driver whose tag was activated before the second now starts: what happens from here is after the activation. */
  async function driver(): Promise<VpoDriver> {
    const d = await t.driver();
    await sleep(1_100);
    return d;
  }

  async function optIn(d: VpoDriver): Promise<void> {
    const res = await t.app().inject({
      method: 'POST',
      url: '/api/livre-passagem/placas',
      headers: bearer(d.token),
      payload: { veiculoId: d.tag.vehicleId, ativo: true },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** A toll of the driver's plate, just now; answers its id. */
  async function toll(d: VpoDriver, valor = 12.3): Promise<{ id: number; externalId: string }> {
    const externalId = `ff-${randomUUID()}`;
    const res = await t.app().inject({
      method: 'POST',
      url: '/api/parceiro/livre-passagem',
      headers: { 'x-api-key': await concessionaireKey() },
      payload: {
        externalId,
        placa: d.tag.plate,
        portico: 'Pórtico Itupeva Norte',
        rodovia: 'SP-348',
        km: 62.4,
        sentido: 'Norte',
        eixos: 3,
        valor,
        occurredAt: spAt(0),
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    const row = await t
      .db()
      .kysely.selectFrom('free_flow_tolls')
      .select('id')
      .where('external_id', '=', externalId)
      .executeTakeFirstOrThrow();
    return { id: row.id, externalId };
  }

  async function passage(d: VpoDriver, place: string, value = 7.5): Promise<number> {
    await t.passed(d.tag, value, spAt(0), { placeName: place });
    const row = await t
      .db()
      .kysely.selectFrom('passages')
      .select('id')
      .where('driver_id', '=', d.id)
      .where('place_name', '=', place)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The proof's PDF: a PDF with its code and where to check it; answers the code and the text. */
  async function proofPdf(d: VpoDriver, url: string): Promise<{ code: string; text: string }> {
    const res = await t.get(d, url);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfPlainText(res.rawPayload);
    const code = CODE_IN_PDF.exec(text)?.[1] ?? '';
    expect(code).toMatch(/^[LP][0-9a-z]+\.[0-9a-z]+\.[\w-]{27}$/);
    expect(text).toContain(proofMessages.title);
    expect(text).toContain(`/verificar/${code}`);
    expect(text).toContain('livro-razão do Portal do Motorista');
    expect(text).not.toContain(d.cpfCnpj);
    expect(text).toContain(maskCpfCnpj(d.cpfCnpj));
    return { code, text };
  }

  const verify = (code: string, remoteAddress = nextAddress()) =>
    t.app().inject({ method: 'GET', url: `/api/verificar/${encodeURIComponent(code)}`, remoteAddress });

  async function verified(code: string): Promise<ProofFacts> {
    const res = await verify(code);
    expect(res.statusCode, res.body).toBe(200);
    const body = json<ProofVerifyResponse>(res);
    expect(body).toMatchObject({ Sucesso: true, Mensagem: proofMessages.verified });
    return body.Comprovante;
  }

  const tagRow = (d: VpoDriver) =>
    t.db().kysely.selectFrom('tags').select(['activated_at']).where('serial_number', '=', d.tag.serial).executeTakeFirstOrThrow();

  it("a passage's proof: its tag and since when it was active, the Saldo then from the ledger, how it was paid; verified without a session", async () => {
    const d = await driver();
    const id = await passage(d, 'Praça Itupeva (SP-348)', 7.5);
    // Money after the passage does not change the Saldo then.
    await fund(t.app(), d, 100);
    expect((await t.saldo(d)).Saldo).toBe(176.6);

    const { code, text } = await proofPdf(d, `/api/passagens/${id}/comprovante-recurso`);
    expect(code.startsWith('P')).toBe(true);
    const activatedAt = new Date((await tagRow(d)).activated_at ?? '').toISOString();
    for (const part of [
      'Praça Itupeva (SP-348)',
      'R$ 7,50',
      'Saldo disponível no momento: R$ 84,10',
      'SemParar',
      formatDateTime(activatedAt),
      d.tag.plate,
    ]) {
      expect(text).toContain(part);
    }

    const facts = await verified(code);
    const passageRow = await t.db().kysely.selectFrom('passages').select('occurred_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(facts).toMatchObject({
      codigo: code,
      tipo: 'PASSAGEM',
      placa: d.tag.plate,
      titular: 'Maria das Graças Souza',
      documentoMascarado: maskCpfCnpj(d.cpfCnpj),
      momento: new Date(passageRow.occurred_at).toISOString(),
      local: 'Praça Itupeva (SP-348)',
      valor: 7.5,
      tag: { serialNumber: d.tag.serial, operadora: 'SemParar', ativaDesde: activatedAt, ativaNoMomento: true },
      saldoNoMomento: SALDO,
      pagamento: { pagoPor: 'Saldo', autenticacao: null },
    });
    expect(JSON.stringify(facts)).not.toContain(d.cpfCnpj);
    expect(Date.parse(facts.emitidoEm)).toBeLessThanOrEqual(Date.now());

    // Another driver's passage is the same 404 as none.
    const other = await t.driver();
    expect((await t.get(other, `/api/passagens/${id}/comprovante-recurso`)).statusCode).toBe(404);
    expect((await t.get(other, `/api/passagens/999999/comprovante-recurso`)).statusCode).toBe(404);
  });

  it('a toll: proof before and after payment, the payment receipt (409 before), each verification as of its issue', async () => {
    const d = await driver();
    await optIn(d);
    const { id, externalId } = await toll(d, 12.3);

    const unpaidReceipt = await t.get(d, `/api/livre-passagem/${id}/comprovante`);
    expect(unpaidReceipt.statusCode).toBe(409);
    expect(json<{ Mensagem: string }>(unpaidReceipt).Mensagem).toBe(proofMessages.notPaid);

    const before = await proofPdf(d, `/api/livre-passagem/${id}/comprovante-recurso`);
    expect(before.code.startsWith('L')).toBe(true);
    expect(before.text).toContain('Pórtico Itupeva Norte, SP-348 km 62,4');
    expect(before.text).toContain(proofMessages.notPaidByPortal);

    await sleep(1_000); // the next proof is issued in a later second
    const paid = await t.app().inject({ method: 'POST', url: `/api/livre-passagem/${id}/pagar`, headers: bearer(d.token) });
    expect(paid.statusCode, paid.body).toBe(200);
    const row = await t.db().kysely.selectFrom('free_flow_tolls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.authentication).toMatch(/^[A-Z0-9-]{23}$/);

    const after = await proofPdf(d, `/api/livre-passagem/${id}/comprovante-recurso`);
    expect(after.code).not.toBe(before.code);
    expect(after.text).toContain(`Autenticação: ${row.authentication}`);
    const facts = await verified(after.code);
    expect(facts).toMatchObject({
      codigo: after.code,
      tipo: 'PEDAGIO_SEM_CANCELA',
      placa: d.tag.plate,
      documentoMascarado: maskCpfCnpj(d.cpfCnpj),
      local: `Pórtico Itupeva Norte, SP-348 km 62,4 (${d.tag.plate})`,
      valor: 12.3,
      tag: { serialNumber: d.tag.serial, operadora: 'SemParar', ativaNoMomento: true },
      saldoNoMomento: SALDO,
      pagamento: { pagoEm: new Date(row.paid_at ?? '').toISOString(), pagoPor: 'Saldo', autenticacao: row.authentication },
    });
    // The proof issued before the payment still says what was true then.
    expect((await verified(before.code)).pagamento).toBeNull();

    const receipt = await t.get(d, `/api/livre-passagem/${id}/comprovante`);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    const receiptText = await pdfPlainText(receipt.rawPayload);
    for (const part of [
      proofMessages.receiptTitle,
      'Concessionária: Rota Livre Concessionária',
      'Pórtico: Pórtico Itupeva Norte',
      'Rodovia: SP-348 km 62,4',
      `Placa: ${d.tag.plate}`,
      'Valor: R$ 12,30',
      `Pago em: ${formatDateTime(row.paid_at ?? '')}`,
      'Pago com: Saldo',
      `Autenticação: ${row.authentication}`,
      externalId,
    ]) {
      expect(receiptText).toContain(part);
    }

    // Another driver's toll: the same 404 as none, for the proof and the receipt.
    const other = await t.driver();
    for (const url of [`/api/livre-passagem/${id}/comprovante-recurso`, `/api/livre-passagem/${id}/comprovante`]) {
      const res = await t.get(other, url);
      expect(res.statusCode).toBe(404);
      expect(json<{ Mensagem: string }>(res).Mensagem).toBe(freeFlowMessages.notFound);
    }
  });

  it('a toll the concessionaire cancelled says so', async () => {
    const d = await driver();
    await optIn(d);
    const { id, externalId } = await toll(d, 9);
    const withdrawn = await t
      .app()
      .inject({ method: 'DELETE', url: `/api/parceiro/livre-passagem/${externalId}`, headers: { 'x-api-key': await concessionaireKey() } });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const { code, text } = await proofPdf(d, `/api/livre-passagem/${id}/comprovante-recurso`);
    expect(text).toContain(proofMessages.cancelledUnpaid);
    expect((await verified(code)).pagamento).toMatchObject({ pagoPor: proofMessages.cancelledUnpaid, autenticacao: null });
  });

  it('a code with any character changed, malformed or unknown shows nothing: 404 with the message', async () => {
    const d = await driver();
    const id = await passage(d, 'Praça Vinhedo');
    const { code } = await proofPdf(d, `/api/passagens/${id}/comprovante-recurso`);
    const from = nextAddress();
    expect((await verify(code, from)).statusCode).toBe(200);
    const changed = [...code].map((ch, i) => {
      const other = CODE_CHARS[(CODE_CHARS.indexOf(ch) + 1) % CODE_CHARS.length] ?? 'x';
      return `${code.slice(0, i)}${other}${code.slice(i + 1)}`;
    });
    changed.push(code.toUpperCase(), code.slice(0, -1), `${code}A`, 'P1.abc.xyz', 'qualquer-coisa', code.replace(/^P/, 'L'));
    for (const bad of changed) {
      const res = await verify(bad, nextAddress());
      expect(res.statusCode, bad).toBe(404);
      expect(json<{ Sucesso: boolean; Mensagem: string }>(res)).toMatchObject({ Sucesso: false, Mensagem: proofMessages.notFound });
    }
  });

  it('the public verification is limited per client address', async () => {
    const from = '203.0.113.77';
    for (let i = 0; i < 60; i += 1) expect((await verify(`P1.a.${'x'.repeat(27)}`, from)).statusCode).toBe(404);
    const limited = await verify(`P1.a.${'x'.repeat(27)}`, from);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await verify(`P1.a.${'x'.repeat(27)}`, nextAddress())).statusCode).toBe(404);
  });
});
