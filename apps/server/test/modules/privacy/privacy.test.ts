import { inflateSync } from 'node:zlib';
import { privacyResponse } from '@portal/contract';
import { privacyMessages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { PRIVACY_OFFICER_EXAMPLE } from '../../../src/production-settings.js';
import { buildTemplateTermsPdf } from '../../../src/modules/terms/template-pdf.js';
import { bearer, registerDriver, useTestApp } from '../../helpers/app.js';

const URL = '/api/privacidade';

/**
 * Decision 72: the privacy notice names the encarregado (LGPD art. 41 § 1) the operator configured.
 * The call reads no table: one database is enough.
 */
describe('o encarregado pelos dados pessoais: GET /api/privacidade', () => {
  const officer = { PRIVACY_OFFICER_NAME: '  Beatriz Nogueira Lima ', PRIVACY_OFFICER_EMAIL: 'dpo@transportadora.com.br' };
  const ctx = useTestApp('sqlite', officer);
  const app = () => ctx().app;

  it('answers the configured name and e-mail to anyone, without signing in', async () => {
    const res = await app().inject({ method: 'GET', url: URL });
    expect(res.statusCode, res.body).toBe(200);
    const body = privacyResponse.parse(res.json());
    expect(body).toEqual({
      Sucesso: true,
      Mensagem: privacyMessages.loaded,
      Encarregado: { nome: 'Beatriz Nogueira Lima', email: 'dpo@transportadora.com.br' },
    });
  });

  it("the same answer with a driver's session, with a session that is no more, and with anything in the query", async () => {
    const alone = (await app().inject({ method: 'GET', url: URL })).body;
    const driver = await registerDriver(app());
    for (const headers of [bearer(driver.token), bearer('sessao-que-nao-existe'), { authorization: 'Basic x' }]) {
      const res = await app().inject({ method: 'GET', url: URL, headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe(alone);
      expect(res.body).not.toContain(driver.cpfCnpj);
    }
    const withQuery = await app().inject({ method: 'GET', url: `${URL}?nome=outro&email=x@y.z` });
    expect(withQuery.body).toBe(alone);
  });

  it('is a read: POST is not a call of the contract', async () => {
    const res = await app().inject({ method: 'POST', url: URL, payload: { nome: 'Outro' } });
    expect(res.statusCode).toBe(404);
    expect((await app().inject({ method: 'GET', url: URL })).json()).toMatchObject({ Encarregado: { nome: 'Beatriz Nogueira Lima' } });
  });
});

describe('o encarregado de exemplo fora de produção', () => {
  const ctx = useTestApp('sqlite');

  it('a development or test server without PRIVACY_OFFICER_* shows the example (production refuses it: production-settings.test.ts)', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: URL });
    expect(res.json()).toMatchObject({ Encarregado: { nome: PRIVACY_OFFICER_EXAMPLE.name, email: PRIVACY_OFFICER_EXAMPLE.email } });
  });
});

describe('os termos de uso modelo', () => {
  it('send the driver to the privacy notice for the encarregado and the rights, instead of naming a contact that can change', async () => {
    const text = pdfText(await buildTemplateTermsPdf());
    for (const phrase of ['Aviso de Privacidade', '/privacidade', 'encarregado', 'art. 41', 'Configurações']) {
      expect(text).toContain(phrase);
    }
    expect(text).not.toContain(PRIVACY_OFFICER_EXAMPLE.email);
  });
});

/** The text pdf-lib drew with the standard fonts (hex WinAnsi strings in deflated streams), lines joined. */
function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString('latin1');
  const lines: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n([\s\S]*?)endstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) lines.push(Buffer.from(hex[1]!, 'hex').toString('latin1'));
  }
  return lines.join(' ');
}
