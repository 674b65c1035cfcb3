import { screen, waitFor, within } from '@testing-library/react';
import { dualControlMessages, formatBrl, formatDateTime, messages, payoutMessages, serverMessages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderRoute, signInStorage, type MockReply } from '../../support/utils';
// Loaded up front: the lazy route resolves at once, even on a busy machine.
import '../../../src/features/withdrawal/WithdrawPage';
import { queryClient } from '../../../src/lib/queryClient';

type User = ReturnType<typeof renderRoute>['user'];

/** Pastes into a field (masks format a paste like typing; the amount's cash-register mask too). */
async function paste(user: User, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

/** GET /api/motorista/chaves-pix's keys: the driver's own CPF first, then keys saved (decision 44). */
const ownKey = { id: null, tipo: 'CPF', chave: '52998224725', propria: true, salvaEm: null, limitadaAte: null, restanteLimitada: null };
const savedKey = (id: number, tipo: string, chave: string) => ({
  id,
  tipo,
  chave,
  propria: false,
  salvaEm: '2026-11-01T12:00:00.000Z',
  limitadaAte: null,
  restanteLimitada: null,
});
const savedKeys = [
  ownKey,
  savedKey(1, 'PHONE', '11987654321'),
  savedKey(2, 'EMAIL', 'motorista@example.com'),
  savedKey(3, 'EVP', '123e4567-e89b-12d3-a456-426614174000'),
];
const keysOf = (Chaves: unknown[]) => ({ 'GET /api/motorista/chaves-pix': ok({ Chaves }) });
const limit = (valor: number) => ({ valor, pendente: null });
const limitsOf = {
  'GET /api/motorista/limites-saque': ok({
    Limites: { porSaque: limit(5000), diario: limit(10000), noturno: limit(1000), usadoHoje: 0, usadoNestaNoite: 0 },
  }),
};

/** A stranger's CPF, valid and not saved. */
const NEW_CPF = '11144477735';
const PASSWORD_RULE = 'Esta chave ainda não está salva: com sua senha ela fica salva em Minhas chaves Pix.';

/** A text as the screen reads it (the matchers collapse the no-break space Intl writes after R$). */
const onScreen = (text: string) => text.replace(/\s+/g, ' ');

const allowed = { 'GET /api/motorista/verificar-saque': ok({ Mensagem: 'Saque disponível' }), ...keysOf(savedKeys) };
const balanceOf = (Saldo: number) => ({ 'GET /api/motorista/saldo': ok({ Saldo, SaldoTerceiro: 0 }) });

async function openForm(handlers: Record<string, MockReply | (() => MockReply)>) {
  signInStorage({ terms: 'aceito' });
  const api = mockApi(handlers);
  const view = renderRoute('/saldo/retirar');
  await screen.findByText('Saldo de pedágio:');
  // The saved keys decide whether the password is asked: the journeys below start once they are known.
  if ('GET /api/motorista/chaves-pix' in handlers) await screen.findByRole('group', { name: 'Minhas chaves Pix' });
  return { ...view, api };
}

const field = {
  amount: () => screen.getByLabelText('Valor'),
  type: () => screen.getByLabelText('Tipo da Chave Pix'),
  key: () => screen.getByLabelText('Chave Pix'),
  password: () => screen.queryByLabelText('Senha'),
  submit: () => screen.getByRole('button', { name: 'Sacar' }),
};

describe('/saldo/retirar', () => {
  it('shows a labelled spinner while the eligibility check loads', async () => {
    signInStorage({ terms: 'aceito' });
    const { fetchMock } = mockApi({ ...balanceOf(100) });
    fetchMock.mockImplementation(() => new Promise<never>(() => undefined));
    renderRoute('/saldo/retirar');
    expect(await screen.findByText('Para sacar o saldo informe os dados abaixo')).toBeInTheDocument();
    expect(screen.getByLabelText('Verificando se o saque está disponível')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sacar' })).not.toBeInTheDocument();
  });

  it('reads each of its data once a visit: the form shows what the page has just read', async () => {
    const { api } = await openForm({ ...allowed, ...balanceOf(100), ...limitsOf });
    await screen.findByTestId('limites-saque');
    // At rest: no read running or waiting to (a second one would have started as the form mounted).
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    for (const path of [
      '/api/motorista/verificar-saque',
      '/api/motorista/saldo',
      '/api/motorista/chaves-pix',
      '/api/motorista/limites-saque',
    ]) {
      expect(api.callsTo('GET', path), path).toHaveLength(1);
    }
  });

  it('shows the refusal in a red alert and no form', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      ...balanceOf(100),
      'GET /api/motorista/verificar-saque': ok({ Sucesso: false, Mensagem: serverMessages.withdrawal.alreadyProcessing }),
    });
    renderRoute('/saldo/retirar');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(serverMessages.withdrawal.alreadyProcessing);
    expect(screen.getByRole('link', { name: 'Voltar ao painel' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByLabelText('Valor')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sacar' })).not.toBeInTheDocument();
  });

  it('a refusal for the terms offers them right here, even when the phone believed them accepted; once accepted, the form follows (issue 25)', async () => {
    signInStorage({ terms: 'aceito' });
    let accepted = false;
    const api = mockApi({
      ...balanceOf(100),
      ...keysOf(savedKeys),
      'GET /api/motorista/verificar-saque': () =>
        accepted
          ? ok({ Mensagem: 'Saque disponível' })
          : ok({ Sucesso: false, Mensagem: serverMessages.withdrawal.termsNotAccepted, code: 'TERMS_NOT_ACCEPTED' }),
      'POST /api/termos/aceitar': () => {
        accepted = true;
        return ok();
      },
    });
    const { user, router } = renderRoute('/saldo/retirar');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(serverMessages.withdrawal.termsNotAccepted);
    expect(alert).toHaveTextContent(messages.terms.acceptHere);
    expect(screen.queryByRole('link', { name: 'Voltar ao painel' })).not.toBeInTheDocument();

    const bar = await screen.findByRole('region', { name: 'Termos de Uso' });
    expect(alert.compareDocumentPosition(bar) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(within(bar).getByRole('checkbox', { name: 'Li e aceito os Termos de Uso' }));
    await user.click(within(bar).getByRole('button', { name: 'Aceitar' }));
    expect(await screen.findByRole('button', { name: 'Sacar' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Termos de Uso' })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/saldo/retirar');
    expect(api.callsTo('POST', '/api/termos/aceitar')).toHaveLength(1);
    expect(api.callsTo('GET', '/api/motorista/verificar-saque')).toHaveLength(2);
  });

  it('checks the rules in the order of spec §5, each message under its field', async () => {
    const { user, api } = await openForm({ ...allowed, ...balanceOf(100) });
    expect(await screen.findByText('R$ 100,00')).toBeInTheDocument();
    expect(field.key()).toBeDisabled();
    expect(field.amount()).toHaveAttribute('placeholder', '0,00');

    await user.click(field.submit());
    expect(await screen.findByText('Digite um valor para realizar o saque')).toBeInTheDocument();
    expect(field.amount()).toHaveAccessibleDescription('Digite um valor para realizar o saque');
    await waitFor(() => expect(field.amount()).toHaveFocus());

    await paste(user, field.amount(), '10001');
    expect(field.amount()).toHaveValue('100,01');
    await user.click(field.submit());
    expect(await screen.findByText('O valor do saque não pode ser maior que o saldo disponível')).toBeInTheDocument();

    await user.clear(field.amount());
    await paste(user, field.amount(), '4000');
    await user.click(field.submit());
    expect(await screen.findByText('Por favor selecione o tipo da chave primeiro')).toBeInTheDocument();
    expect(field.type()).toHaveAccessibleDescription('Por favor selecione o tipo da chave primeiro');
    expect(screen.queryByText('O valor do saque não pode ser maior que o saldo disponível')).not.toBeInTheDocument();

    await user.selectOptions(field.type(), 'CPF');
    expect(field.key()).toBeEnabled();
    await user.click(field.submit());
    expect(await screen.findByText('Por favor digite a chave pix para sacar seu saldo')).toBeInTheDocument();
    await waitFor(() => expect(field.key()).toHaveFocus());

    await user.paste('12345678900');
    await user.click(field.submit());
    expect(await screen.findByText('Digite uma chave pix válida')).toBeInTheDocument();
    expect(field.key()).toHaveAccessibleDescription('Digite uma chave pix válida');
    expect(api.callsTo('POST', '/api/motorista/sacar')).toHaveLength(0);
  });

  it.each([
    ['CPF', '52998224725', '529.982.247-25'],
    ['CNPJ', '11222333000181', '11.222.333/0001-81'],
    ['CNPJ', '12abc34501de35', '12.ABC.345/01DE-35'],
    ['PHONE', '11987654321', '(11) 98765-4321'],
    ['EMAIL', 'motorista@example.com', 'motorista@example.com'],
    ['EVP', '123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-12d3-a456-426614174000'],
  ])('shows a %s key %s as %s', async (type, typed, shown) => {
    const { user } = await openForm({ ...allowed, ...balanceOf(100) });
    await user.selectOptions(field.type(), type);
    await paste(user, field.key(), typed);
    expect(field.key()).toHaveValue(shown);
  });

  it('offers the five key types and clears the key when the type changes', async () => {
    const { user } = await openForm({ ...allowed, ...balanceOf(100) });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Selecione o tipo da chave',
      'CPF',
      'CNPJ',
      'Telefone',
      'E-mail',
      'Chave Aleatória',
    ]);
    await user.selectOptions(field.type(), 'PHONE');
    await paste(user, field.key(), '11987654321');
    expect(field.key()).toHaveValue('(11) 98765-4321');
    await user.selectOptions(field.type(), 'CPF');
    expect(field.key()).toHaveValue('');
  });

  it('with a negative balance: red alert, fields and Sacar disabled', async () => {
    await openForm({ ...allowed, ...balanceOf(-15.9) });
    expect(await screen.findByText('-R$ 15,90')).toHaveAttribute('data-negative', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Valor do saldo insuficiente para saque');
    expect(field.amount()).toBeDisabled();
    expect(field.type()).toBeDisabled();
    expect(field.key()).toBeDisabled();
    expect(field.submit()).toBeDisabled();
  });

  it("sends the normalised key, toasts 'Sucesso!', resets the form and reloads balance and eligibility", async () => {
    let saldo = 100;
    const { user, api } = await openForm({
      ...allowed,
      'GET /api/motorista/saldo': () => ok({ Saldo: saldo, SaldoTerceiro: 0 }),
      'POST /api/motorista/sacar': () => {
        saldo = 60;
        return ok({ Mensagem: serverMessages.withdrawal.done, withdrawalId: 'wd_1', status: 'DONE' });
      },
    });
    await screen.findByText('R$ 100,00');
    const balanceCalls = api.callsTo('GET', '/api/motorista/saldo').length;
    const eligibilityCalls = api.callsTo('GET', '/api/motorista/verificar-saque').length;
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'PHONE');
    await paste(user, field.key(), '11987654321');
    await user.click(field.submit());

    const toast = (await screen.findByText(serverMessages.withdrawal.done)).closest<HTMLElement>('[role="alert"]')!;
    expect(within(toast).getByText('Sucesso!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/motorista/sacar')[0]?.body).toEqual({
      description: messages.withdrawal.defaultDescription,
      receiver_document: '52998224725',
      amount: 40,
      pix: { key: '11987654321', type: 'PHONE' },
    });
    expect(await screen.findByText('R$ 60,00')).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/motorista/saldo').length).toBeGreaterThan(balanceCalls);
    await waitFor(() => expect(api.callsTo('GET', '/api/motorista/verificar-saque').length).toBeGreaterThan(eligibilityCalls));
    expect(field.amount()).toHaveValue('');
    expect(field.type()).toHaveValue('');
    expect(field.key()).toBeDisabled();
  });

  it('a company withdrawal above the dual control: says it waits for another Gestor within 24 hours, not that it was sent (decision 77)', async () => {
    const { user, api } = await openForm({
      ...allowed,
      ...balanceOf(10000),
      'POST /api/motorista/sacar': ok({
        Mensagem: dualControlMessages.waiting('R$ 8.000,00'),
        status: 'AGUARDANDO_APROVACAO',
        aprovacaoId: 4,
      }),
    });
    await screen.findByText('R$ 10.000,00');
    await paste(user, field.amount(), '800000');
    await user.selectOptions(field.type(), 'PHONE');
    await paste(user, field.key(), '11987654321');
    await user.click(field.submit());

    const result = (await screen.findByText('Saque aguardando aprovação')).closest<HTMLElement>('[role="status"]')!;
    expect(result).toHaveTextContent(
      'Outro Gestor da empresa precisa aprovar este saque em até 24 horas: só então o dinheiro sai. Sem aprovação, o saque expira e nada sai da conta.',
    );
    expect(within(result).getByRole('link', { name: 'Ver a dupla aprovação' })).toHaveAttribute('href', '/empresa/dupla-aprovacao');
    // Not the result of a withdrawal on its way: no 'Sucesso!', no receipt.
    expect(screen.queryByText('Sucesso!')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Ver comprovante' })).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/api/motorista/sacar')).toHaveLength(1);
    expect(field.amount()).toHaveValue('');
  });

  it("shows the answer's error when the payout fails, and still reloads the balance", async () => {
    const reason = 'Não foi possível concluir o saque: a transferência foi recusada pelo banco. O valor foi devolvido ao seu saldo.';
    const { user, api } = await openForm({
      ...allowed,
      ...balanceOf(100),
      'POST /api/motorista/sacar': { status: 502, body: { Sucesso: false, Mensagem: reason, error: reason } },
    });
    await screen.findByText('R$ 100,00');
    const balanceCalls = api.callsTo('GET', '/api/motorista/saldo').length;
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'EMAIL');
    await paste(user, field.key(), 'motorista@example.com');
    await user.click(field.submit());
    const toast = (await screen.findByText(reason)).closest<HTMLElement>('[role="alert"]')!;
    expect(within(toast).getByText('Ops, ocorreu um erro!')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET', '/api/motorista/saldo').length).toBeGreaterThan(balanceCalls));
    expect(field.amount()).toHaveValue('40,00');
  });

  it('a random key must be a UUID: any other text is refused before anything is sent', async () => {
    const { user, api } = await openForm({ ...allowed, ...balanceOf(100) });
    await screen.findByText('R$ 100,00');
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'EVP');
    await paste(user, field.key(), 'chave-aleatoria-123');
    await user.click(field.submit());
    expect(await screen.findByText('Digite uma chave pix válida')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/motorista/sacar')).toHaveLength(0);
  });

  it("puts the server's text rule for the key ('pix.key') under the key field", async () => {
    const { user, api } = await openForm({
      ...allowed,
      ...balanceOf(100),
      'POST /api/motorista/sacar': {
        status: 422,
        body: { Sucesso: false, Mensagem: messages.input.invalidCharacters, errors: { 'pix.key': [messages.input.invalidCharacters] } },
      },
    });
    await screen.findByText('R$ 100,00');
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'EVP');
    await paste(user, field.key(), '123E4567-E89B-12D3-A456-426614174000');
    await user.click(field.submit());
    expect(await screen.findByText(messages.input.invalidCharacters)).toBeInTheDocument();
    expect(field.key()).toHaveAccessibleDescription(messages.input.invalidCharacters);
    // The key goes out as the DICT writes it: lower case.
    expect(api.callsTo('POST', '/api/motorista/sacar')[0]?.body).toMatchObject({
      pix: { type: 'EVP', key: '123e4567-e89b-12d3-a456-426614174000' },
    });
  });

  it('puts a 422 field message from the server under its field', async () => {
    const { user } = await openForm({
      ...allowed,
      ...balanceOf(100),
      'POST /api/motorista/sacar': {
        status: 422,
        body: {
          Sucesso: false,
          Mensagem: 'O valor do saque não pode ser maior que o saldo disponível',
          errors: { amount: ['O valor do saque não pode ser maior que o saldo disponível'] },
        },
      },
    });
    await screen.findByText('R$ 100,00');
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'EVP');
    await paste(user, field.key(), '123e4567-e89b-12d3-a456-426614174000');
    await user.click(field.submit());
    expect(await screen.findByText('O valor do saque não pode ser maior que o saldo disponível')).toBeInTheDocument();
    expect(field.amount()).toHaveAccessibleDescription('O valor do saque não pode ser maior que o saldo disponível');
    await waitFor(() => expect(field.amount()).toHaveFocus());
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'with an error: that error',
      { Sucesso: false, Mensagem: 'Saque não realizado', error: 'Chave Pix não encontrada no banco' },
      'Chave Pix não encontrada no banco',
    ],
    [
      'without an error: its Mensagem',
      { Sucesso: false, Mensagem: 'Saque temporariamente indisponível' },
      'Saque temporariamente indisponível',
    ],
  ])("spec §8: an unsuccessful 200 answer %s, in an 'Ops, ocorreu um erro!' toast; the form is kept", async (_case, body, shown) => {
    const { user } = await openForm({ ...allowed, ...balanceOf(100), 'POST /api/motorista/sacar': { status: 200, body } });
    await screen.findByText('R$ 100,00');
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'EMAIL');
    await paste(user, field.key(), 'motorista@example.com');
    await user.click(field.submit());
    const toast = (await screen.findByText(shown)).closest<HTMLElement>('[role="alert"]')!;
    expect(within(toast).getByText('Ops, ocorreu um erro!')).toBeInTheDocument();
    expect(field.amount()).toHaveValue('40,00');
  });

  it('offers the saved keys and the own CPF as quick choices: one press fills type and key, and no password is asked', async () => {
    const { user } = await openForm({ ...allowed, ...balanceOf(100) });
    const choices = screen.getByRole('group', { name: 'Minhas chaves Pix' });
    expect(
      within(choices)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Seu CPF 529.982.247-25', 'Telefone (11) 98765-4321', 'E-mail motorista@example.com', 'Chave Aleatória 123e…4000']);

    await user.click(within(choices).getByRole('button', { name: 'Telefone (11) 98765-4321' }));
    expect(field.type()).toHaveValue('PHONE');
    expect(field.key()).toHaveValue('(11) 98765-4321');
    expect(within(choices).getByRole('button', { name: 'Telefone (11) 98765-4321' })).toHaveAttribute('aria-pressed', 'true');
    expect(field.password()).not.toBeInTheDocument();

    await user.click(within(choices).getByRole('button', { name: 'Seu CPF 529.982.247-25' }));
    expect(field.type()).toHaveValue('CPF');
    expect(field.key()).toHaveValue('529.982.247-25');
    expect(within(choices).getByRole('button', { name: 'Telefone (11) 98765-4321' })).toHaveAttribute('aria-pressed', 'false');
    expect(field.password()).not.toBeInTheDocument();

    // The own CPF typed by hand is the same key: no password either.
    await user.selectOptions(field.type(), 'CNPJ');
    await user.selectOptions(field.type(), 'CPF');
    await paste(user, field.key(), '52998224725');
    expect(field.password()).not.toBeInTheDocument();
  });

  it("a key not saved asks for the password (required), sends it as 'senha', and the key is then offered as saved", async () => {
    let chaves: unknown[] = [ownKey];
    const { user, api } = await openForm({
      ...allowed,
      ...balanceOf(100),
      'GET /api/motorista/chaves-pix': () => ok({ Chaves: chaves }),
      ...limitsOf,
      'POST /api/motorista/sacar': () => {
        chaves = [ownKey, savedKey(9, 'CPF', NEW_CPF)];
        return ok({ Mensagem: serverMessages.withdrawal.done, withdrawalId: 'wd_1', status: 'DONE' });
      },
    });
    await screen.findByText('R$ 100,00');
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'CPF');
    await paste(user, field.key(), '111444777');
    // Only a whole key asks: not while it is being typed.
    expect(field.password()).not.toBeInTheDocument();
    await user.paste('35');
    const password = await screen.findByLabelText('Senha');
    expect(password).toHaveAccessibleDescription(PASSWORD_RULE);

    await user.click(field.submit());
    expect(await screen.findByText(payoutMessages.passwordRequired)).toBeInTheDocument();
    await waitFor(() => expect(password).toHaveFocus());
    expect(api.callsTo('POST', '/api/motorista/sacar')).toHaveLength(0);

    await user.type(password, 'motorista123');
    await user.click(field.submit());
    await screen.findByText(serverMessages.withdrawal.done);
    expect(api.callsTo('POST', '/api/motorista/sacar')[0]?.body).toEqual({
      description: messages.withdrawal.defaultDescription,
      receiver_document: '52998224725',
      amount: 40,
      pix: { key: NEW_CPF, type: 'CPF' },
      senha: 'motorista123',
    });
    // The keys are asked again: the new one is a quick choice, and typing it asks for nothing.
    const choices = screen.getByRole('group', { name: 'Minhas chaves Pix' });
    expect(await within(choices).findByRole('button', { name: 'CPF 111.444.777-35' })).toBeInTheDocument();
    expect(field.password()).not.toBeInTheDocument();
  });

  it('a new key: its R$ 500,00 cap is said before the password, and a value beyond it is refused on Valor at once, before any password', async () => {
    const { user, api } = await openForm({ ...allowed, ...balanceOf(1000), ...limitsOf });
    expect(await screen.findByTestId('saldo-saque')).toHaveTextContent(/R\$\s1\.000,00/);
    await paste(user, field.amount(), '60000');
    await user.selectOptions(field.type(), 'CPF');
    await paste(user, field.key(), NEW_CPF);
    const cap = await screen.findByText(onScreen(payoutMessages.newKeyCap(formatBrl(50_000))));
    const password = await screen.findByLabelText('Senha');
    // Said above the password field, in the order a driver reads.
    expect(cap.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Refused before anything is pressed, on the field to change.
    const refusal = onScreen(payoutMessages.newKeyCapExceeded(formatBrl(50_000)));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(field.amount()).toHaveAttribute('aria-invalid', 'true');
    await user.click(field.submit());
    expect(api.callsTo('POST', '/api/motorista/sacar')).toHaveLength(0);
    expect(screen.queryByText(payoutMessages.passwordRequired)).not.toBeInTheDocument();
    // Within the cap, the refusal goes and the password is what is missing.
    await user.clear(field.amount());
    await paste(user, field.amount(), '50000');
    await waitFor(() => expect(screen.queryByText(refusal)).not.toBeInTheDocument());
    await user.click(field.submit());
    expect(await screen.findByText(payoutMessages.passwordRequired)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/motorista/sacar')).toHaveLength(0);
  });

  it('a key saved less than 24 hours ago is refused beyond what it has left, with until when', async () => {
    const recent = { ...savedKey(5, 'EMAIL', 'nova@example.com'), limitadaAte: '2026-11-02T15:00:00.000Z', restanteLimitada: 100 };
    const { user, api } = await openForm({ ...allowed, ...balanceOf(1000), ...keysOf([ownKey, recent]), ...limitsOf });
    expect(await screen.findByTestId('saldo-saque')).toHaveTextContent(/R\$\s1\.000,00/);
    await user.click(screen.getByRole('button', { name: 'E-mail nova@example.com' }));
    await paste(user, field.amount(), '15000');
    const refusal = onScreen(
      payoutMessages.newKeyExceeded(formatBrl(50_000), formatDateTime('2026-11-02T15:00:00.000Z'), formatBrl(10_000)),
    );
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(field.password()).not.toBeInTheDocument();
    await user.click(field.submit());
    expect(api.callsTo('POST', '/api/motorista/sacar')).toHaveLength(0);
  });

  it("puts the server's 422 on 'senha' under the password field", async () => {
    const { user } = await openForm({
      ...allowed,
      ...balanceOf(100),
      'POST /api/motorista/sacar': {
        status: 422,
        body: { Sucesso: false, Mensagem: payoutMessages.passwordWrong, errors: { senha: [payoutMessages.passwordWrong] } },
      },
    });
    await screen.findByText('R$ 100,00');
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'CPF');
    await paste(user, field.key(), NEW_CPF);
    await user.type(await screen.findByLabelText('Senha'), 'errada123');
    await user.click(field.submit());
    expect(await screen.findByText(payoutMessages.passwordWrong)).toBeInTheDocument();
    expect(field.password()).toHaveAccessibleDescription(expect.stringContaining(payoutMessages.passwordWrong));
    await waitFor(() => expect(field.password()).toHaveFocus());
  });

  it('pressing Sacar again sends the very same order, password included, even once the key was saved (one payout however often it is pressed)', async () => {
    let chaves: unknown[] = [ownKey];
    const refusal = 'O valor passa do seu limite noturno (20h às 6h), de R$ 1.000,00.';
    const { user, api } = await openForm({
      ...allowed,
      ...balanceOf(100),
      'GET /api/motorista/chaves-pix': () => ok({ Chaves: chaves }),
      // The right password saved the key; the limit refused the payout.
      'POST /api/motorista/sacar': () => {
        chaves = [ownKey, savedKey(9, 'CPF', NEW_CPF)];
        return { status: 422, body: { Sucesso: false, Mensagem: refusal, errors: { amount: [refusal] } } };
      },
    });
    await screen.findByText('R$ 100,00');
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'CPF');
    await paste(user, field.key(), NEW_CPF);
    await user.type(await screen.findByLabelText('Senha'), 'motorista123');
    await user.click(field.submit());
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    await waitFor(() => expect(field.password()).not.toBeInTheDocument());
    await user.click(field.submit());
    await waitFor(() => expect(api.callsTo('POST', '/api/motorista/sacar')).toHaveLength(2));
    const [first, second] = api.callsTo('POST', '/api/motorista/sacar');
    expect(second?.body).toEqual(first?.body);
    expect(second?.body).toMatchObject({ senha: 'motorista123' });
  });

  it('says the limits in force as three labelled figures, with the way to Configurações', async () => {
    await openForm({ ...allowed, ...balanceOf(100), ...limitsOf });
    const limits = await screen.findByRole('region', { name: 'Seus limites' });
    const figures = within(limits)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]);
    expect(figures).toEqual([
      ['Por saque', formatBrl(500_000)],
      ['Por dia', formatBrl(1_000_000)],
      ['À noite (20h às 6h)', formatBrl(100_000)],
    ]);
    expect(within(limits).getByRole('link', { name: 'Alterar em Configurações' })).toHaveAttribute('href', '/configuracoes');
  });

  it('draws the form whole: the saved keys and the limits are in it the moment it appears (nothing pushed down later)', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ ...allowed, ...balanceOf(100), ...limitsOf });
    renderRoute('/saldo/retirar');
    await screen.findByText('Saldo de pedágio:');
    expect(screen.getByRole('group', { name: 'Minhas chaves Pix' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Seus limites' })).toBeInTheDocument();
  });

  it('keeps the way to the receipt while the reads that failed are read again after the withdrawal', async () => {
    // The keys and the limits could not be read (the server refused them: 429): the form works without
    // them, and the withdrawal's answer asks for them again. Until they answered (slowly, here), the
    // form gave way to the spinner and came back empty: 'Ver comprovante' was lost.
    const tooMany = { status: 429, body: { Sucesso: false, Mensagem: 'Muitas solicitações' } };
    signInStorage({ terms: 'aceito' });
    const api = mockApi({
      ...balanceOf(100),
      'GET /api/motorista/verificar-saque': ok({ Mensagem: 'Saque disponível' }),
      'GET /api/motorista/chaves-pix': tooMany,
      'GET /api/motorista/limites-saque': tooMany,
      'POST /api/motorista/sacar': ok({ Mensagem: serverMessages.withdrawal.processing, withdrawalId: 'wd_9', status: 'PROCESSING' }),
    });
    const answer = api.fetchMock.getMockImplementation()!;
    let withdrawn = false;
    api.fetchMock.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if ((init.method ?? 'GET') === 'POST') withdrawn = true;
      else if (withdrawn) await new Promise((resolve) => setTimeout(resolve, 300));
      return answer(input, init);
    });
    const { user } = renderRoute('/saldo/retirar');
    await screen.findByText('R$ 100,00');
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'CPF');
    await paste(user, field.key(), '52998224725');
    const keyReads = api.callsTo('GET', '/api/motorista/chaves-pix').length;
    await user.click(field.submit());

    expect(await screen.findByRole('link', { name: 'Ver comprovante' })).toHaveAttribute('href', '/comprovantes/saque/wd_9');
    expect(api.callsTo('GET', '/api/motorista/chaves-pix').length).toBeGreaterThan(keyReads);
    expect(screen.queryByLabelText('Verificando se o saque está disponível')).not.toBeInTheDocument();
  });

  it('while the keys cannot be read, only the own CPF goes without the password', async () => {
    const { user } = await openForm({ ...balanceOf(100), 'GET /api/motorista/verificar-saque': ok({ Mensagem: 'Saque disponível' }) });
    await paste(user, field.amount(), '4000');
    await user.selectOptions(field.type(), 'PHONE');
    await paste(user, field.key(), '11987654321');
    expect(await screen.findByLabelText('Senha')).toBeInTheDocument();
    await user.selectOptions(field.type(), 'CPF');
    await paste(user, field.key(), '52998224725');
    expect(field.password()).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Minhas chaves Pix' })).not.toBeInTheDocument();
  });
});
