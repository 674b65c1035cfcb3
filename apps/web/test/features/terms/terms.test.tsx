import { screen, waitFor, within } from '@testing-library/react';
import { ERROR_CODES } from '@portal/contract';
import { messages, serverMessages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, pendingCharge, renderRoute, signInStorage } from '../../support/utils';
// Loaded up front: the lazy routes resolve at once, even on a busy machine.
import '../../../src/app/routes/DashboardRoute';
import '../../../src/features/terms/BlockedAccessPage';
import '../../../src/features/credit/BuyBalancePage';

const balance = { 'GET /api/motorista/saldo': ok({ Saldo: 50, SaldoTerceiro: 0 }) };

describe('terms bar on /dashboard', () => {
  it("keeps 'Aceitar' disabled until the checkbox is ticked, then accepts and hides", async () => {
    signInStorage({ terms: 'inexistente' });
    const api = mockApi({ ...balance, 'POST /api/termos/aceitar': ok() });
    const { user } = renderRoute('/dashboard');
    const bar = await screen.findByRole('region', { name: 'Termos de Uso' });
    const accept = within(bar).getByRole('button', { name: 'Aceitar' });
    expect(accept).toBeDisabled();
    await user.click(within(bar).getByRole('checkbox', { name: 'Li e aceito os Termos de Uso' }));
    expect(accept).toBeEnabled();
    await user.click(accept);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Termos de Uso' })).not.toBeInTheDocument());
    expect(localStorage.getItem('aceite_termo')).toBe('aceito');
    expect(api.callsTo('POST', '/api/termos/aceitar')).toHaveLength(1);
    expect(await screen.findByText('Termo aceito com sucesso!')).toBeInTheDocument();
  });

  it('is held at the foot of the screen, after its title and the balance, never pushing them (issue 25: not 1,000 px down)', async () => {
    signInStorage({ terms: 'inexistente' });
    mockApi(balance);
    renderRoute('/dashboard');
    const bar = await screen.findByRole('region', { name: 'Termos de Uso' });
    const before = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(before(screen.getByRole('heading', { name: 'Painel', level: 1 }), bar)).toBe(true);
    expect(before(screen.getByRole('heading', { name: 'Saldo de pedágio' }), bar)).toBe(true);
    expect(bar).toHaveTextContent(messages.terms.pending);
    expect(within(bar).getByRole('button', { name: 'Ler os Termos de Uso' })).toBeInTheDocument();
  });

  it("is hidden when aceite_termo is 'aceito'", async () => {
    signInStorage({ terms: 'aceito' });
    mockApi(balance);
    renderRoute('/dashboard');
    expect(await screen.findByText('Olá, Maria')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Termos de Uso' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Aceitar' })).not.toBeInTheDocument();
  });

  it("toasts 'Falha ao aceitar o termo' when the server fails", async () => {
    signInStorage({ terms: 'inexistente' });
    mockApi({ ...balance, 'POST /api/termos/aceitar': { status: 500, body: { Sucesso: false, Mensagem: 'erro' } } });
    const { user } = renderRoute('/dashboard');
    await user.click(await screen.findByRole('checkbox', { name: 'Li e aceito os Termos de Uso' }));
    await user.click(screen.getByRole('button', { name: 'Aceitar' }));
    expect(await screen.findByText('Falha ao aceitar o termo')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Termos de Uso' })).toBeInTheDocument();
    expect(localStorage.getItem('aceite_termo')).toBe('inexistente');
  });

  it("'Rejeitar' asks for confirmation, then goes to /blocked-access", async () => {
    signInStorage({ terms: 'inexistente' });
    const api = mockApi({ ...balance, 'POST /api/termos/rejeitar': ok() });
    const { user, router } = renderRoute('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Rejeitar' }));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo('POST', '/api/termos/rejeitar')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Rejeitar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocked-access'));
    expect(api.callsTo('POST', '/api/termos/rejeitar')).toHaveLength(1);
  });
});

describe('/blocked-access', () => {
  it('moves the token out of storage, and accepting with it restores the session', async () => {
    signInStorage();
    const api = mockApi({ ...balance, 'POST /api/termos/aceitar': ok() });
    const { user, router } = renderRoute('/blocked-access');
    expect(await screen.findByRole('heading', { name: 'Acesso Bloqueado' })).toBeInTheDocument();
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(screen.getByText(/continua restrito até que você aceite os Termos de Uso/)).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Aceito os termos' }));
    await user.click(screen.getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.callsTo('POST', '/api/termos/aceitar')[0]?.headers.authorization).toBe('Bearer token-de-teste');
    expect(localStorage.getItem('token')).toBe('token-de-teste');
    expect(localStorage.getItem('aceite_termo')).toBe('aceito');
  });

  it('downloads the current terms with the in-memory token', async () => {
    signInStorage();
    const created: Blob[] = [];
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob);
      return 'blob:termos';
    };
    URL.revokeObjectURL = () => undefined;
    const api = mockApi({
      'GET /api/termos/getCurrentTerm': ok({ data: { id: 3, version: 2, publishedAt: '2026-01-01T00:00:00-03:00' } }),
      'GET /api/termos/download-base64/3': ok({ data: { id: 3, fileName: 'termos.pdf', arquivo_base64: btoa('%PDF-1.4 MODELO') } }),
    });
    const { user } = renderRoute('/blocked-access');
    await user.click(await screen.findByRole('button', { name: 'Baixar Termos de Uso' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]?.type).toBe('application/pdf');
    expect(api.callsTo('GET', '/api/termos/download-base64/3')[0]?.headers.authorization).toBe('Bearer token-de-teste');
  });

  it("rejecting shows the restriction; a failure shows 'Falha ao rejeitar o termo'", async () => {
    signInStorage();
    let fail = true;
    mockApi({
      'POST /api/termos/rejeitar': () => (fail ? { status: 500, body: { Sucesso: false, Mensagem: 'x' } } : ok()),
    });
    const { user } = renderRoute('/blocked-access');
    await user.click(await screen.findByRole('radio', { name: 'Rejeito os termos' }));
    await user.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Falha ao rejeitar o termo');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText(/Termo rejeitado/)).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('after rejecting, the driver may still accept, or go back to /login', async () => {
    signInStorage();
    const api = mockApi({ ...balance, 'POST /api/termos/rejeitar': ok(), 'POST /api/termos/aceitar': ok() });
    const { user, router } = renderRoute('/blocked-access');
    await user.click(await screen.findByRole('radio', { name: 'Rejeito os termos' }));
    await user.click(screen.getByRole('button', { name: 'Confirmar' }));
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Termo rejeitado. O acesso ficará restrito até que você aceite os Termos de Uso.');
    expect(screen.getByRole('link', { name: 'Voltar para o login' })).toHaveAttribute('href', '/login');

    await user.click(screen.getByRole('radio', { name: 'Aceito os termos' }));
    await user.click(screen.getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.callsTo('POST', '/api/termos/rejeitar')).toHaveLength(1);
    expect(api.callsTo('POST', '/api/termos/aceitar')).toHaveLength(1);
    expect(localStorage.getItem('aceite_termo')).toBe('aceito');
  });

  it("'Voltar para o login' leads to /login", async () => {
    signInStorage();
    mockApi({});
    const { user, router } = renderRoute('/blocked-access');
    await user.click(await screen.findByRole('link', { name: 'Voltar para o login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Entrar' })).toBeInTheDocument();
  });

  it('without any token explains and offers the way to the login', async () => {
    mockApi({});
    renderRoute('/blocked-access');
    expect(await screen.findByRole('heading', { name: 'Acesso Bloqueado' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ir para o login' })).toHaveAttribute('href', '/login');
  });
});

describe('a call the server refuses for terms not accepted (founding decision 27)', () => {
  const refused = { status: 403, body: { Sucesso: false, Mensagem: serverMessages.terms.notAccepted, code: ERROR_CODES.termsNotAccepted } };

  async function buy(user: ReturnType<typeof renderRoute>['user']) {
    await user.click(await screen.findByLabelText('Valor Saldo'));
    await user.paste('15000');
    await user.click(screen.getByRole('button', { name: 'Comprar' }));
  }

  it('keeps the driver on the screen with what they typed, shows the terms there, and once accepted the purchase goes on (issue 25)', async () => {
    signInStorage({ terms: 'aceito' });
    let termsAccepted = false;
    const api = mockApi({
      ...balance,
      'POST /api/transacoes/gerar-qrcode': () =>
        termsAccepted ? ok({ Mensagem: 'Pix gerado com sucesso!', qrCode: pendingCharge }) : refused,
      'POST /api/termos/aceitar': () => {
        termsAccepted = true;
        return ok();
      },
      [`GET /api/transacoes/qrcode/${pendingCharge.id}`]: ok({ Mensagem: 'Aguardando o pagamento', qrCode: pendingCharge }),
    });
    const { user, router } = renderRoute('/saldo/comprar');
    await buy(user);
    const bar = await screen.findByRole('region', { name: 'Termos de Uso' });
    expect(await screen.findByText(serverMessages.terms.notAccepted)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/saldo/comprar');
    expect(localStorage.getItem('token')).toBe('token-de-teste');
    expect(localStorage.getItem('aceite_termo')).toBe('inexistente');
    expect(screen.getByLabelText('Valor Saldo')).toHaveValue('150,00');
    // The bar is brought to the driver (focused), and 'Comprar' is remembered.
    expect(bar).toHaveFocus();

    await user.click(within(bar).getByRole('checkbox', { name: 'Li e aceito os Termos de Uso' }));
    await user.click(within(bar).getByRole('button', { name: 'Aceitar' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Termos de Uso' })).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/termos/aceitar')[0]?.headers.authorization).toBe('Bearer token-de-teste');
    expect(localStorage.getItem('aceite_termo')).toBe('aceito');
    expect(router.state.location.pathname).toBe('/saldo/comprar');
    const comprar = screen.getByRole('button', { name: 'Comprar' });
    await waitFor(() => expect(comprar).toHaveFocus());
    await user.click(comprar);
    expect(await screen.findByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/transacoes/gerar-qrcode')).toHaveLength(2);
  });

  it('another 403 (no terms code) stays on the page and shows its Mensagem', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      ...balance,
      'POST /api/transacoes/gerar-qrcode': { status: 403, body: { Sucesso: false, Mensagem: serverMessages.terms.notAccepted } },
    });
    const { user, router } = renderRoute('/saldo/comprar');
    await buy(user);
    expect(await screen.findByText(serverMessages.terms.notAccepted)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/saldo/comprar');
    expect(localStorage.getItem('token')).toBe('token-de-teste');
  });
});
