// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import { ERROR_CODES } from '@portal/contract';
import { fleetMessages } from '@portal/domain';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ACCESS_ENDED_CODE } from '../../../src/lib/http';
import { mockApi, ok, renderRoute, signInStorage, type RecordedCall } from '../../support/utils';
import { accountLine, accounts, chooseCompanyStorage, COMPANY_ID, COMPANY_NAME, companyAccount, ownAccount } from './fixtures';
import { forgetKeptData } from '../../support/keptData';

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/app/routes/DashboardRoute')]);
});

afterEach(forgetKeptData);

const dashboardReads = {
  'GET /api/motorista/saldo': ok({ Saldo: 1234.56, SaldoTerceiro: 80 }),
  'GET /api/motorista/avisos': ok({ Avisos: [], UltimasMovimentacoes: [] }),
  'GET /api/convites': ok({ Convites: [] }),
  'GET /api/tag/listar': ok({ Tags: [], Paginacao: { TotalPaginas: 0 } }),
};

const balanceReads = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'GET' && call.path === '/api/motorista/saldo');

describe('decision 77: the account in use, in the header', () => {
  it("says whose account every screen shows, and has no switch for a person who is nobody's member", async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ ...dashboardReads, 'GET /api/contas': accounts(ownAccount) });
    renderRoute('/dashboard');
    await waitFor(() => expect(accountLine()).toHaveTextContent('Conta: Maria da Silva · Minha conta'));
    await waitFor(() => expect(api.callsTo('GET', '/api/contas')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /Trocar de conta/ })).not.toBeInTheDocument();
    // The own account sends no X-Conta.
    await waitFor(() => expect(balanceReads(api.calls).length).toBeGreaterThan(0));
    expect(api.calls.every((call) => call.headers['x-conta'] === undefined)).toBe(true);
  });

  it('switches to a company: the line says it, every call then carries X-Conta, and the company menu appears', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ ...dashboardReads, 'GET /api/contas': accounts(ownAccount, companyAccount('gestor')) });
    const { user, router } = renderRoute('/tags/listar');

    await user.click(await screen.findByRole('button', { name: /Trocar de conta/ }));
    const ownChoice = await screen.findByRole('menuitem', { name: /Minha conta/ });
    expect(ownChoice).toHaveAttribute('aria-current', 'true');
    expect(ownChoice).toHaveTextContent('(em uso)');
    expect(balanceReads(api.calls)).toHaveLength(0);
    await user.click(screen.getByRole('menuitem', { name: new RegExp(`${COMPANY_NAME}.*Gestor`) }));

    // The dashboard opens, for the company.
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    await waitFor(() => expect(accountLine()).toHaveTextContent(`Conta: ${COMPANY_NAME} · Gestor`));
    expect(await screen.findByText(`Agora você está usando a conta de ${COMPANY_NAME}.`)).toBeInTheDocument();
    await waitFor(() => expect(balanceReads(api.calls)).toHaveLength(1));
    expect(balanceReads(api.calls)[0]?.headers['x-conta']).toBe(String(COMPANY_ID));
    // A Gestor on a company's account: its menu.
    expect(await screen.findByRole('navigation', { name: 'Empresa' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Membros/ })).toHaveAttribute('href', '/empresa/membros');
    expect(screen.getByRole('link', { name: /Veículos da frota/ })).toHaveAttribute('href', '/empresa/veiculos');
    expect(screen.getByRole('link', { name: /Auditoria/ })).toHaveAttribute('href', '/empresa/auditoria');
    // Kept on the phone for this person.
    expect(JSON.parse(window.localStorage.getItem('conta_em_uso') ?? 'null')).toMatchObject({ person: 7, id: COMPANY_ID, role: 'gestor' });

    // And back to the person's own account: no header any more.
    await user.click(screen.getByRole('button', { name: /Trocar de conta/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Minha conta/ }));
    await waitFor(() => expect(accountLine()).toHaveTextContent('Conta: Maria da Silva · Minha conta'));
    await waitFor(() => expect(balanceReads(api.calls)).toHaveLength(2));
    expect(balanceReads(api.calls)[1]?.headers['x-conta']).toBeUndefined();
    expect(window.localStorage.getItem('conta_em_uso')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Empresa' })).not.toBeInTheDocument();
  });

  it("a company's account chosen by another person on this phone is not this person's", async () => {
    signInStorage({ terms: 'aceito' });
    window.localStorage.setItem(
      'conta_em_uso',
      JSON.stringify({ person: 99, id: COMPANY_ID, name: COMPANY_NAME, document: 'x', role: 'gestor' }),
    );
    const api = mockApi({ ...dashboardReads, 'GET /api/contas': accounts(ownAccount) });
    renderRoute('/dashboard');
    await waitFor(() => expect(accountLine()).toHaveTextContent('Conta: Maria da Silva · Minha conta'));
    await waitFor(() => expect(balanceReads(api.calls).length).toBeGreaterThan(0));
    expect(balanceReads(api.calls)[0]?.headers['x-conta']).toBeUndefined();
  });

  it("ACCOUNT_ACCESS_ENDED: back to the person's own account, once, with the server's words", async () => {
    expect(ACCOUNT_ACCESS_ENDED_CODE).toBe(ERROR_CODES.accountAccessEnded);
    signInStorage({ terms: 'aceito' });
    chooseCompanyStorage('gestor');
    const ended = { status: 403, body: { Sucesso: false, Mensagem: fleetMessages.noAccess, code: ERROR_CODES.accountAccessEnded } };
    const forCompany = (answer: { status: number; body: unknown }) => (call: RecordedCall) =>
      call.headers['x-conta'] === String(COMPANY_ID) ? ended : answer;
    const api = mockApi({
      'GET /api/motorista/saldo': forCompany(ok({ Saldo: 10, SaldoTerceiro: 0 })),
      'GET /api/motorista/avisos': forCompany(ok({ Avisos: [], UltimasMovimentacoes: [] })),
      'GET /api/convites': ok({ Convites: [] }),
      // The list the switch had read still names the company: the refusal is what ends it.
      'GET /api/contas': accounts(ownAccount, companyAccount('gestor')),
    });
    renderRoute('/dashboard');

    expect(await screen.findByText(fleetMessages.noAccess)).toBeInTheDocument();
    expect(screen.getByText('Acesso à empresa encerrado')).toBeInTheDocument();
    await waitFor(() => expect(accountLine()).toHaveTextContent('Conta: Maria da Silva · Minha conta'));
    expect(window.localStorage.getItem('conta_em_uso')).toBeNull();
    // The own account's reads follow, without the header; the message was said once.
    await waitFor(() => expect(balanceReads(api.calls).some((call) => call.headers['x-conta'] === undefined)).toBe(true));
    expect(await screen.findByText('R$ 10,00')).toBeInTheDocument();
    expect(screen.getAllByText(fleetMessages.noAccess)).toHaveLength(1);
  });
});
