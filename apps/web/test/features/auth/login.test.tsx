import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { demoUser, mockApi, ok, renderRoute, type MockReply } from '../../support/utils';
// Loaded up front: the lazy route and the sign-in module then resolve at once, even on a busy machine.
import '../../../src/features/auth/LoginPage';
import '../../../src/features/auth/api/signIn';

const loginOk = ok({ Token: 'novo-token', Data: demoUser });
const balance = ok({ Saldo: 10, SaldoTerceiro: 0 });
const decided = (action: 'aceite' | 'rejeite') => ok({ data: { action, termId: 1, version: 1, decidedAt: '2026-01-02T10:00:00-03:00' } });

type User = ReturnType<typeof renderRoute>['user'];

/** Pasted, not typed key by key: the mask formats a paste like typing. */
async function fillAndSubmit(user: User, cpfCnpj: string, password: string) {
  await user.click(await screen.findByLabelText('CPF/CNPJ'));
  await user.paste(cpfCnpj);
  await user.click(screen.getByLabelText('Senha'));
  await user.paste(password);
  await user.click(screen.getByRole('button', { name: 'Entrar' }));
}

describe('/login', () => {
  it("asks for both fields in the SPEC's order, focuses the first and calls nothing", async () => {
    const api = mockApi({});
    const { user } = renderRoute('/login');
    await user.click(await screen.findByRole('button', { name: 'Entrar' }));
    const cpfMessage = await screen.findByText('Por favor digite seu CPF/CNPJ');
    const passwordMessage = screen.getByText('Por favor digite sua senha');
    expect(cpfMessage.compareDocumentPosition(passwordMessage) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText('CPF/CNPJ')).toHaveFocus());
    expect(api.fetchMock).not.toHaveBeenCalled();
    expect(document.title).toBe('Entrar | Portal do Motorista');
  });

  it('asks only for the password when the CPF/CNPJ is there, and the message leaves once it is typed', async () => {
    mockApi({});
    const { user } = renderRoute('/login');
    await user.click(await screen.findByLabelText('CPF/CNPJ'));
    await user.paste('52998224725');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Por favor digite sua senha')).toBeInTheDocument();
    expect(screen.queryByText('Por favor digite seu CPF/CNPJ')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Senha'));
    await user.paste('x');
    await waitFor(() => expect(screen.queryByText('Por favor digite sua senha')).not.toBeInTheDocument());
  });

  it.each([
    ['a CPF', '52998224725', '529.982.247-25'],
    ['an alphanumeric CNPJ, at most 14 characters', '12abc34501de35999', '12.ABC.345/01DE-35'],
  ])('masks %s', async (_case, typed, shown) => {
    mockApi({});
    const { user } = renderRoute('/login');
    const input = await screen.findByLabelText('CPF/CNPJ');
    await user.type(input, typed);
    expect(input).toHaveValue(shown);
  });

  it.each<[string, MockReply | undefined, string, string | null]>([
    ['no terms record: /dashboard, flag inexistente', ok({ data: null }), '/dashboard', 'inexistente'],
    ['terms accepted: /dashboard, flag aceito', decided('aceite'), '/dashboard', 'aceito'],
    ['terms rejected: /blocked-access, no flag', decided('rejeite'), '/blocked-access', null],
    ['status unknown (500): /dashboard, no flag', { status: 500, body: { Sucesso: false, Mensagem: 'falhou' } }, '/dashboard', null],
  ])('signs in and lands by the term status — %s', async (_case, status, landing, flag) => {
    const api = mockApi({
      'POST /api/tokens/login-motorista': loginOk,
      'GET /api/termos/status-atual/7': status ?? ok({ data: null }),
      'GET /api/motorista/saldo': balance,
    });
    const { user, router } = renderRoute('/login');
    await fillAndSubmit(user, '52998224725', 'motorista123');
    await waitFor(() => expect(router.state.location.pathname).toBe(landing));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(api.callsTo('POST', '/api/tokens/login-motorista')[0]?.body).toEqual({ cpfCnpj: '52998224725', password: 'motorista123' });
    expect(api.callsTo('GET', '/api/termos/status-atual/7')).toHaveLength(1);
    expect(api.callsTo('GET', '/api/termos/status-atual/7')[0]?.headers.authorization).toBe('Bearer novo-token');
    expect(JSON.parse(localStorage.getItem('user_data') ?? 'null')).toEqual(demoUser);
    expect(localStorage.getItem('aceite_termo')).toBe(flag);
  });

  it('lands on the dashboard with the greeting', async () => {
    mockApi({
      'POST /api/tokens/login-motorista': loginOk,
      'GET /api/termos/status-atual/7': ok({ data: null }),
      'GET /api/motorista/saldo': balance,
    });
    const { user } = renderRoute('/login');
    await fillAndSubmit(user, '52998224725', 'motorista123');
    expect(await screen.findByText('Olá, Maria')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('novo-token');
  });

  it.each<[string, MockReply, string]>([
    ['a refusal (401)', { status: 401, body: { Sucesso: false, Mensagem: 'Credenciais inválidas' } }, 'Usuário ou senha incorretos'],
    ['a refused body (422)', { status: 422, body: { Sucesso: false, Mensagem: 'Dados inválidos' } }, 'Usuário ou senha incorretos'],
    [
      'throttling (429)',
      { status: 429, body: { Sucesso: false, Mensagem: 'Muitas tentativas de acesso. Aguarde alguns minutos e tente novamente.' } },
      'Muitas tentativas de acesso. Aguarde alguns minutos e tente novamente.',
    ],
    ['an outage (503)', { status: 503, body: { Sucesso: false, Mensagem: 'Serviço indisponível' } }, 'Serviço indisponível'],
  ])('says what went wrong on %s and keeps the driver on /login', async (_case, reply, shown) => {
    mockApi({ 'POST /api/tokens/login-motorista': reply });
    const { user, router } = renderRoute('/login');
    await fillAndSubmit(user, '52998224725', 'errada');
    expect(await screen.findByRole('alert')).toHaveTextContent(shown);
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('links to registration and to the support chat in a new tab', async () => {
    mockApi({});
    renderRoute('/login');
    expect(await screen.findByRole('link', { name: 'Criar conta' })).toHaveAttribute('href', '/registrar');
    const support = screen.getByRole('link', { name: 'Precisa de ajuda? Fale com o suporte' });
    expect(support).toHaveAttribute('href', '/api/suporte/whatsapp');
    expect(support).toHaveAttribute('target', '_blank');
  });
});
