import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { demoUser, mockApi, ok, renderRoute } from './utils';

const loginOk = ok({ Token: 'novo-token', Data: demoUser });
const balance = ok({ Saldo: 10, SaldoTerceiro: 0 });

async function fillAndSubmit(user: ReturnType<typeof renderRoute>['user'], cpfCnpj: string, password: string) {
  await user.type(await screen.findByLabelText('CPF/CNPJ'), cpfCnpj);
  await user.type(screen.getByLabelText('Senha'), password);
  await user.click(screen.getByRole('button', { name: 'Entrar' }));
}

describe('/login', () => {
  it('shows the domain messages when the fields are empty and calls nothing', async () => {
    const api = mockApi({});
    const { user } = renderRoute('/login');
    await user.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Por favor digite seu CPF/CNPJ')).toBeInTheDocument();
    expect(screen.getByText('Por favor digite sua senha')).toBeInTheDocument();
    expect(api.fetchMock).not.toHaveBeenCalled();
    expect(document.title).toBe('Entrar | Portal do Motorista');
  });

  it('masks a CPF and an alphanumeric CNPJ, at most 14 characters', async () => {
    mockApi({});
    const { user } = renderRoute('/login');
    const input = await screen.findByLabelText('CPF/CNPJ');
    await user.type(input, '52998224725');
    expect(input).toHaveValue('529.982.247-25');
    await user.clear(input);
    await user.type(input, '12abc34501de35999');
    expect(input).toHaveValue('12.ABC.345/01DE-35');
  });

  it('sends the CPF without punctuation, stores the session and, with no terms record, lands on /dashboard', async () => {
    const api = mockApi({
      'POST /api/tokens/login-motorista': loginOk,
      'GET /api/termos/status-atual/7': ok({ data: null }),
      'GET /api/motorista/saldo': balance,
    });
    const { user, router } = renderRoute('/login');
    await fillAndSubmit(user, '52998224725', 'motorista123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.callsTo('POST', '/api/tokens/login-motorista')[0]?.body).toEqual({ cpfCnpj: '52998224725', password: 'motorista123' });
    expect(api.callsTo('GET', '/api/termos/status-atual/7')[0]?.headers.authorization).toBe('Bearer novo-token');
    expect(localStorage.getItem('token')).toBe('novo-token');
    expect(JSON.parse(localStorage.getItem('user_data') ?? 'null')).toEqual(demoUser);
    expect(localStorage.getItem('aceite_termo')).toBe('inexistente');
    expect(await screen.findByText('Olá, Maria')).toBeInTheDocument();
  });

  it("stores 'aceito' when the current term was accepted", async () => {
    mockApi({
      'POST /api/tokens/login-motorista': loginOk,
      'GET /api/termos/status-atual/7': ok({ data: { action: 'aceite', termId: 1, version: 1, decidedAt: '2026-01-02T10:00:00-03:00' } }),
      'GET /api/motorista/saldo': balance,
    });
    const { user, router } = renderRoute('/login');
    await fillAndSubmit(user, '52998224725', 'motorista123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('aceite_termo')).toBe('aceito');
  });

  it('sends a driver who rejected the terms to /blocked-access', async () => {
    mockApi({
      'POST /api/tokens/login-motorista': loginOk,
      'GET /api/termos/status-atual/7': ok({ data: { action: 'rejeite', termId: 1, version: 1, decidedAt: '2026-01-02T10:00:00-03:00' } }),
    });
    const { user, router } = renderRoute('/login');
    await fillAndSubmit(user, '52998224725', 'motorista123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocked-access'));
    expect(await screen.findByRole('heading', { name: 'Acesso Bloqueado' })).toBeInTheDocument();
    expect(localStorage.getItem('aceite_termo')).toBeNull();
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
  });

  it("shows 'Usuário ou senha incorretos' when the server refuses", async () => {
    mockApi({
      'POST /api/tokens/login-motorista': { status: 401, body: { Sucesso: false, Mensagem: 'Usuário ou senha incorretos' } },
    });
    const { user, router } = renderRoute('/login');
    await fillAndSubmit(user, '52998224725', 'errada');
    expect(await screen.findByRole('alert')).toHaveTextContent('Usuário ou senha incorretos');
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("shows the server's message when sign-in is throttled (429)", async () => {
    const message = 'Muitas tentativas de acesso. Aguarde alguns minutos e tente novamente.';
    mockApi({ 'POST /api/tokens/login-motorista': { status: 429, body: { Sucesso: false, Mensagem: message } } });
    const { user } = renderRoute('/login');
    await fillAndSubmit(user, '52998224725', 'errada');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
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
