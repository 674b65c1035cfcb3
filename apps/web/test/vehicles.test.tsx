import { screen, waitFor, within } from '@testing-library/react';
import { messages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderRoute, signInStorage } from './utils';

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
      'POST /api/veiculo/delete': ok({ Mensagem: messages.vehicle.deleted }),
    });
    const { user } = renderRoute('/veiculos/listar');
    expect(await screen.findByText('Sem tag')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Placa', 'Status', 'Acao']);
    expect(screen.getByRole('link', { name: 'Cadastrar' })).toHaveAttribute('href', '/tags/adicionar');
    expect(screen.getByRole('link', { name: 'Veículo ABC1D23: ver detalhes' })).toHaveAttribute('href', '/tags/detalhes/ABC1D23');
    expect(screen.getByText('Ativa')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Excluir veículo XYZ9K88' })).toBeDisabled();
    expect(screen.getByText('Cancele a tag antes de excluir o veículo')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Excluir veículo ABC1D23' }));
    const dialog = await screen.findByRole('dialog');
    expect(api.callsTo('POST', '/api/veiculo/delete')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Exclusão de Tag/Veículo')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST', '/api/veiculo/delete')[0]?.body).toEqual({ vehicle_id: 1 }));
  });

  it("shows 'Erro ao excluir Veículo' with the server's Mensagem", async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/veiculo/listar': ok({ Veiculos: [{ id: 1, LicensePlate: 'ABC1D23', Status: 300, tag: tag(300) }], Paginacao: { TotalPaginas: 1 } }),
      'POST /api/veiculo/delete': { status: 409, body: { Sucesso: false, Mensagem: messages.vehicle.hasLiveTag } },
    });
    const { user } = renderRoute('/veiculos/listar');
    await user.click(await screen.findByRole('button', { name: 'Excluir veículo ABC1D23' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Erro ao excluir Veículo')).toBeInTheDocument();
    expect(screen.getByText(messages.vehicle.hasLiveTag)).toBeInTheDocument();
  });
});

describe('/tags/listar', () => {
  it('lists serial in groups of 4 with its badge and operator name, links to details and the form', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/operadoras': ok({ Operadoras: [{ Nome: 'SemParar', Cnpj: '1' }] }),
      'GET /api/tag/listar': ok({
        Tags: [{ ...tag(204), vehicle: { LicensePlate: 'ABC1D23' } }],
        Paginacao: { TotalPaginas: 1 },
      }),
    });
    renderRoute('/tags/listar');
    expect(await screen.findByText('1234 5678 1234 5678')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Tag', 'Operadora', 'Acao']);
    expect(screen.getByText('Bloqueada')).toBeInTheDocument();
    expect(await screen.findByText('SemParar')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Tag 1234 5678 1234 5678, veículo ABC1D23/ })).toHaveAttribute('href', '/tags/detalhes/ABC1D23');
    expect(screen.getByRole('link', { name: 'Cadastrar Tag' })).toHaveAttribute('href', '/tags/adicionar');
    expect(screen.getByRole('button', { name: 'Excluir tag do veículo ABC1D23' })).toBeDisabled();
  });
});
