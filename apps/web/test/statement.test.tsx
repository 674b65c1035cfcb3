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

describe('/extrato/listar', () => {
  it('describes each origin as SPEC 2 says, dates as DD/MM/YYYY HH:mm:ss, values right-aligned and signed', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/extrato/listar': ok({ Transacoes: rows, Paginacao: { TotalPaginas: 1 } }) });
    renderRoute('/extrato/listar');
    expect(await screen.findByText('Passagem por: Praça Jacareí')).toBeInTheDocument();
    expect(document.title).toBe('Extrato | Portal do Motorista');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Data', 'Descrição', 'Valor']);

    // Own passage: text only.
    const own = rowOf('Passagem por: Praça Jacareí');
    expect(within(own).queryByRole('button')).not.toBeInTheDocument();
    expect(within(own).getByText('05/03/2026 12:04:05')).toBeInTheDocument();
    const value = within(own).getByText('-R$ 12,40');
    expect(value).toHaveAttribute('data-negative', 'true');
    expect(value.closest('td')).toHaveStyle({ textAlign: 'right' });

    // Third-party passage, third-party debit and credit: a labelled icon whose tooltip opens on focus.
    for (const [text, tip] of [
      ['Passagem por: Praça Guararema', 'Passagem de Terceiro'],
      ['Débito MoveMais', 'Débito de Terceiro'],
      ['Crédito MoveMais', 'Crédito de Terceiro'],
    ] as const) {
      const button = within(rowOf(text)).getByRole('button', { name: tip });
      button.focus();
      expect(await screen.findByRole('tooltip')).toHaveTextContent(tip);
      button.blur();
      await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
    }
    expect(within(rowOf('Débito MoveMais')).getByText('-R$ 30,00')).toHaveAttribute('data-negative', 'true');
    expect(within(rowOf('Crédito MoveMais')).getByText('R$ 45,50')).not.toHaveAttribute('data-negative');

    // Anything else: first word capitalised, the rest lower-cased; the event named under it.
    const purchase = rowOf('Compra de saldo via pix');
    expect(within(purchase).getByText('Recebido')).toBeInTheDocument();
    expect(within(purchase).getByText('R$ 150,00')).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/extrato/listar')).toHaveLength(1);
  });

  it('pages with Paginacao.TotalPaginas and keeps the page in the URL', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/extrato/listar': ok({ Transacoes: rows.slice(0, 1), Paginacao: { TotalPaginas: 3 } }) });
    const { user, router } = renderRoute('/extrato/listar');
    await user.click(await screen.findByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    const urls = () => api.fetchMock.mock.calls.map(([url]) => String(url));
    await waitFor(() => expect(urls()).toContain('/api/extrato/listar?page=2'));
    expect(urls()[0]).toBe('/api/extrato/listar?page=1');
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
