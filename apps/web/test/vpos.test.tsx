import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, renderRoute, signInStorage } from './utils';

const vpo = (over: Record<string, unknown>) => ({
  IdTransacao: 'vpo-1',
  serialNumber: '1234567890123456',
  PlacaVeiculo: 'ABC1D23',
  CpfCnpjEmbarcador: '11222333000181',
  ValorTotalVP: 1234.56,
  created_at: '2026-03-05T15:04:05Z',
  Status: 'EM_VIAGEM',
  ...over,
});

const rows = [
  vpo({}),
  vpo({ IdTransacao: 'vpo-2', PlacaVeiculo: 'XYZ9876', ValorTotalVP: 80, created_at: '2026-03-04T10:00:00Z', Status: 'EMITIDO' }),
];

const listOk = (totalPages = 1) => ok({ VPOS: rows, Paginacao: { TotalPaginas: totalPages } });
const urls = (api: ReturnType<typeof mockApi>) => api.fetchMock.mock.calls.map(([url]) => String(url));
const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });

describe('/vpos/listar', () => {
  it('shows title, subtitle, hint and Valor, Placa, Data, newest first by default', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/pedagio/motoristaVpos': listOk() });
    renderRoute('/vpos/listar');
    expect(await screen.findByText('ABC1D23')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'VPOs', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Listagem de VPOs')).toBeInTheDocument();
    expect(screen.getByText('Clique em cima do VPO para ver mais detalhes')).toBeInTheDocument();
    expect(document.title).toBe('VPOs | Portal do Motorista');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Valor', 'Placa', 'Data']);

    const first = screen.getByText('ABC1D23').closest('tr')!;
    expect(within(first).getByText('R$ 1.234,56')).toBeInTheDocument();
    expect(within(first).getByText('05/03/2026 12:04:05')).toBeInTheDocument();
    expect(screen.getByText('XYZ9876').closest('tr')).toHaveTextContent('R$ 80,00');

    // The server's default order is shown as such.
    expect(header('Data')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Valor')).not.toHaveAttribute('aria-sort');
    expect(urls(api)).toEqual(['/api/pedagio/motoristaVpos?page=1&sort=data&direction=desc']);
  });

  it('sorts by the server: a header click asks for that column ascending, a second click descending, from page 1', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/pedagio/motoristaVpos': listOk(3) });
    const { user, router } = renderRoute('/vpos/listar?page=2');
    await screen.findByText('ABC1D23');
    expect(urls(api)[0]).toBe('/api/pedagio/motoristaVpos?page=2&sort=data&direction=desc');

    await user.click(screen.getByRole('button', { name: 'Valor' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=valor&direction=asc'));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=valor&direction=asc'));
    await waitFor(() => expect(header('Valor')).toHaveAttribute('aria-sort', 'ascending'));
    expect(header('Data')).not.toHaveAttribute('aria-sort');
    // The header keeps the keyboard focus while the new order loads.
    expect(screen.getByRole('button', { name: 'Valor' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Valor' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=valor&direction=desc'));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=valor&direction=desc'));
    await waitFor(() => expect(header('Valor')).toHaveAttribute('aria-sort', 'descending'));

    // Paging keeps the order.
    await user.click(await screen.findByRole('button', { name: 'Página 3' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=valor&direction=desc&page=3'));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=3&sort=valor&direction=desc'));

    // Another column starts ascending, back on page 1.
    await user.click(screen.getByRole('button', { name: 'Placa' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=placa&direction=asc'));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=placa&direction=asc'));
    await waitFor(() => expect(header('Placa')).toHaveAttribute('aria-sort', 'ascending'));

    await user.click(screen.getByRole('button', { name: 'Data' }));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=data&direction=asc'));
    await user.click(screen.getByRole('button', { name: 'Data' }));
    // Back to the default order: the URL is clean again.
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it("phones sort with one 'Ordenar por' select: each column in each direction, in words", async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/pedagio/motoristaVpos': listOk(2) });
    const { user, router } = renderRoute('/vpos/listar?page=2');
    await screen.findByText('ABC1D23');
    const select = screen.getByLabelText('Ordenar por');
    expect(select).toHaveValue('data:desc');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Valor (menor primeiro)',
      'Valor (maior primeiro)',
      'Placa (A a Z)',
      'Placa (Z a A)',
      'Data (mais antigos)',
      'Data (mais recentes)',
    ]);

    await user.selectOptions(select, 'Placa (Z a A)');
    await waitFor(() => expect(router.state.location.search).toBe('?sort=placa&direction=desc'));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=placa&direction=desc'));
    await waitFor(() => expect(screen.getByLabelText('Ordenar por')).toHaveValue('placa:desc'));
    await user.selectOptions(screen.getByLabelText('Ordenar por'), 'Valor (menor primeiro)');
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=valor&direction=asc'));
    await waitFor(() => expect(header('Valor')).toHaveAttribute('aria-sort', 'ascending'));
  });

  it.each([
    { name: 'an unknown column', search: '?sort=nome&direction=asc', asked: 'page=1&sort=data&direction=asc' },
    { name: 'an unknown direction', search: '?sort=placa&direction=lado', asked: 'page=1&sort=placa&direction=desc' },
    { name: 'a page that is not a number', search: '?page=abc', asked: 'page=1&sort=data&direction=desc' },
    { name: 'all three wrong', search: '?sort=nome&direction=lado&page=abc', asked: 'page=1&sort=data&direction=desc' },
  ])('$name in the URL falls back to the default for it ($asked)', async ({ search, asked }) => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/pedagio/motoristaVpos': listOk() });
    renderRoute(`/vpos/listar${search}`);
    await screen.findByText('ABC1D23');
    expect(urls(api)).toEqual([`/api/pedagio/motoristaVpos?${asked}`]);
  });

  it("a row opens 'Detalhes do VPO' with every field, read-only; 'Fechar' closes it; Enter and Space open it too", async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/pedagio/motoristaVpos': listOk() });
    const { user } = renderRoute('/vpos/listar');
    await user.click(await screen.findByText('ABC1D23'));

    const dialog = await screen.findByRole('dialog', { name: 'Detalhes do VPO' });
    const value = (label: string) => within(dialog).getByText(label).nextElementSibling;
    expect(value('Número da Tag')).toHaveTextContent('1234 5678 9012 3456');
    expect(value('Placa do Veículo')).toHaveTextContent('ABC1D23');
    expect(value('Embarcador')).toHaveTextContent('11.222.333/0001-81');
    expect(value('Valor')).toHaveTextContent('R$ 1.234,56');
    expect(value('Data')).toHaveTextContent('05/03/2026 12:04:05');
    expect(value('Status')).toHaveTextContent('Em viagem');
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const second = screen.getByRole('row', { name: /placa XYZ9876/ });
    expect(second).toHaveAccessibleName(/^VPO de R\$\s80,00, placa XYZ9876, 04\/03\/2026 07:00:00, tag 1234 5678 9012 3456: ver detalhes$/);
    second.focus();
    await user.keyboard('{Enter}');
    let details = await screen.findByRole('dialog', { name: 'Detalhes do VPO' });
    expect(within(details).getByText('Emitido')).toBeInTheDocument();
    expect(within(details).getByText('R$ 80,00')).toBeInTheDocument();
    await user.click(within(details).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    screen.getByRole('row', { name: /placa ABC1D23/ }).focus();
    await user.keyboard(' ');
    details = await screen.findByRole('dialog', { name: 'Detalhes do VPO' });
    expect(within(details).getByText('Em viagem')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('an unknown status is shown as it came', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/pedagio/motoristaVpos': ok({ VPOS: [vpo({ Status: 'PENDENTE_X' })], Paginacao: { TotalPaginas: 1 } }) });
    const { user } = renderRoute('/vpos/listar');
    await user.click(await screen.findByText('ABC1D23'));
    const dialog = await screen.findByRole('dialog', { name: 'Detalhes do VPO' });
    expect(within(dialog).getByText('PENDENTE_X')).toBeInTheDocument();
  });

  it("Sucesso false logs Mensagem and empties the list: 'Nenhum item.', no pages", async () => {
    signInStorage({ terms: 'aceito' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({
      'GET /api/pedagio/motoristaVpos': {
        status: 200,
        body: { Sucesso: false, Mensagem: 'Serviço de VPO indisponível', VPOS: rows, Paginacao: { TotalPaginas: 4 } },
      },
    });
    renderRoute('/vpos/listar');
    expect(await screen.findByText('Nenhum item.')).toBeInTheDocument();
    expect(screen.queryByText('ABC1D23')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Página 2' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await waitFor(() => expect(logged).toHaveBeenCalledWith(expect.any(String), 'Serviço de VPO indisponível'));
    logged.mockRestore();
  });

  it("a failed request is only logged, and the table says 'Nenhum item.'", async () => {
    signInStorage({ terms: 'aceito' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ 'GET /api/pedagio/motoristaVpos': { status: 400, body: { Sucesso: false, Mensagem: 'Dados inválidos' } } });
    renderRoute('/vpos/listar');
    expect(await screen.findByText('Nenhum item.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });
});
