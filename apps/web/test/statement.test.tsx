import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, renderRoute, signInStorage } from './utils';

const tx = (over: Record<string, unknown>) => ({
  transactionId: 1,
  placeName: 'Praça Jacareí',
  value: -12.4,
  created_at: '2026-03-05T15:04:05Z',
  event: null,
  origin: 'passagem',
  is_third: false,
  user_transaction: false,
  ...over,
});

const rows = [
  tx({ transactionId: 1 }),
  tx({ transactionId: 2, is_third: true, placeName: 'Praça Guararema' }),
  tx({ transactionId: 3, origin: 'debito-terceiro-movemais', placeName: 'Débito MoveMais', value: -30 }),
  tx({ transactionId: 4, origin: 'credito-terceiro-movemais', placeName: 'Crédito MoveMais', value: 45.5 }),
  tx({ transactionId: 5, origin: 'compra-pix', placeName: 'COMPRA DE SALDO via PIX', value: 150, event: 'RECEIVED', user_transaction: true }),
];

function rowOf(text: string): HTMLElement {
  return screen.getByText(text).closest('tr')!;
}

function renderStatement(transactions = rows, totalPages = 1) {
  signInStorage({ terms: 'aceito' });
  const api = mockApi({ 'GET /api/extrato/listar': ok({ Transacoes: transactions, Paginacao: { TotalPaginas: totalPages } }) });
  return { api, ...renderRoute('/extrato/listar') };
}

describe('/extrato/listar', () => {
  it('shows Data, Descrição and Valor: dates as DD/MM/YYYY HH:mm:ss, values right-aligned and signed', async () => {
    const { api } = renderStatement();
    expect(await screen.findByText('Passagem por: Praça Jacareí')).toBeInTheDocument();
    expect(document.title).toBe('Extrato | Portal do Motorista');
    expect(screen.getByRole('heading', { name: 'Extrato', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Data', 'Descrição', 'Valor']);

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
    const urls = () => api.fetchMock.mock.calls.map(([url]) => String(url));
    await user.click(await screen.findByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(urls()).toContain('/api/extrato/listar?page=2'));
    expect(urls()[0]).toBe('/api/extrato/listar?page=1');
    await user.click(screen.getByRole('button', { name: 'Página 1' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it("only logs a failure, and the table says 'Nenhum item.'", async () => {
    signInStorage({ terms: 'aceito' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ 'GET /api/extrato/listar': { status: 400, body: { Sucesso: false, Mensagem: 'Dados inválidos' } } });
    renderRoute('/extrato/listar');
    expect(await screen.findByText('Nenhum item.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(logged).toHaveBeenCalled();
  });
});
