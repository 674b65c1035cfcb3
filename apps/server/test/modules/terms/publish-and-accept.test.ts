import { messages, serverMessages } from '@portal/domain';
import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { InvalidPdfError, TermsService } from '../../../src/modules/terms/service.js';
import { buildTemplateTermsPdf } from '../../../src/modules/terms/template-pdf.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';

interface Status {
  Sucesso: boolean;
  Mensagem: string;
  data: { action: string; termId: number; version: number; decidedAt: string } | null;
}

describeEachDatabase('termos de uso', (dialect) => {
  const ctx = useTestApp(dialect);
  const get = (url: string, token: string) => ctx().app.inject({ method: 'GET', url, headers: bearer(token) });
  const post = (url: string, token: string, extra: Record<string, string> = {}) =>
    ctx().app.inject({ method: 'POST', url, headers: { ...bearer(token), ...extra } });
  const status = async (id: number, token: string) => json<Status>(await get(`/api/termos/status-atual/${id}`, token));

  it('has the MODELO term as the current one at first start', async () => {
    const d = await registerDriver(ctx().app);
    const res = await get('/api/termos/getCurrentTerm', d.token);
    expect(res.statusCode).toBe(200);
    const body = json<{ Sucesso: boolean; data: { id: number; version: number; publishedAt: string } }>(res);
    expect(body.Sucesso).toBe(true);
    expect(body.data).toEqual({ id: expect.any(Number), version: 1, publishedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/) });
  });

  it('downloads the current term as a real PDF in base64 named Termos-de-Uso.pdf', async () => {
    const d = await registerDriver(ctx().app);
    const current = json<{ data: { id: number } }>(await get('/api/termos/getCurrentTerm', d.token));
    const res = await get(`/api/termos/download-base64/${current.data.id}`, d.token);
    expect(res.statusCode).toBe(200);
    const body = json<{ Sucesso: boolean; data: { id: number; fileName: string; arquivo_base64: string } }>(res);
    expect(body.data.id).toBe(current.data.id);
    expect(body.data.fileName).toBe('Termos-de-Uso.pdf');
    const pdf = Buffer.from(body.data.arquivo_base64, 'base64');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(doc.getTitle()).toBe('Termos de Uso — Portal do Motorista');
  });

  it('404 for an unknown term and 422 for a non-numeric id', async () => {
    const d = await registerDriver(ctx().app);
    const res = await get('/api/termos/download-base64/999999', d.token);
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.terms.termNotFound });
    const bad = await get('/api/termos/download-base64/abc', d.token);
    expect(bad.statusCode).toBe(422);
    expect(json(bad)).toMatchObject({ Sucesso: false, Mensagem: messages.input.idInvalid });
  });

  it('status is null before any decision; only the own id may be asked (403 otherwise)', async () => {
    const a = await registerDriver(ctx().app, {}, { acceptTerms: false });
    const b = await registerDriver(ctx().app, {}, { acceptTerms: false });
    const own = await get(`/api/termos/status-atual/${a.id}`, a.token);
    expect(own.statusCode).toBe(200);
    expect(json(own)).toEqual({ Sucesso: true, Mensagem: expect.any(String), data: null });
    const other = await get(`/api/termos/status-atual/${b.id}`, a.token);
    expect(other.statusCode).toBe(403);
    expect(json(other)).toEqual({ Sucesso: false, Mensagem: serverMessages.terms.notYours });
  });

  it('accept and reject record decisions for the current term and flip the status', async () => {
    const d = await registerDriver(ctx().app, {}, { acceptTerms: false });
    const accept = await post('/api/termos/aceitar', d.token);
    expect(accept.statusCode).toBe(200);
    expect(json(accept)).toEqual({ Sucesso: true, Mensagem: messages.terms.accepted });
    const s1 = await status(d.id, d.token);
    expect(s1.data).toMatchObject({ action: 'aceite', version: expect.any(Number) });
    expect(new Date(s1.data!.decidedAt).toISOString()).toBe(s1.data!.decidedAt);

    // The client may send an empty body with a JSON content type.
    const reject = await post('/api/termos/rejeitar', d.token, { 'content-type': 'application/json' });
    expect(reject.statusCode).toBe(200);
    expect(json(reject)).toEqual({ Sucesso: true, Mensagem: messages.terms.rejected });
    expect((await status(d.id, d.token)).data?.action).toBe('rejeite');

    await post('/api/termos/aceitar', d.token);
    expect((await status(d.id, d.token)).data?.action).toBe('aceite');
    const rows = await ctx().db.kysely.selectFrom('term_decisions').select('action').where('driver_id', '=', d.id).orderBy('id').execute();
    expect(rows.map((r) => r.action)).toEqual(['aceite', 'rejeite', 'aceite']);
  });

  it('publishing a new version resets every status to null until accepted again', async () => {
    const d = await registerDriver(ctx().app);
    await post('/api/termos/aceitar', d.token);
    const before = await status(d.id, d.token);
    expect(before.data?.action).toBe('aceite');

    const published = await new TermsService(ctx().db.kysely).publish(await buildTemplateTermsPdf());
    expect(published.version).toBe(before.data!.version + 1);
    const current = json<{ data: { id: number; version: number } }>(await get('/api/termos/getCurrentTerm', d.token));
    expect(current.data).toMatchObject({ id: published.id, version: published.version });
    expect((await status(d.id, d.token)).data).toBeNull();

    await post('/api/termos/aceitar', d.token);
    expect((await status(d.id, d.token)).data).toMatchObject({ action: 'aceite', termId: published.id, version: published.version });
  });

  it('refuses to publish something that is not a PDF', async () => {
    const terms = new TermsService(ctx().db.kysely);
    await expect(terms.publish(Buffer.from('hello world'))).rejects.toBeInstanceOf(InvalidPdfError);
    await expect(terms.publish(Buffer.from('%PDF-1.7 broken'))).rejects.toBeInstanceOf(InvalidPdfError);
  });

  it('every terms call needs a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/termos/status-atual/1'],
      ['GET', '/api/termos/getCurrentTerm'],
      ['GET', '/api/termos/download-base64/1'],
      ['POST', '/api/termos/aceitar'],
      ['POST', '/api/termos/rejeitar'],
    ] as const) {
      const res = await ctx().app.inject({ method, url });
      expect(res.statusCode, url).toBe(401);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.session.unauthorized });
    }
  });
});

describeEachDatabase('termos de uso sem termo publicado', (dialect) => {
  const ctx = useTestApp(dialect, {}, { skipTerms: true });
  it('404 for the current term, status null, and accept/reject refused with 404', async () => {
    const d = await registerDriver(ctx().app, {}, { acceptTerms: false });
    const current = await ctx().app.inject({ method: 'GET', url: '/api/termos/getCurrentTerm', headers: bearer(d.token) });
    expect(current.statusCode).toBe(404);
    expect(json(current)).toEqual({ Sucesso: false, Mensagem: serverMessages.terms.noCurrentTerm });
    const s = await ctx().app.inject({ method: 'GET', url: `/api/termos/status-atual/${d.id}`, headers: bearer(d.token) });
    expect(json<Status>(s).data).toBeNull();
    for (const url of ['/api/termos/aceitar', '/api/termos/rejeitar']) {
      const res = await ctx().app.inject({ method: 'POST', url, headers: bearer(d.token) });
      expect(res.statusCode).toBe(404);
      expect(json(res)).toEqual({ Sucesso: false, Mensagem: serverMessages.terms.noCurrentTerm });
    }
  });
});

describe('modelo dos termos', () => {
  it('is a readable Portuguese PDF marked MODELO with the expected sections', async () => {
    const bytes = await buildTemplateTermsPdf();
    const raw = Buffer.from(bytes).toString('latin1');
    expect(raw.startsWith('%PDF-')).toBe(true);
    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toContain('Termos de Uso');
    expect(doc.getSubject()).toContain('Modelo');
    const text = pdfText(bytes);
    for (const phrase of [
      'MODELO',
      '1. Objeto',
      '2. Cadastro e acesso',
      '3. Saldo e Pix',
      '4. Tags de pedágio',
      '5. Dados pessoais (LGPD)',
      '6. Aceite',
      'R$ 100,00',
    ]) {
      expect(text).toContain(phrase);
    }
  });
});

/** The text pdf-lib drew with standard fonts: hex strings (WinAnsi) inside the deflated content streams. */
function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString('latin1');
  const parts: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n([\s\S]*?)endstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const t of content.matchAll(/<([0-9A-Fa-f]+)> Tj/g)) parts.push(Buffer.from(t[1]!, 'hex').toString('latin1'));
  }
  return parts.join(' ');
}
