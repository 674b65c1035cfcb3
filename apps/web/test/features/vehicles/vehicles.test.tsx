import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockApi, ok, renderRoute, signInStorage } from '../../support/utils';

// Load the lazy screens once, before the clocks of the tests start.
beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/features/vehicles/VehiclesListPage')]);
});

const tag = (statusCode: number | null) => ({ serialNumber: '1234567812345678', Operadora: '1', statusCode, ownershipType: 'own' });

describe('/veiculos/listar', () => {
  it('shows plate and badge; deletes only after confirmation; a vehicle with a live tag explains why not', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({
      'GET /api/veiculo/listar': ok({
        Veiculos: [
          { id: 1, LicensePlate: 'ABC1D23', Status: null, tag: null },
          { id: 2, LicensePlate: 'XYZ9K88', Status: 100, tag: tag(100) },
        ],
        Paginacao: { TotalPaginas: 1 },
      }),
      'POST /api/veiculo/delete': ok({ Mensagem: 'Exclusão de Tag/Veículo' }),
    });
    const { user } = renderRoute('/veiculos/listar');
    expect(await screen.findByText('Sem tag')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Placa', 'Status', 'Pedágio sem cancela', 'Ação']);
    expect(screen.getByRole('link', { name: 'Cadastrar' })).toHaveAttribute('href', '/tags/adicionar');
    expect(screen.getByRole('link', { name: 'Veículo ABC1D23: ver detalhes' })).toHaveAttribute('href', '/tags/detalhes/ABC1D23');
    expect(screen.getByText('Ativa')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Excluir veículo XYZ9K88' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Excluir veículo XYZ9K88' })).toHaveAccessibleDescription(
      'Cancele a tag antes de excluir o veículo',
    );

    await user.click(screen.getByRole('button', { name: 'Excluir veículo ABC1D23' }));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo('POST', '/api/veiculo/delete')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Exclusão de Tag/Veículo')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST', '/api/veiculo/delete')[0]?.body).toEqual({ vehicle_id: 1 }));
  });

  it("shows 'Erro ao excluir Veículo' with the server's Mensagem", async () => {
    const hasLiveTag = 'Este veículo tem uma tag ativa ou bloqueada. Cancele a tag antes de excluir o veículo.';
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/veiculo/listar': ok({
        Veiculos: [{ id: 1, LicensePlate: 'ABC1D23', Status: 300, tag: tag(300) }],
        Paginacao: { TotalPaginas: 1 },
      }),
      'POST /api/veiculo/delete': { status: 409, body: { Sucesso: false, Mensagem: hasLiveTag } },
    });
    const { user } = renderRoute('/veiculos/listar');
    await user.click(await screen.findByRole('button', { name: 'Excluir veículo ABC1D23' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Erro ao excluir Veículo')).toBeInTheDocument();
    expect(screen.getByText(hasLiveTag)).toBeInTheDocument();
  });

  it('pages through ?page=N, keeping it in the address', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({
      'GET /api/veiculo/listar': ok({
        Veiculos: [{ id: 1, LicensePlate: 'ABC1D23', Status: null, tag: null }],
        Paginacao: { TotalPaginas: 2 },
      }),
    });
    const { user, router } = renderRoute('/veiculos/listar');
    await screen.findByText('ABC1D23');
    await user.click(screen.getByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(String(api.fetchMock.mock.calls.at(-1)?.[0])).toMatch(/\/api\/veiculo\/listar\?page=2$/));
  });
});
