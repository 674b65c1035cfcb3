import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderRoute, signInStorage } from '../support/utils';
// Loaded up front: the lazy routes resolve at once, even on a busy machine.
import '../../src/features/auth/LoginPage';
import '../../src/app/AuthenticatedShell';

describe('route guard and shell', () => {
  it('sends the root path to /login', async () => {
    mockApi({});
    const { router } = renderRoute('/');
    expect(await screen.findByRole('heading', { name: 'Bem-vindo ao Portal do Motorista' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it.each(['/dashboard', '/saldo/comprar', '/tags/detalhes/ABC1D23', '/extrato/listar'])(
    'without a token, %s redirects to /login (history replaced)',
    async (path) => {
      mockApi({});
      const { router } = renderRoute(path);
      expect(await screen.findByRole('button', { name: 'Entrar' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/login');
      expect(router.state.historyAction).toBe('REPLACE');
    },
  );

  it('with a token, renders the shell with the greeting and the balance', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/motorista/saldo': ok({ Saldo: 1234.56, SaldoTerceiro: -15.9 }) });
    renderRoute('/dashboard');
    expect(await screen.findByText('Olá, Maria')).toBeInTheDocument();
    expect(screen.getByText('Portal do Motorista')).toBeInTheDocument();
    expect(await screen.findByText('R$ 1.234,56')).toBeInTheDocument();
    expect(screen.getByText('-R$ 15,90')).toHaveAttribute('data-negative', 'true');
    expect(screen.getByRole('link', { name: /Sacar saldo via Pix/ })).toHaveAttribute('href', '/saldo/retirar');
    expect(screen.getByRole('link', { name: /Comprar créditos de pedágio/ })).toHaveAttribute('href', '/saldo/comprar');
    for (const [name, href] of [
      ['Veículos', '/veiculos/listar'],
      ['Tags', '/tags/listar'],
      ['VPOs', '/vpos/listar'],
      ['Extrato', '/extrato/listar'],
    ]) {
      expect(screen.getByRole('link', { name: new RegExp(`^${name}`) })).toHaveAttribute('href', href);
    }
    expect(document.title).toBe('Painel | Portal do Motorista');
  });

  it('a 401 from an authenticated call clears the session and goes to /login', async () => {
    signInStorage({ terms: 'aceito' });
    localStorage.setItem('comprar_saldo_valor', '150,00');
    mockApi({ 'GET /api/motorista/saldo': { status: 401, body: { Sucesso: false, Mensagem: 'Sua sessão expirou. Entre novamente.' } } });
    const { router } = renderRoute('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user_data')).toBeNull();
    expect(localStorage.getItem('aceite_termo')).toBeNull();
    expect(localStorage.getItem('comprar_saldo_valor')).toBeNull();
  });

  it("'Sair' revokes the session, clears storage and replaces history with /login", async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({
      'GET /api/motorista/saldo': ok({ Saldo: 0, SaldoTerceiro: 0 }),
      'POST /api/tokens/logout': { status: 500, body: { Sucesso: false, Mensagem: 'falhou' } },
    });
    const { router, user } = renderRoute('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(api.callsTo('POST', '/api/tokens/logout')[0]?.headers.authorization).toBe('Bearer token-de-teste');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user_data')).toBeNull();
  });

  it('a balance failure is only logged and explained calmly', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/motorista/saldo': { status: 403, body: { Sucesso: false, Mensagem: 'Acesso negado' } } });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      renderRoute('/dashboard');
      expect(await screen.findByText('Não foi possível mostrar seu saldo agora. Tente novamente em instantes.')).toBeInTheDocument();
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      console.error = original;
    }
  });

  it('the VPO list renders inside the shell, titled by its route', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/pedagio/motoristaVpos': { body: { Sucesso: true, Mensagem: 'OK', VPOS: [], Paginacao: { TotalPaginas: 0 } } } });
    renderRoute('/vpos/listar');
    expect(await screen.findByRole('heading', { name: 'VPOs' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sair' })).toBeInTheDocument();
    expect(document.title).toBe('VPOs | Portal do Motorista');
  });

  it('unknown paths say so and link to the dashboard', async () => {
    mockApi({});
    renderRoute('/nao-existe');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ir para o painel' })).toHaveAttribute('href', '/dashboard');
  });
});
