import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { messages, otherVposTotalHint, STATEMENT_LISTED_VPO_TOTALS } from '@portal/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_REASON_ID } from '../../../src/lib/offline';
import { captureDownloads, mockFile } from '../../support/files';
import { connection, mockApi, ok, pageUrls, renderRoute, signInStorage, statementRow } from '../../support/utils';
// Loaded up front: the lazy route resolves at once, even on a busy machine.
import '../../../src/features/statement/StatementPage';
import { queryClient } from '../../../src/lib/queryClient';

// The routes load lazily and the journeys below are long: room for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const rows = [
  statementRow({ transactionId: 1 }),
  statementRow({ transactionId: 2, is_third: true, placeName: 'Praça Guararema', kind: 'terceiros' }),
  statementRow({ transactionId: 3, origin: 'debito-terceiro-movemais', placeName: 'Débito MoveMais', value: -30, kind: 'terceiros' }),
  statementRow({ transactionId: 4, origin: 'credito-terceiro-movemais', placeName: 'Crédito MoveMais', value: 45.5, kind: 'terceiros' }),
  statementRow({
    transactionId: 5,
    origin: 'compra-pix',
    placeName: 'COMPRA DE SALDO via PIX',
    value: 150,
    event: 'RECEIVED',
    user_transaction: true,
    kind: 'compras',
    receipt: { tipo: 'compra', id: 'chg_0123456789abcdef0123' },
  }),
];

function rowOf(text: string): HTMLElement {
  return screen.getByText(text).closest('tr')!;
}

function renderStatement(transactions = rows, totalPages = 1, path = '/extrato/listar') {
  signInStorage({ terms: 'aceito' });
  const api = mockApi({
    'GET /api/extrato/listar': ok({ Transacoes: transactions, Paginacao: { TotalPaginas: totalPages }, Totais: [] }),
    // Decision 79: the plates the filter offers (none: no such select).
    'GET /api/extrato/veiculos': ok({ Veiculos: [] }),
  });
  return { api, ...renderRoute(path) };
}

describe('/extrato/listar', () => {
  it('shows Data, Descrição and Valor (and Saldo após): dates as DD/MM/YYYY HH:mm:ss, values right-aligned and signed', async () => {
    const { api } = renderStatement();
    expect(await screen.findByText('Passagem por: Praça Jacareí')).toBeInTheDocument();
    expect(document.title).toBe('Extrato | Portal do Motorista');
    expect(screen.getByRole('heading', { name: 'Extrato', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Data', 'Descrição', 'Valor', 'Saldo após']);

    // Own passage: text only.
    const own = rowOf('Passagem por: Praça Jacareí');
    expect(within(own).queryByRole('button')).not.toBeInTheDocument();
    expect(within(own).getByText('05/03/2026 12:04:05')).toBeInTheDocument();
    const value = within(own).getByText('-R$ 12,40');
    expect(value).toHaveAttribute('data-negative', 'true');
    expect(value.closest('td')).toHaveStyle({ textAlign: 'right' });
    expect(within(rowOf('Débito MoveMais')).getByText('-R$ 30,00')).toHaveAttribute('data-negative', 'true');
    expect(within(rowOf('Crédito MoveMais')).getByText('R$ 45,50')).not.toHaveAttribute('data-negative');

    // Any other origin: the first word capitalised, the rest lower-cased; the event named under it.
    const purchase = rowOf('Compra de saldo via Pix');
    expect(within(purchase).getByText('Recebido')).toBeInTheDocument();
    expect(within(purchase).getByText('R$ 150,00')).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/extrato/listar')).toHaveLength(1);
  });

  it.each([
    { name: 'a third-party passage', text: 'Passagem por: Praça Guararema', tooltip: 'Passagem de Terceiro' },
    { name: 'a third-party debit', text: 'Débito MoveMais', tooltip: 'Débito de Terceiro' },
    { name: 'a third-party credit', text: 'Crédito MoveMais', tooltip: 'Crédito de Terceiro' },
  ])('$name carries an icon named $tooltip whose tooltip opens on keyboard focus', async ({ text, tooltip }) => {
    renderStatement();
    await screen.findByText(text);
    const button = within(rowOf(text)).getByRole('button', { name: tooltip });
    button.focus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(tooltip);
    button.blur();
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });

  it('pages with Paginacao.TotalPaginas and keeps the page in the URL; page 1 is the plain address', async () => {
    const { api, user, router } = renderStatement(rows.slice(0, 1), 3);
    const urls = () => pageUrls(api.fetchMock);
    await user.click(await screen.findByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(urls()).toContain('/api/extrato/listar?page=2'));
    expect(urls()[0]).toBe('/api/extrato/listar?page=1');
    // The pages wait while one loads (DataTable): page 2 arrives before page 1 can be chosen again.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Página 1' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Página 1' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it("logs a failure, the table says 'Nenhum item.' (spec §8) and the page says why, with 'Tentar novamente'", async () => {
    signInStorage({ terms: 'aceito' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ 'GET /api/extrato/listar': { status: 400, body: { Sucesso: false, Mensagem: 'Dados inválidos' } } });
    renderRoute('/extrato/listar');
    expect(await screen.findByText('Nenhum item.')).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.readFailed.statement);
    expect(within(alert).getByRole('button', { name: 'Tentar novamente' })).toBeEnabled();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it("issue 25: a server failure is said at its first attempt, not after the retries; 'Tentar novamente' asks at once", async () => {
    signInStorage({ terms: 'aceito' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    mockApi({
      'GET /api/extrato/listar': () => {
        calls += 1;
        return calls === 1
          ? { status: 500, body: { Sucesso: false, Mensagem: 'Erro interno' } }
          : ok({ Transacoes: rows, Paginacao: { TotalPaginas: 1 }, Totais: [] });
      },
    });
    const { user } = renderRoute('/extrato/listar');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.readFailed.statement);
    expect(screen.getByText('Nenhum item.')).toBeInTheDocument();
    // TanStack retries a 5xx a second later: the page did not wait for it.
    expect(calls).toBe(1);
    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Passagem por: Praça Jacareí')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // Asked once more, at once: the retry that was waiting is not made as well (a retry waiting
    // for its delay is a read still running).
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(calls).toBe(2);
    logged.mockRestore();
  });
});

/** The query strings the list was asked with, in order. */
function listQueries(api: ReturnType<typeof mockApi>): string[] {
  return api.fetchMock.mock.calls
    .map(([url]) => new URL(String(url), 'http://localhost'))
    .filter((url) => url.pathname === '/api/extrato/listar')
    .map((url) => url.search);
}

describe('/extrato/listar filters (issue 12)', () => {
  it('reads the period and kind from the URL, asks the list with them and shows them as chips', async () => {
    const { api } = renderStatement(rows.slice(4), 1, '/extrato/listar?periodo=mes-passado&tipo=compras');
    expect(await screen.findByText('Compra de saldo via Pix')).toBeInTheDocument();
    expect(listQueries(api)).toEqual(['?page=1&periodo=mes-passado&tipo=compras']);
    expect(screen.getByLabelText('Período')).toHaveValue('mes-passado');
    expect(screen.getByLabelText('Tipo')).toHaveValue('compras');
    const toggle = screen.getByRole('button', { name: 'Filtros' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAccessibleDescription('Mês passado Compras de saldo');
  });

  it('a chosen period or kind goes into the URL at once, back on page 1; the other parameters stay', async () => {
    const { api, user, router } = renderStatement(rows, 3, '/extrato/listar?page=3&tipo=passagens');
    await screen.findByText('Passagem por: Praça Jacareí');
    await user.click(screen.getByRole('button', { name: 'Filtros' }));
    expect(screen.getByRole('button', { name: 'Filtros' })).toHaveAttribute('aria-expanded', 'true');

    await user.selectOptions(screen.getByLabelText('Período'), 'Este mês');
    await waitFor(() => expect(router.state.location.search).toBe('?periodo=este-mes&tipo=passagens'));
    await waitFor(() => expect(listQueries(api)).toContain('?page=1&periodo=este-mes&tipo=passagens'));

    await user.selectOptions(screen.getByLabelText('Tipo'), 'Saques');
    await waitFor(() => expect(router.state.location.search).toBe('?periodo=este-mes&tipo=saques'));
    await user.selectOptions(screen.getByLabelText('Tipo'), 'Todos os tipos');
    await waitFor(() => expect(router.state.location.search).toBe('?periodo=este-mes'));

    await user.click(screen.getByRole('button', { name: 'Limpar filtros' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByRole('button', { name: 'Limpar filtros' })).not.toBeInTheDocument();
    // Back keeps what was chosen before.
    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.getByLabelText('Período')).toHaveValue('este-mes'));
  });

  it("'Escolher datas' waits for 'Aplicar', checks the days with the contract's messages, then keeps them in the URL", async () => {
    const { api, user, router } = renderStatement(rows, 1);
    await screen.findByText('Passagem por: Praça Jacareí');
    await user.selectOptions(screen.getByLabelText('Período'), 'Escolher datas');
    const from = screen.getByLabelText('De');
    const to = screen.getByLabelText('Até');
    // Starts as this month so far; nothing is asked before 'Aplicar'.
    expect((from as HTMLInputElement).value).toMatch(/^\d{4}-\d{2}-01$/);
    expect(router.state.location.search).toBe('');

    fireEvent.change(from, { target: { value: '2026-11-10' } });
    fireEvent.change(to, { target: { value: '2026-11-01' } });
    await user.click(screen.getByRole('button', { name: 'Aplicar' }));
    expect(await screen.findByText(messages.statement.toBeforeFrom)).toBeInTheDocument();
    expect(to).toHaveAccessibleDescription(messages.statement.toBeforeFrom);
    expect(router.state.location.search).toBe('');

    fireEvent.change(to, { target: { value: '' } });
    await user.click(screen.getByRole('button', { name: 'Aplicar' }));
    expect(await screen.findByText(messages.statement.toRequired)).toBeInTheDocument();

    fireEvent.change(to, { target: { value: '2026-11-20' } });
    await user.click(screen.getByRole('button', { name: 'Aplicar' }));
    await waitFor(() => expect(router.state.location.search).toBe('?periodo=intervalo&de=2026-11-10&ate=2026-11-20'));
    await waitFor(() => expect(listQueries(api)).toContain('?page=1&periodo=intervalo&de=2026-11-10&ate=2026-11-20'));
    expect(screen.queryByText(messages.statement.toRequired)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Filtros' })).toHaveAccessibleDescription('10/11/2026 a 20/11/2026 Todos os tipos');
  });

  it('a choice still being made survives the address of an earlier one arriving; the other fields follow the URL', async () => {
    const { user, router } = renderStatement(rows, 1);
    await screen.findByText('Passagem por: Praça Jacareí');
    await user.selectOptions(screen.getByLabelText('Período'), 'Escolher datas');
    fireEvent.change(screen.getByLabelText('De'), { target: { value: '2026-11-10' } });
    // The address of a choice made just before (the kind) arrives after the dates were typed.
    await act(() => router.navigate('/extrato/listar?tipo=saques'));
    await waitFor(() => expect(screen.getByLabelText('Tipo')).toHaveValue('saques'));
    expect(screen.getByLabelText('Período')).toHaveValue('intervalo');
    expect(screen.getByLabelText('De')).toHaveValue('2026-11-10');
  });

  it('a URL with filters the contract refuses asks nothing: the open controls say why, the table is empty', async () => {
    const { api } = renderStatement(rows, 1, '/extrato/listar?periodo=intervalo&de=2026-02-30');
    expect(await screen.findByText(messages.statement.dayInvalid)).toBeInTheDocument();
    expect(screen.getByLabelText('De')).toHaveAccessibleDescription(messages.statement.dayInvalid);
    expect(screen.getByLabelText('Até')).toHaveAccessibleDescription(messages.statement.toRequired);
    expect(screen.getByRole('button', { name: 'Filtros' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Nenhum item.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
    expect(listQueries(api)).toEqual([]);
  });

  it('an unknown kind in the URL is named on the Tipo field', async () => {
    const { api } = renderStatement(rows, 1, '/extrato/listar?tipo=pedagio');
    expect(await screen.findByText(messages.statement.kindInvalid)).toBeInTheDocument();
    expect(screen.getByLabelText('Tipo')).toHaveAccessibleDescription(messages.statement.kindInvalid);
    expect(listQueries(api)).toEqual([]);
  });

  it("a row of a Pix purchase or withdrawal links to its receipt ('Ver comprovante'); the others have none", async () => {
    renderStatement([
      ...rows,
      statementRow({
        transactionId: 6,
        origin: 'saque-pix',
        placeName: 'SAQUE via PIX',
        value: -40,
        kind: 'saques',
        receipt: { tipo: 'saque', id: 'wd_1' },
      }),
    ]);
    await screen.findByText('Compra de saldo via Pix');
    expect(within(rowOf('Compra de saldo via Pix')).getByRole('link', { name: 'Ver comprovante' })).toHaveAttribute(
      'href',
      '/comprovantes/compra/chg_0123456789abcdef0123',
    );
    expect(within(rowOf('Saque via Pix')).getByRole('link', { name: 'Ver comprovante' })).toHaveAttribute(
      'href',
      '/comprovantes/saque/wd_1',
    );
    expect(screen.getAllByRole('link', { name: 'Ver comprovante' })).toHaveLength(2);
    expect(within(rowOf('Passagem por: Praça Jacareí')).queryByRole('link')).not.toBeInTheDocument();
  });
});

describe('/extrato/listar: the VPOs (decision 52)', () => {
  const vpoOf = (pagoPor: 'VPO' | 'SALDO') => ({ IdTransacao: '41', Embarcador: 'Transportes Andrade', pagoPor });
  const vpoRows = [
    statementRow({
      transactionId: 9,
      origin: 'passagem',
      placeName: 'Praça Guararema',
      value: -7.84,
      vpo: vpoOf('SALDO'),
    }),
    statementRow({
      transactionId: 8,
      origin: 'passagem-vpo',
      placeName: 'Praça Guararema',
      value: -22.16,
      kind: 'vpo',
      vpo: vpoOf('VPO'),
    }),
    statementRow({
      transactionId: 7,
      origin: 'vpo-recebido',
      placeName: 'Transportes Andrade',
      value: 500,
      kind: 'vpo',
      vpo: vpoOf('VPO'),
    }),
    statementRow({ transactionId: 1 }),
  ];

  it("an entry of a VPO's money names the VPO's shipper; a passage Saldo paid because the VPO ran short says so", async () => {
    renderStatement(vpoRows);
    await screen.findByText('Passagem por: Praça Guararema (paga pelo VPO)');
    const paidByVpo = rowOf('Passagem por: Praça Guararema (paga pelo VPO)');
    // Issue 33: the VPO's money is its account, named by its shipper.
    expect(within(paidByVpo).getByText('VPO de Transportes Andrade').closest('[data-account]')).toHaveAttribute('data-account', 'VPO');
    expect(within(rowOf('VPO recebido: Transportes Andrade')).getByText('VPO de Transportes Andrade')).toBeInTheDocument();

    const short = rowOf('Passagem por: Praça Guararema');
    const badge = within(short).getByText(messages.vpo.paidBySaldo);
    expect(badge.closest('[data-paid-by]')).toHaveAttribute('data-paid-by', 'SALDO');
    expect(within(short).getByText('-R$ 7,84')).toBeInTheDocument();

    // An entry without a VPO has no VPO mark: its account is Saldo.
    expect(within(rowOf('Passagem por: Praça Jacareí')).queryByText(/VPO/)).not.toBeInTheDocument();
  });

  it('issue 33: every row names its account and its balance after is that account’s, named; totals per account, never summed', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/extrato/listar': ok({
        Transacoes: [
          statementRow({ transactionId: 3, placeName: 'Praça Jacareí', value: -12.4, saldoApos: 87.6 }),
          statementRow({
            transactionId: 2,
            origin: 'passagem-vpo',
            placeName: 'Praça Guararema',
            value: -22.4,
            kind: 'vpo',
            vpo: { IdTransacao: '41', Embarcador: 'Transportes Andrade', pagoPor: 'VPO' },
            saldoApos: 645.9,
          }),
          statementRow({
            transactionId: 1,
            origin: 'credito-terceiro-movemais',
            placeName: 'Crédito MoveMais',
            value: 120,
            kind: 'terceiros',
            saldoApos: 120,
          }),
        ],
        Paginacao: { TotalPaginas: 1 },
        Totais: [
          { conta: { tipo: 'SALDO', vpoId: null, embarcador: null, rota: null }, total: -12.4, outrosVpos: false },
          { conta: { tipo: 'SALDO_TERCEIRO', vpoId: null, embarcador: null, rota: null }, total: 120, outrosVpos: false },
          {
            conta: { tipo: 'VPO', vpoId: '41', embarcador: 'Transportes Andrade', rota: 'Campinas/SP – Santos/SP' },
            total: -22.4,
            outrosVpos: false,
          },
        ],
      }),
    });
    renderRoute('/extrato/listar');
    await screen.findByText('Passagem por: Praça Jacareí');
    // The spec's columns stay, and the balance after has its own.
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Data', 'Descrição', 'Valor', 'Saldo após']);
    const cases = [
      ['Passagem por: Praça Jacareí', 'SALDO', 'Saldo', 'R$ 87,60'],
      ['Passagem por: Praça Guararema (paga pelo VPO)', 'VPO', 'VPO de Transportes Andrade', 'R$ 645,90'],
      ['Crédito MoveMais', 'SALDO_TERCEIRO', 'Saldo em outras plataformas', 'R$ 120,00'],
    ] as const;
    for (const [text, tipo, name, balance] of cases) {
      const row = rowOf(text);
      expect(row.querySelector('[data-account]')).toHaveAttribute('data-account', tipo);
      expect(row.querySelector('[data-account]')).toHaveTextContent(name);
      const after = row.querySelector(`[data-balance-after="${tipo}"]`);
      expect(after).toHaveTextContent(balance);
      expect(after).toHaveTextContent(`Saldo após (${name}):`);
    }
    const totals = screen.getByRole('region', { name: 'Totais do período por conta' });
    expect([...totals.querySelectorAll('li')].map((li) => li.textContent?.replace(/\s+/g, ' '))).toEqual([
      'Saldo-R$ 12,40',
      'Saldo em outras plataformasR$ 120,00',
      // One shipper's VPOs told apart by their route.
      'VPO de Transportes Andrade: Campinas/SP – Santos/SP-R$ 22,40',
    ]);
    // Never one sum across accounts.
    expect(totals).not.toHaveTextContent('R$ 85,20');
  });

  it('past the VPOs that moved last, one line holds the net of the others, and says where each of them is (decision 83)', async () => {
    const vpoTotal = (id: number) => ({
      conta: { tipo: 'VPO', vpoId: String(id), embarcador: `Transportes ${id}`, rota: null },
      total: -10,
      outrosVpos: false,
    });
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/extrato/listar': ok({
        Transacoes: [statementRow({ transactionId: 1, origin: 'passagem-vpo', kind: 'vpo', value: -10 })],
        Paginacao: { TotalPaginas: 1 },
        Totais: [
          { conta: { tipo: 'SALDO', vpoId: null, embarcador: null, rota: null }, total: 0, outrosVpos: false },
          ...Array.from({ length: STATEMENT_LISTED_VPO_TOTALS }, (_, i) => vpoTotal(i + 1)),
          { conta: { tipo: 'VPO', vpoId: null, embarcador: null, rota: null }, total: -1234.5, outrosVpos: true },
        ],
      }),
    });
    renderRoute('/extrato/listar');
    const totals = await screen.findByRole('region', { name: 'Totais do período por conta' });
    const lines = [...totals.querySelectorAll('li')].map((li) => li.textContent?.replace(/\s+/g, ' '));
    expect(lines).toHaveLength(STATEMENT_LISTED_VPO_TOTALS + 2);
    expect(lines.at(-1)).toBe('Outros VPOs do período-R$ 1.234,50');
    expect(within(totals).getByText(otherVposTotalHint)).toBeVisible();
    expect(otherVposTotalHint).toContain('extrato exportado');
  });

  it("the kind filter offers 'VPO' (STATEMENT_KINDS) and asks the list with it", async () => {
    const { api, user, router } = renderStatement(vpoRows);
    await screen.findByText('Passagem por: Praça Jacareí');
    await user.click(screen.getByRole('button', { name: 'Filtros' }));
    expect(within(screen.getByLabelText('Tipo')).getByRole('option', { name: 'VPO' })).toHaveValue('vpo');
    await user.selectOptions(screen.getByLabelText('Tipo'), 'VPO');
    await waitFor(() => expect(router.state.location.search).toBe('?tipo=vpo'));
    await waitFor(() => expect(listQueries(api)).toContain('?page=1&tipo=vpo'));
  });
});

describe('/extrato/listar exports (issue 12)', () => {
  afterEach(() => {
    if (!connection.online) connection.set(true);
  });

  it.each([
    ['CSV', 'csv', 'text/csv; charset=utf-8', '\ufeffData;Descrição;Tipo;Valor;Saldo após\n', 'extrato-2026-11.csv'],
    ['PDF', 'pdf', 'application/pdf', '%PDF-1.7\n', 'extrato-2026-11.pdf'],
  ])("'Exportar %s' downloads the filters on screen under the server's file name", async (label, formato, contentType, body, fileName) => {
    const saved = captureDownloads();
    const { api, user } = renderStatement(rows, 1, '/extrato/listar?periodo=este-mes&tipo=compras&page=2');
    const asked = mockFile(api.fetchMock, '/api/extrato/exportar', { body, contentType, fileName });
    await screen.findByText('Passagem por: Praça Jacareí');
    await user.click(screen.getByRole('button', { name: `Exportar ${label}` }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(asked.map((call) => call.url.search)).toEqual([`?formato=${formato}&periodo=este-mes&tipo=compras`]);
    expect(saved[0]?.name).toBe(fileName);
    // Byte for byte: the CSV's BOM too.
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await saved[0]?.blob?.arrayBuffer())).toBe(body);
    expect(asked[0]?.headers.get('authorization')).toBe('Bearer token-de-teste');
  });

  it('without a file name from the server, saves extrato.csv', async () => {
    const saved = captureDownloads();
    const { api, user } = renderStatement(rows, 1);
    mockFile(api.fetchMock, '/api/extrato/exportar', { body: 'x', contentType: 'text/csv; charset=utf-8' });
    await user.click(await screen.findByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['extrato.csv']));
  });

  it('the button spins while the file comes, and the other waits', async () => {
    captureDownloads();
    const { api, user } = renderStatement(rows, 1);
    let answer: (response: Response) => void = () => undefined;
    mockFile(api.fetchMock, '/api/extrato/exportar', () => new Promise<Response>((resolve) => (answer = resolve)));
    await user.click(await screen.findByRole('button', { name: 'Exportar PDF' }));
    const pdf = screen.getByRole('button', { name: 'Exportar PDF' });
    await waitFor(() => expect(pdf).toHaveAttribute('data-loading', 'true'));
    expect(pdf).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
    expect(screen.getByText('Preparando o arquivo do extrato...')).toBeInTheDocument();
    answer(new Response('%PDF-1.7', { headers: { 'Content-Type': 'application/pdf' } }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeEnabled());
  });

  it('a refusal is told in Portuguese (the answer’s Mensagem) and nothing is saved', async () => {
    const saved = captureDownloads();
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/extrato/listar': ok({ Transacoes: rows, Paginacao: { TotalPaginas: 1 }, Totais: [] }),
      'GET /api/extrato/exportar': { status: 422, body: { Sucesso: false, Mensagem: messages.statement.rangeTooLong } },
    });
    const { user } = renderRoute('/extrato/listar');
    await user.click(await screen.findByRole('button', { name: 'Exportar CSV' }));
    expect(await screen.findByText(messages.statement.rangeTooLong)).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it('no connection: both exports disabled, pointing at the reason', async () => {
    renderStatement(rows, 1);
    await screen.findByText('Passagem por: Praça Jacareí');
    connection.set(false);
    for (const name of ['Exportar CSV', 'Exportar PDF']) {
      const button = screen.getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAttribute('aria-describedby', OFFLINE_REASON_ID);
    }
    expect(document.getElementById(OFFLINE_REASON_ID)).toHaveTextContent('As ações que precisam de internet estão desativadas');
  });
});
