import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockApi, ok, pageUrls, renderRoute, signInStorage } from '../../support/utils';
import { accounts, chooseCompanyStorage, COMPANY_ID, companyAccount, ownAccount } from './fixtures';
import { forgetKeptData } from '../../support/keptData';

beforeAll(async () => {
  await Promise.all([
    import('../../../src/app/AuthenticatedShell'),
    import('../../../src/app/routes/DashboardRoute'),
    import('../../../src/features/vehicles/PassagesPage'),
  ]);
});

afterEach(forgetKeptData);

const passage = (over: Record<string, unknown>) => ({
  id: 1,
  placa: 'ABC1D23',
  praca: 'Praça Jacareí',
  em: '2026-11-20T13:05:09.000Z',
  valor: 12.4,
  contestacao: null,
  ...over,
});

const pages: Record<string, unknown[]> = {
  '1': [
    passage({ id: 2, praca: 'Praça Itatiba', placa: 'XYZ9K88', valor: 8.9, em: '2026-11-21T09:00:00.000Z', contestacao: 'ABERTA' }),
    passage({ id: 1 }),
  ],
  '2': [passage({ id: 0, praca: 'Praça Campinas', valor: 5.1, em: '2026-11-10T12:00:00.000Z' })],
};

function asMotorista() {
  signInStorage({ terms: 'aceito' });
  chooseCompanyStorage('motorista');
  return mockApi({
    'GET /api/contas': accounts(ownAccount, companyAccount('motorista')),
    'GET /api/veiculo/listar': ok({
      Veiculos: [{ id: 5, LicensePlate: 'ABC1D23', Status: null, tag: null }],
      Paginacao: { TotalPaginas: 1 },
    }),
  });
}

/** GET /api/veiculo/passagens answers the page its address asks for (mockApi's handlers do not see the query). */
function answerPassagesByPage(fetchMock: ReturnType<typeof mockApi>['fetchMock']) {
  const json = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/veiculo/passagens') return json(input, init);
    const Passagens = pages[url.searchParams.get('page') ?? '1'] ?? [];
    return Response.json({ Sucesso: true, Mensagem: 'OK', Passagens, Paginacao: { TotalPaginas: 2 } });
  });
}

describe("decision 77: a Motorista's passages", () => {
  it('the dashboard leads to the passages of their vehicles: place, plate, value and date, 20 a page', async () => {
    const api = asMotorista();
    answerPassagesByPage(api.fetchMock);
    const { user, router } = renderRoute('/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Passagens dos seus veículos' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/veiculos/passagens'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Passagens dos seus veículos' })).toBeInTheDocument();

    const [newest, older] = await screen.findAllByRole('article');
    expect(newest).toHaveAccessibleName('Praça Itatiba');
    expect(newest).toHaveTextContent('Placa XYZ9K88');
    expect(newest).toHaveTextContent('R$ 8,90');
    expect(newest).toHaveTextContent('21/11/2026 06:00:00');
    expect(newest).toHaveTextContent('Em análise');
    expect(older).toHaveAccessibleName('Praça Jacareí');
    expect(older).toHaveTextContent('Placa ABC1D23');
    expect(older).toHaveTextContent('R$ 12,40');
    expect(older).toHaveTextContent('20/11/2026 10:05:09');
    const [, init] = api.fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/veiculo/passagens'))!;
    expect(new Headers(init?.headers).get('x-conta')).toBe(String(COMPANY_ID));

    await user.click(screen.getByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(await screen.findByRole('article', { name: 'Praça Campinas' })).toBeInTheDocument();
    expect(pageUrls(api.fetchMock)).toContain('/api/veiculo/passagens?page=2');
  });

  it('says when there is none yet, and when the read failed (with Tentar novamente)', async () => {
    let fail = true;
    signInStorage({ terms: 'aceito' });
    chooseCompanyStorage('motorista');
    mockApi({
      'GET /api/contas': accounts(ownAccount, companyAccount('motorista')),
      'GET /api/veiculo/passagens': () =>
        fail ? { status: 500, body: { Sucesso: false, Mensagem: 'Erro interno' } } : ok({ Passagens: [], Paginacao: { TotalPaginas: 0 } }),
    });
    const { user } = renderRoute('/veiculos/passagens');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar as passagens.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Nenhuma passagem dos seus veículos até agora.')).toBeInTheDocument();
  });
});
