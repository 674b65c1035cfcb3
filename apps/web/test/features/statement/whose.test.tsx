import 'fake-indexeddb/auto';
import { messages } from '@portal/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureDownloads, mockFile } from '../../support/files';
import { memberRow, mockApi, ok, renderRoute, signInStorage, statementRow } from '../../support/utils';
import { asRole, COMPANY_ID } from '../fleet/fixtures';
import { forgetKeptData } from '../../support/keptData';

// The routes load lazily and the journeys below are long: room for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/features/statement/StatementPage')]);
});

afterEach(forgetKeptData);

const LABEL = 'Veículo, centro de custo ou motorista';

const SOUTH = { id: 3, nome: 'Operação Sul', codigo: 'OP-SUL', veiculos: 2 };
const SOUTHEAST = { id: 4, nome: 'Operação Sudeste', codigo: 'OP-SUDESTE', veiculos: 2 };

const MEMBERS = [
  memberRow({ id: 1, voce: true }),
  memberRow({ id: 2, nome: 'Fernanda Lima', papel: 'financeiro' }),
  memberRow({ id: 5, nome: 'Marcos Pereira', papel: 'motorista', placas: ['FRT3C33'] }),
  memberRow({ id: 6, nome: 'Carlos Souza', papel: 'motorista', placas: ['FRT1A11', 'FRT2B22'] }),
  // Neither an invitation nor a member removed is a Motorista to filter by.
  memberRow({ id: 7, nome: null, cpf: '***.111.222-**', papel: 'motorista', estado: 'convidado', desde: null }),
  memberRow({ id: 8, nome: 'Rui Antigo', papel: 'motorista', estado: 'removido' }),
];

const rows = [
  statementRow({
    transactionId: 3,
    placeName: 'Praça Pedágio Registro (BR-116)',
    value: -42.6,
    veiculo: { placa: 'FRT1A11', centroDeCusto: { codigo: 'OP-SUL', nome: 'Operação Sul' } },
  }),
  statementRow({
    transactionId: 2,
    placeName: 'Praça Pedágio Itatiba (SP-065)',
    value: -17.8,
    veiculo: { placa: 'FRT4D44', centroDeCusto: null },
  }),
  statementRow({ transactionId: 1, origin: 'compra-pix', placeName: 'COMPRA DE SALDO via PIX', value: 2000, kind: 'compras' }),
];

/** The fetch mock's calls to `path`, as URLs (their query strings). */
function urlsTo(api: ReturnType<typeof mockApi>, path: string): URL[] {
  return api.fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost')).filter((url) => url.pathname === path);
}

/** The company's reads the statement and its filter make, as the server answers a Gestor. */
function companyReads(extra: Parameters<typeof mockApi>[0] = {}) {
  return {
    'GET /api/extrato/listar': ok({ Transacoes: rows, Paginacao: { TotalPaginas: 1 }, Totais: [] }),
    'GET /api/extrato/veiculos': ok({
      Veiculos: ['FRT1A11', 'FRT2B22', 'FRT3C33', 'FRT4D44'].map((placa) => ({ placa, removido: false })),
    }),
    'GET /api/empresa/centros-de-custo': ok({ Centros: [SOUTHEAST, SOUTH] }),
    'GET /api/empresa/membros': ok({ Membros: MEMBERS }),
    ...extra,
  };
}

/** An element's text as a screen reader says it: without what is aria-hidden (the icons, the ' · '). */
function readAloud(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The select (its list is named by the same label, hence the role). */
const whoseSelect = (label = LABEL) => screen.getByRole('combobox', { name: label, hidden: true });

/** Opens the filters (folded on a phone, and jsdom applies no media query), then the select. */
async function openFilters(user: ReturnType<typeof renderRoute>['user']) {
  const toggle = screen.getByRole('button', { name: 'Filtros' });
  if (toggle.getAttribute('aria-expanded') !== 'true') await user.click(toggle);
}

/** Opens the select and returns its groups as the dropdown shows them: their names and their options. */
async function openGroups(user: ReturnType<typeof renderRoute>['user'], label = LABEL) {
  await openFilters(user);
  await user.click(whoseSelect(label));
  const listbox = await screen.findByRole('listbox');
  const groups = within(listbox)
    .queryAllByRole('group')
    .map((group) => ({
      group: document.getElementById(group.getAttribute('aria-labelledby') ?? '')?.textContent,
      items: within(group)
        .getAllByRole('option')
        .map((option) => option.textContent),
    }));
  const loose = within(listbox)
    .getAllByRole('option')
    .filter((option) => option.closest('[role="group"]') === null)
    .map((option) => option.textContent);
  return { listbox, groups, loose };
}

describe('decision 79: the statement filtered by plate, cost centre or Motorista', () => {
  it("a Gestor on the company's account: 'Todos', then the plates, the cost centres ('código · nome') and the active Motoristas", async () => {
    const api = asRole('gestor', companyReads());
    const { user } = renderRoute('/extrato/listar');
    await screen.findByText('Passagem por: Praça Pedágio Registro (BR-116)');
    expect(whoseSelect()).toHaveValue('Todos');
    await waitFor(() => expect(urlsTo(api, '/api/empresa/membros')).toHaveLength(1));

    const { groups, loose } = await openGroups(user);
    expect(loose).toEqual(['Todos']);
    expect(groups).toEqual([
      { group: 'Veículos', items: ['FRT1A11', 'FRT2B22', 'FRT3C33', 'FRT4D44'] },
      { group: 'Centros de custo', items: ['OP-SUDESTE · Operação Sudeste', 'OP-SUL · Operação Sul'] },
      { group: 'Motoristas', items: ['Carlos Souza', 'Marcos Pereira'] },
    ]);
    // Each read on the company's account (X-Conta), the list first.
    expect(api.calls.filter((call) => call.path !== '/api/contas')[0]?.path).toBe('/api/extrato/listar');
    for (const path of ['/api/extrato/veiculos', '/api/empresa/centros-de-custo', '/api/empresa/membros'])
      expect(api.callsTo('GET', path)[0]?.headers['x-conta']).toBe(String(COMPANY_ID));
  });

  it('the Financeiro (who may not read the members): plates and cost centres, the members never asked, nothing said on screen', async () => {
    const api = asRole(
      'financeiro',
      companyReads({ 'GET /api/empresa/membros': { status: 403, body: { Sucesso: false, Mensagem: 'Acesso negado' } } }),
    );
    const { user } = renderRoute('/extrato/listar');
    await screen.findByText('Passagem por: Praça Pedágio Registro (BR-116)');
    const label = 'Veículo ou centro de custo';
    await waitFor(() => expect(api.callsTo('GET', '/api/empresa/centros-de-custo')).toHaveLength(1));
    const { groups } = await openGroups(user, label);
    expect(groups.map((group) => group.group)).toEqual(['Veículos', 'Centros de custo']);
    expect(screen.queryByRole('option', { name: 'Carlos Souza' })).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/api/empresa/membros')).toEqual([]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("a driver's own CPF account offers only the plates, under the label 'Veículo'; no cost centres or members asked", async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi(companyReads({ 'GET /api/extrato/veiculos': ok({ Veiculos: [{ placa: 'ABC1D23', removido: false }] }) }));
    const { user } = renderRoute('/extrato/listar');
    await screen.findByText('Passagem por: Praça Pedágio Registro (BR-116)');
    await waitFor(() => expect(whoseSelect('Veículo')).toBeInTheDocument());
    const { groups } = await openGroups(user, 'Veículo');
    expect(groups).toEqual([{ group: 'Veículos', items: ['ABC1D23'] }]);
    expect(api.callsTo('GET', '/api/empresa/centros-de-custo')).toEqual([]);
    expect(api.callsTo('GET', '/api/empresa/membros')).toEqual([]);
  });

  it('a driver without vehicles sees no such select', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi(companyReads({ 'GET /api/extrato/veiculos': ok({ Veiculos: [] }) }));
    renderRoute('/extrato/listar');
    await screen.findByText('Passagem por: Praça Pedágio Registro (BR-116)');
    await waitFor(() => expect(api.callsTo('GET', '/api/extrato/veiculos')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('combobox', { name: 'Veículo', hidden: true })).not.toBeInTheDocument());
    expect(screen.getByLabelText('Tipo')).toBeInTheDocument();
  });

  it('the plates come in one read, the live trucks first and a removed one said so', async () => {
    const api = asRole(
      'gestor',
      companyReads({
        'GET /api/extrato/veiculos': ok({
          Veiculos: [
            { placa: 'AAA1A11', removido: false },
            { placa: 'CCC3C33', removido: false },
            { placa: 'BBB2B22', removido: true },
          ],
        }),
      }),
    );
    const { user } = renderRoute('/extrato/listar');
    await screen.findByText('Passagem por: Praça Pedágio Registro (BR-116)');
    const { groups } = await openGroups(user);
    expect(groups[0]).toEqual({ group: 'Veículos', items: ['AAA1A11', 'CCC3C33', 'BBB2B22 (removido)'] });
    expect(api.callsTo('GET', '/api/extrato/veiculos')).toHaveLength(1);
    expect(api.callsTo('GET', '/api/veiculo/listar')).toEqual([]);
  });

  it('choosing a cost centre puts ?centro= in the address and the request (the others cleared); a plate or a Motorista replaces it; Todos takes it off', async () => {
    const api = asRole('gestor', companyReads());
    const { user, router } = renderRoute('/extrato/listar?tipo=passagens&page=2');
    await screen.findByText('Passagem por: Praça Pedágio Registro (BR-116)');
    await waitFor(() => expect(urlsTo(api, '/api/empresa/centros-de-custo')).toHaveLength(1));
    const listQueries = () => urlsTo(api, '/api/extrato/listar').map((url) => url.search);

    await openGroups(user);
    await user.click(screen.getByRole('option', { name: 'OP-SUL · Operação Sul' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tipo=passagens&centro=3'));
    await waitFor(() => expect(listQueries()).toContain('?page=1&tipo=passagens&centro=3'));
    expect(whoseSelect()).toHaveValue('OP-SUL · Operação Sul');
    // The phone's chips say it too.
    expect(screen.getByRole('button', { name: 'Filtros' })).toHaveAccessibleDescription('Todo o período Passagens OP-SUL · Operação Sul');

    await openGroups(user);
    await user.click(screen.getByRole('option', { name: 'FRT1A11' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tipo=passagens&placa=FRT1A11'));
    await waitFor(() => expect(listQueries()).toContain('?page=1&tipo=passagens&placa=FRT1A11'));

    await openGroups(user);
    await user.click(screen.getByRole('option', { name: 'Carlos Souza' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tipo=passagens&motorista=6'));
    // A Motorista is the trucks assigned to them today, not who drove: the select says which.
    expect(whoseSelect()).toHaveAccessibleDescription('Veículos atribuídos hoje: FRT1A11, FRT2B22');

    await openGroups(user);
    await user.click(screen.getByRole('option', { name: 'Todos' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tipo=passagens'));
    expect(whoseSelect()).toHaveValue('Todos');
  });

  it("an address with ?centro= shows it chosen, and 'Exportar CSV' and 'Exportar PDF' carry it", async () => {
    const saved = captureDownloads();
    const api = asRole('gestor', companyReads());
    const asked = mockFile(api.fetchMock, '/api/extrato/exportar', {
      body: 'x',
      contentType: 'text/csv; charset=utf-8',
      fileName: 'extrato.csv',
    });
    const { user } = renderRoute('/extrato/listar?periodo=este-mes&centro=3');
    await screen.findByText('Passagem por: Praça Pedágio Registro (BR-116)');
    expect(urlsTo(api, '/api/extrato/listar').map((url) => url.search)).toEqual(['?page=1&periodo=este-mes&centro=3']);
    await waitFor(() => expect(whoseSelect()).toHaveValue('OP-SUL · Operação Sul'));

    await user.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Exportar PDF' }));
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked.map((call) => call.url.search)).toEqual([
      '?formato=csv&periodo=este-mes&centro=3',
      '?formato=pdf&periodo=este-mes&centro=3',
    ]);
  });

  it("each row with a vehicle shows its plate and its cost centre's code; a row of no vehicle none", async () => {
    asRole('gestor', companyReads());
    renderRoute('/extrato/listar');
    const passage = (await screen.findByText('Passagem por: Praça Pedágio Registro (BR-116)')).closest('tr')!;
    const mark = passage.querySelector('[data-plate]');
    expect(mark).toHaveAttribute('data-plate', 'FRT1A11');
    // Seen as 'FRT1A11 · OP-SUL'; read aloud in words.
    expect(passage.querySelector('[data-cost-centre]')).toHaveTextContent('OP-SUL');
    expect(readAloud(mark!)).toBe('Veículo FRT1A11, centro de custo OP-SUL (Operação Sul)');

    const noCentre = screen.getByText('Passagem por: Praça Pedágio Itatiba (SP-065)').closest('tr')!;
    expect(noCentre.querySelector('[data-plate]')).toHaveAttribute('data-plate', 'FRT4D44');
    expect(noCentre.querySelector('[data-cost-centre]')).toBeNull();

    const purchase = screen.getByText('Compra de saldo via Pix').closest('tr')!;
    expect(purchase.querySelector('[data-plate]')).toBeNull();
  });

  it("a cost centre the server does not know on this account is said on the select, not as a failed read; two at once by the contract's words", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = asRole(
      'gestor',
      companyReads({
        'GET /api/extrato/listar': {
          status: 422,
          body: { Sucesso: false, Mensagem: messages.statement.centreNotFound, errors: { centro: [messages.statement.centreNotFound] } },
        },
      }),
    );
    const { router } = renderRoute('/extrato/listar?centro=99');
    expect(await screen.findByText(messages.statement.centreNotFound)).toBeInTheDocument();
    expect(whoseSelect()).toHaveAccessibleDescription(messages.statement.centreNotFound);
    expect(await screen.findByText('Nenhum item.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Tentar novamente' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();

    await act(() => router.navigate('/extrato/listar?placa=FRT1A11&centro=3'));
    expect(await screen.findByText(messages.statement.oneWhoseFilter)).toBeInTheDocument();
    expect(whoseSelect()).toHaveAccessibleDescription(messages.statement.oneWhoseFilter);
    expect(urlsTo(api, '/api/extrato/listar').map((url) => url.search)).toEqual(['?page=1&centro=99']);
    logged.mockRestore();
  });
});
