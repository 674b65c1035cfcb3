import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureDownloads, mockFile } from '../../support/files';
import { memberRow, mockApi, ok, renderRoute, signInStorage } from '../../support/utils';
import { accounts, chooseCompanyStorage, COMPANY_ID, companyAccount, ownAccount } from './fixtures';
import { forgetKeptData } from '../../support/keptData';

beforeAll(async () => {
  await Promise.all([
    import('../../../src/app/AuthenticatedShell'),
    import('../../../src/features/fleet/FleetVehiclesPage'),
    import('../../../src/features/fleet/AuditPage'),
  ]);
});

afterEach(forgetKeptData);

const members = ok({
  Membros: [
    memberRow({ id: 1, voce: true }),
    memberRow({ id: 2, nome: 'João Souza', cpf: '***.444.777-**', papel: 'motorista' }),
    memberRow({ id: 3, nome: 'Pedro Alves', cpf: '***.555.666-**', papel: 'motorista' }),
    memberRow({ id: 4, nome: null, cpf: '***.111.222-**', papel: 'motorista', estado: 'convidado', desde: null }),
  ],
});

function asGestor(handlers: Parameters<typeof mockApi>[0]) {
  signInStorage({ terms: 'aceito' });
  chooseCompanyStorage('gestor');
  return mockApi({ 'GET /api/contas': accounts(ownAccount, companyAccount('gestor')), 'GET /api/empresa/membros': members, ...handlers });
}

describe('decision 77 /empresa/veiculos', () => {
  it("lists the company's vehicles with their Motoristas (active members with that role) and saves each vehicle's", async () => {
    const api = asGestor({
      'GET /api/empresa/veiculos': ok({
        Veiculos: [
          { id: 11, placa: 'ABC1D23', motoristas: [2], centroDeCusto: null },
          { id: 12, placa: 'XYZ9K88', motoristas: [], centroDeCusto: null },
        ],
        Paginacao: { TotalPaginas: 1 },
      }),
      'POST /api/empresa/veiculos/12/motoristas': ok({
        Mensagem: 'Motoristas do veículo atualizados.',
        Veiculo: { id: 12, placa: 'XYZ9K88', motoristas: [2, 3], centroDeCusto: null },
      }),
    });
    const { user } = renderRoute('/empresa/veiculos');
    const first = within(await screen.findByRole('article', { name: 'ABC1D23' }));
    expect(first.getByRole('checkbox', { name: 'João Souza (***.444.777-**)' })).toBeChecked();
    expect(first.getByRole('checkbox', { name: 'Pedro Alves (***.555.666-**)' })).not.toBeChecked();
    // Only active Motoristas: not the Gestor, not an invitation.
    expect(first.getAllByRole('checkbox')).toHaveLength(2);

    const second = within(screen.getByRole('article', { name: 'XYZ9K88' }));
    const save = second.getByRole('button', { name: 'Salvar Motoristas do veículo XYZ9K88' });
    expect(save).toBeDisabled();
    await user.click(second.getByRole('checkbox', { name: 'João Souza (***.444.777-**)' }));
    await user.click(second.getByRole('checkbox', { name: 'Pedro Alves (***.555.666-**)' }));
    await user.click(save);
    expect(await screen.findByText('Motoristas do veículo atualizados.')).toBeInTheDocument();
    const [sent] = api.callsTo('POST', '/api/empresa/veiculos/12/motoristas');
    expect(sent?.body).toEqual({ motoristas: [2, 3] });
    expect(sent?.headers['x-conta']).toBe(String(COMPANY_ID));
  });
});

describe('decision 77 /empresa/auditoria', () => {
  const record = (over: Record<string, unknown>) => ({
    id: 1,
    em: '2026-11-20T13:05:09.000Z',
    quem: 'João Souza',
    documento: '***.444.777-**',
    papel: 'motorista',
    acao: 'Saldo da conta',
    resultado: 'negado',
    endereco: '203.0.113.7',
    antes: null,
    depois: null,
    ...over,
  });

  it('shows the trail newest first: when (São Paulo), who, the action, "Negado" as a warning, before and after', async () => {
    asGestor({
      'GET /api/empresa/auditoria': ok({
        Registros: [
          record({ id: 2 }),
          record({
            id: 1,
            quem: 'Maria da Silva',
            documento: '***.982.247-**',
            papel: 'gestor',
            acao: 'Mudar o papel de um membro',
            resultado: 'ok',
            antes: '{"papel": "financeiro", "membro": 2}',
            depois: '{"papel":"gestor","membro":2}',
          }),
        ],
        Paginacao: { TotalPaginas: 1 },
      }),
    });
    renderRoute('/empresa/auditoria');
    const [denied, done] = await screen.findAllByRole('article');
    expect(denied).toHaveAccessibleName('Saldo da conta');
    expect(denied).toHaveTextContent('Negado');
    expect(denied).toHaveTextContent('O papel não permitia esta ação: ela não foi feita.');
    expect(denied).toHaveTextContent('20/11/2026 10:05:09');
    expect(denied).toHaveTextContent('João Souza · ***.444.777-** · Motorista');
    expect(denied).toHaveTextContent('203.0.113.7');
    expect(within(denied!).getByText('Negado').closest('[data-warning]')).not.toBeNull();
    expect(done).toHaveTextContent('Feito');
    expect(done).toHaveTextContent('{"papel":"financeiro","membro":2}');
    expect(done).toHaveTextContent('{"papel":"gestor","membro":2}');
  });

  it('filters by member, result and days (kept in the address) and downloads the same as CSV', async () => {
    const api = asGestor({ 'GET /api/empresa/auditoria': ok({ Registros: [record({})], Paginacao: { TotalPaginas: 1 } }) });
    const saved = captureDownloads();
    const asked = mockFile(api.fetchMock, '/api/empresa/auditoria/exportar', {
      body: 'em;quem\n',
      contentType: 'text/csv; charset=utf-8',
      fileName: 'auditoria-2026-11.csv',
    });
    const { user, router } = renderRoute('/empresa/auditoria');
    await screen.findAllByRole('article');
    const filters = within(screen.getByRole('group', { name: 'Filtrar registro' }));
    await waitFor(() => expect(filters.getByLabelText('Membro')).toHaveTextContent('João Souza (Motorista)'));
    await user.selectOptions(filters.getByLabelText('Membro'), '2');
    await user.selectOptions(filters.getByLabelText('Resultado'), 'negado');
    await waitFor(() => expect(router.state.location.search).toBe('?membro=2&resultado=negado'));
    await waitFor(() =>
      expect(api.fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/empresa/auditoria?page=1&membro=2&resultado=negado'),
    );

    await user.click(screen.getByRole('button', { name: 'Baixar CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('auditoria-2026-11.csv');
    expect(asked[0]?.url.search).toBe('?membro=2&resultado=negado');
    expect(asked[0]?.headers.get('x-conta')).toBe(String(COMPANY_ID));
  });
});
