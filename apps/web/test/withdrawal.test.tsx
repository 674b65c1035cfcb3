import { screen, waitFor, within } from '@testing-library/react';
import { messages, serverMessages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderRoute, signInStorage, type MockReply } from './utils';
// Loaded up front: the lazy route resolves at once, even on a busy machine.
import '../src/features/withdrawal/WithdrawPage';

type User = ReturnType<typeof renderRoute>['user'];

/** Pastes into a field (masks format a paste like typing; the amount's cash-register mask too). */
async function paste(user: User, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

const allowed = { 'GET /api/motorista/verificar-saque': ok({ Mensagem: 'Saque disponível' }) };
const balanceOf = (Saldo: number) => ({ 'GET /api/motorista/saldo': ok({ Saldo, SaldoTerceiro: 0 }) });

async function openForm(handlers: Record<string, MockReply | (() => MockReply)>) {
  signInStorage({ terms: 'aceito' });
  const api = mockApi(handlers);
  const view = renderRoute('/saldo/retirar');
  await screen.findByText('Saldo de pedágio:');
  return { ...view, api };
}

const field = {
  amount: () => screen.getByLabelText('Valor'),
  type: () => screen.getByLabelText('Tipo da Chave Pix'),
  key: () => screen.getByLabelText('Chave Pix'),
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

  it('shows the refusal in a red alert and no form', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      ...balanceOf(100),
      'GET /api/motorista/verificar-saque': ok({ Sucesso: false, Mensagem: serverMessages.withdrawal.termsNotAccepted }),
    });
    renderRoute('/saldo/retirar');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(serverMessages.withdrawal.termsNotAccepted);
    expect(screen.queryByLabelText('Valor')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sacar' })).not.toBeInTheDocument();
  });

  it('checks the rules in the order of SPEC 5, each message under its field', async () => {
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
    expect(api.callsTo('POST', '/api/motorista/sacar')[0]?.body).toMatchObject({ pix: { type: 'EVP', key: '123e4567-e89b-12d3-a456-426614174000' } });
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
    ['with an error: that error', { Sucesso: false, Mensagem: 'Saque não realizado', error: 'Chave Pix não encontrada no banco' }, 'Chave Pix não encontrada no banco'],
    ['without an error: its Mensagem', { Sucesso: false, Mensagem: 'Saque temporariamente indisponível' }, 'Saque temporariamente indisponível'],
  ])("SPEC 8: an unsuccessful 200 answer %s, in an 'Ops, ocorreu um erro!' toast; the form is kept", async (_case, body, shown) => {
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
});
