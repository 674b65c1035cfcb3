import 'fake-indexeddb/auto';
import { api as contract } from '@portal/contract';
import { fleetMessages, roleAllows } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockApi, ok, renderRoute, signInStorage } from '../../support/utils';
import {
  accountLine,
  accounts,
  chooseCompanyStorage,
  COMPANY_CNPJ,
  COMPANY_ID,
  COMPANY_NAME,
  companyAccount,
  ownAccount,
} from './fixtures';
import { forgetKeptData } from '../../support/keptData';

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/app/routes/DashboardRoute')]);
});

afterEach(forgetKeptData);

/** The server's words for an accepted invitation (fleetMessages.invitationAccepted's). */
const ACCEPTED = `Convite aceito. Você já pode usar a conta de ${COMPANY_NAME} no seletor do topo.`;

const balance = ok({ Saldo: 1234.56, SaldoTerceiro: 80 });
const notices = ok({ Avisos: [], UltimasMovimentacoes: [] });
const services = () => within(screen.getByRole('navigation', { name: 'Serviços' }));
const tileNames = () =>
  services()
    .getAllByRole('link')
    .map((link) => link.querySelector('p')?.textContent);

describe('decision 77: the dashboard follows the role in use', () => {
  it("a Motorista's: their vehicles and tags, no balance, no money, and nothing asked that would be refused", async () => {
    signInStorage({ terms: 'aceito' });
    chooseCompanyStorage('motorista');
    const api = mockApi({
      'GET /api/contas': accounts(ownAccount, companyAccount('motorista')),
      'GET /api/veiculo/listar': ok({
        Veiculos: [{ id: 5, LicensePlate: 'ABC1D23', Status: null, tag: null }],
        Paginacao: { TotalPaginas: 1 },
      }),
      'GET /api/motorista/saldo': balance,
      'GET /api/motorista/avisos': notices,
    });
    renderRoute('/dashboard');

    expect(await screen.findByRole('link', { name: 'Veículo ABC1D23: ver detalhes' })).toHaveAttribute('href', '/tags/detalhes/ABC1D23');
    expect(
      screen.getByText(`Você usa a conta de ${COMPANY_NAME} como Motorista: aqui estão os veículos atribuídos a você.`),
    ).toBeInTheDocument();
    expect(accountLine()).toHaveTextContent(`Conta: ${COMPANY_NAME} · Motorista`);
    // Their vehicles' screens; nothing of the account's money.
    expect(tileNames()).toEqual(expect.arrayContaining(['Veículos', 'Tags']));
    expect(tileNames()).not.toContain('Extrato');
    expect(screen.queryByText('Saldo de pedágio')).not.toBeInTheDocument();
    expect(screen.queryByText(/Sacar saldo/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Comprar créditos/)).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Empresa' })).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/api/veiculo/listar')[0]?.headers['x-conta']).toBe(String(COMPANY_ID));
    // Never asked for what the role may not read (the server would refuse it, and note it on the trail),
    // nor the invitations (the person's own account's).
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const read of [contract.balance, contract.attention, contract.freeFlowTolls].filter(
      (e) => !roleAllows('motorista', e.capability ?? 'self'),
    )) {
      expect(api.callsTo('GET', read.path)).toHaveLength(0);
    }
    expect(api.callsTo('GET', '/api/motorista/saldo')).toHaveLength(0);
    expect(api.callsTo('GET', '/api/convites')).toHaveLength(0);
  });

  it("a Financeiro's: the balance and buying credit, no withdrawal, and of the company's menu only what they may read", async () => {
    signInStorage({ terms: 'aceito' });
    chooseCompanyStorage('financeiro');
    mockApi({
      'GET /api/contas': accounts(ownAccount, companyAccount('financeiro')),
      'GET /api/motorista/saldo': balance,
      'GET /api/motorista/avisos': notices,
    });
    renderRoute('/dashboard');
    expect(await screen.findByText('R$ 1.234,56')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Comprar créditos de pedágio' })).toHaveAttribute('href', '/saldo/comprar');
    expect(screen.queryByText('Sacar saldo via Pix')).not.toBeInTheDocument();
    expect(tileNames()).toEqual(['Veículos', 'Tags', 'VPOs', 'Extrato', 'Contestações', 'Pedágios sem cancela']);
    // Of the company's pages, the ones a Financeiro may read (the cost centres), never a Gestor's only.
    const companyPages = within(screen.getByRole('navigation', { name: 'Empresa' }))
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(companyPages).toContain('/empresa/centros-de-custo');
    for (const gestorOnly of ['/empresa/membros', '/empresa/veiculos', '/empresa/auditoria', '/empresa/dupla-aprovacao']) {
      expect(companyPages).not.toContain(gestorOnly);
    }
  });

  it('an invitation on the own account: accepted, the server says so, and the company appears in the switch', async () => {
    signInStorage({ terms: 'aceito' });
    let accepted = false;
    const api = mockApi({
      'GET /api/contas': () => (accepted ? accounts(ownAccount, companyAccount('gestor')) : accounts(ownAccount)),
      'GET /api/motorista/saldo': balance,
      'GET /api/motorista/avisos': notices,
      'GET /api/convites': () =>
        ok({
          Convites: accepted
            ? []
            : [
                {
                  id: 9,
                  empresa: COMPANY_NAME,
                  documento: COMPANY_CNPJ,
                  papel: 'gestor',
                  convidadoPor: 'Ana Lima',
                  convidadoEm: '2026-11-20T13:00:00.000Z',
                },
              ],
        }),
      'POST /api/convites/9/aceitar': () => {
        accepted = true;
        return ok({ Mensagem: ACCEPTED });
      },
    });
    const { user } = renderRoute('/dashboard');

    const card = await screen.findByText(`${COMPANY_NAME} (${COMPANY_CNPJ}) convidou você como Gestor`);
    expect(card).toBeInTheDocument();
    expect(screen.getByText(/Convite de Ana Lima/)).toHaveTextContent('Convite de Ana Lima · 20/11/2026 10:00:00');
    expect(screen.queryByRole('button', { name: /Trocar de conta/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: `Aceitar o convite de ${COMPANY_NAME}` }));
    expect(await screen.findByText(ACCEPTED)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/convites/9/aceitar')[0]?.headers['x-conta']).toBeUndefined();
    // The accounts are read again: the company is in the switch, the card is gone.
    await user.click(await screen.findByRole('button', { name: /Trocar de conta/ }));
    expect(await screen.findByRole('menuitem', { name: new RegExp(`${COMPANY_NAME}.*Gestor`) })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/convidou você como Gestor/)).not.toBeInTheDocument());
  });

  it('an invitation declined only after the confirmation', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({
      'GET /api/contas': accounts(ownAccount),
      'GET /api/motorista/saldo': balance,
      'GET /api/motorista/avisos': notices,
      'GET /api/convites': ok({
        Convites: [
          {
            id: 9,
            empresa: COMPANY_NAME,
            documento: COMPANY_CNPJ,
            papel: 'motorista',
            convidadoPor: 'Ana',
            convidadoEm: '2026-11-20T13:00:00.000Z',
          },
        ],
      }),
      'POST /api/convites/9/recusar': ok({ Mensagem: fleetMessages.invitationDeclined }),
    });
    const { user } = renderRoute('/dashboard');
    await user.click(await screen.findByRole('button', { name: `Recusar o convite de ${COMPANY_NAME}` }));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo('POST', '/api/convites/9/recusar')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Recusar' }));
    expect(await screen.findByText(fleetMessages.invitationDeclined)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/convites/9/recusar')).toHaveLength(1);
  });
});
