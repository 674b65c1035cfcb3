import { formatDateTime, messages, payoutMessages, profileMessages } from '@portal/domain';
import { expect, it } from 'vitest';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { FakePixProvider } from '../../helpers/pix.js';

const URL = '/api/motorista/dados';

interface ProfileAnswer {
  Sucesso: boolean;
  Mensagem: string;
  Dados: { nome: string; cpfCnpj: string; telefone: string; alteradoEm: string | null };
}

describeEachDatabase('os dados do motorista: ver e corrigir o nome e o telefone (LGPD art. 18, III)', (dialect) => {
  const provider = new FakePixProvider();
  const ctx = useTestApp(dialect, {}, { pixProvider: provider });
  const app = () => ctx().app;
  const db = () => ctx().db.kysely;

  const read = (d: Registered) => app().inject({ method: 'GET', url: URL, headers: bearer(d.token) });
  const correct = (d: Registered, payload: Record<string, unknown>) =>
    app().inject({ method: 'POST', url: URL, headers: bearer(d.token), payload });
  const stored = (d: Registered) =>
    db().selectFrom('drivers').select(['name', 'cpf_cnpj', 'phone_number']).where('id', '=', d.id).executeTakeFirstOrThrow();
  const changes = (d: Registered) =>
    db().selectFrom('profile_changes').select(['fields', 'changed_at']).where('driver_id', '=', d.id).orderBy('id').execute();
  const outbox = (d: Registered) =>
    db()
      .selectFrom('notification_outbox')
      .select(['kind', 'payload'])
      .where('driver_id', '=', d.id)
      .where('kind', '=', 'profileChanged')
      .execute();
  const notices = async (d: Registered) =>
    json<{ Avisos: { tipo: string; Mensagem: string; campos?: string[] }[] }>(
      await app().inject({ method: 'GET', url: '/api/motorista/avisos', headers: bearer(d.token) }),
    ).Avisos.filter((n) => n.tipo === 'dados-alterados');

  it('shows the name, the CPF/CNPJ and the phone as registered, never corrected yet; only with a session', async () => {
    const d = await registerDriver(app());
    const res = await read(d);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({
      Sucesso: true,
      Mensagem: profileMessages.loaded,
      Dados: { nome: 'Maria das Graças Souza', cpfCnpj: d.cpfCnpj, telefone: '11987654321', alteradoEm: null },
    });
    expect((await app().inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    expect(
      (await app().inject({ method: 'POST', url: URL, payload: { nome: 'Outro Nome', telefone: '11987654321', senha: 'x' } })).statusCode,
    ).toBe(401);
  });

  it('corrects the phone with the password: stored, recorded, told to the devices and on the dashboard; the name and CPF stay', async () => {
    const d = await registerDriver(app());
    const other = await registerDriver(app());
    const res = await correct(d, { nome: 'Maria das Graças Souza', telefone: '(21) 99876-5432', senha: d.password });
    expect(res.statusCode, res.body).toBe(200);
    const answer = json<ProfileAnswer>(res);
    expect(answer).toMatchObject({
      Sucesso: true,
      Mensagem: profileMessages.saved,
      Dados: { nome: 'Maria das Graças Souza', telefone: '21998765432' },
    });
    expect(answer.Dados.alteradoEm).not.toBeNull();
    expect(await stored(d)).toEqual({ name: 'Maria das Graças Souza', cpf_cnpj: d.cpfCnpj, phone_number: '+5521998765432' });
    expect((await changes(d)).map((c) => c.fields)).toEqual(['telefone']);
    const told = await outbox(d);
    expect(told).toHaveLength(1);
    expect(JSON.parse(told[0]?.payload ?? '{}')).toMatchObject({ kind: 'profileChanged', fields: ['telefone'] });
    const [notice] = await notices(d);
    expect(notice?.campos).toEqual(['telefone']);
    expect(notice?.Mensagem).toBe(
      `Seus dados foram alterados em ${formatDateTime(answer.Dados.alteradoEm ?? '')}: telefone. Se não foi você, troque sua senha e fale com o suporte.`,
    );
    expect(json<ProfileAnswer>(await read(d)).Dados).toMatchObject({ telefone: '21998765432', alteradoEm: answer.Dados.alteradoEm });
    // The other driver: untouched, told nothing.
    expect(await stored(other)).toMatchObject({ phone_number: '+5511987654321' });
    // The phone is not the provider's: it is told nothing.
    expect(provider.renamed.filter((r) => r.cpfCnpj === d.cpfCnpj)).toEqual([]);
    expect(await changes(other)).toEqual([]);
    expect(await notices(other)).toEqual([]);
  });

  it('corrects the name as the registration keeps it (spaces tidied); the next sign-in answers the new name with the same CPF', async () => {
    const d = await registerDriver(app());
    const res = await correct(d, { nome: '  Maria   Souza  Lima ', telefone: '11987654321', senha: d.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<ProfileAnswer>(res).Dados.nome).toBe('Maria Souza Lima');
    expect((await changes(d)).map((c) => c.fields)).toEqual(['nome']);
    // LGPD art. 18, § 6: the Pix provider, which keeps the name as its customer's, is told.
    expect(provider.renamed).toContainEqual({ name: 'Maria Souza Lima', cpfCnpj: d.cpfCnpj });
    const login = await app().inject({
      method: 'POST',
      url: '/api/tokens/login-motorista',
      payload: { cpfCnpj: d.cpfCnpj, password: d.password },
    });
    expect(login.statusCode).toBe(200);
    expect(json<{ Data: { name: string; cpfCnpj: string } }>(login).Data).toMatchObject({ name: 'Maria Souza Lima', cpfCnpj: d.cpfCnpj });
  });

  it('both at once is one correction naming both; the same data again changes nothing and tells nothing', async () => {
    const d = await registerDriver(app());
    const body = { nome: 'Maria Lima', telefone: '(31) 91234-5678', senha: d.password };
    expect((await correct(d, body)).statusCode).toBe(200);
    expect((await changes(d)).map((c) => c.fields)).toEqual(['nome,telefone']);
    expect((await notices(d))[0]?.Mensagem).toContain(': nome e telefone.');
    const again = await correct(d, body);
    expect(again.statusCode).toBe(200);
    expect(json(again)).toMatchObject({ Mensagem: profileMessages.unchanged });
    expect(await changes(d)).toHaveLength(1);
    expect(await outbox(d)).toHaveLength(1);
  });

  it('a name correction stands when the Pix provider is out of reach (told before the next purchase); the log names no data', async () => {
    const d = await registerDriver(app());
    provider.failRenames = true;
    try {
      const res = await correct(d, { nome: 'Maria Fora do Ar', telefone: '(21) 99876-5432', senha: d.password });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      provider.failRenames = false;
    }
    expect(await stored(d)).toMatchObject({ name: 'Maria Fora do Ar', phone_number: '+5521998765432' });
    const logs = ctx().logs.join('\n');
    expect(logs).toContain('nome corrigido não enviado ao provedor Pix');
    for (const secret of [d.cpfCnpj, 'Maria Fora do Ar', '21998765432', d.password]) expect(logs).not.toContain(secret);
  });

  it('the CPF/CNPJ is not corrected here: a cpfCnpj in the body changes nothing', async () => {
    const d = await registerDriver(app());
    const victim = await registerDriver(app());
    const res = await correct(d, { nome: 'Maria Lima', telefone: '11987654321', senha: d.password, cpfCnpj: victim.cpfCnpj });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(d)).toMatchObject({ cpf_cnpj: d.cpfCnpj, name: 'Maria Lima' });
    expect(await stored(victim)).toMatchObject({ cpf_cnpj: victim.cpfCnpj, name: 'Maria das Graças Souza' });
  });

  it.each([
    ['no password', { senha: '' }, 'senha', profileMessages.passwordRequired],
    ['a short name', { nome: 'Ana' }, 'nome', messages.registration.nameTooShort],
    ['no phone', { telefone: '' }, 'telefone', messages.registration.phoneRequired],
    ['a phone of 10 digits', { telefone: '(11) 8765-4321' }, 'telefone', messages.registration.phoneInvalid],
  ])('refuses %s with 422 on its field, and changes nothing', async (_label, change, field, message) => {
    const d = await registerDriver(app());
    const res = await correct(d, { nome: 'Maria Lima', telefone: '21998765432', senha: d.password, ...change });
    expect(res.statusCode, res.body).toBe(422);
    expect(json(res)).toMatchObject({ Sucesso: false, errors: { [field]: [message] } });
    expect(await stored(d)).toMatchObject({ name: 'Maria das Graças Souza', phone_number: '+5511987654321' });
    expect(await changes(d)).toEqual([]);
  });

  it('a wrong password changes nothing; after the allowed failures the password is not even checked (429)', async () => {
    const d = await registerDriver(app());
    const wrong = await correct(d, { nome: 'Maria Lima', telefone: '21998765432', senha: 'errada123' });
    expect(wrong.statusCode).toBe(422);
    expect(json(wrong)).toMatchObject({ errors: { senha: [payoutMessages.passwordWrong] } });
    let last = wrong;
    for (let i = 0; i < 10 && last.statusCode !== 429; i += 1)
      last = await correct(d, { nome: 'Maria Lima', telefone: '21998765432', senha: 'errada123' });
    expect(last.statusCode).toBe(429);
    const right = await correct(d, { nome: 'Maria Lima', telefone: '21998765432', senha: d.password });
    expect(right.statusCode).toBe(429);
    expect(await stored(d)).toMatchObject({ name: 'Maria das Graças Souza', phone_number: '+5511987654321' });
    expect(await changes(d)).toEqual([]);
  });
});
