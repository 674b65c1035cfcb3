// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { serverMessages } from '@portal/domain';
import { get, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../src/features/auth/api/signIn';
import { balanceQueryKey } from '../../src/lib/balance';
import { OFFLINE_ACTIONS_DISABLED, OFFLINE_REASON, offlineDataLine } from '../../src/lib/offline';
import { OFFLINE_STORE_KEY, PERSIST_THROTTLE_MS } from '../../src/lib/persist';
import { onlineManager } from '@tanstack/react-query';
import { TABLE_NOT_LOADED_TEXT } from '../../src/components/ui/DataTable';
import { queryClient } from '../../src/lib/queryClient';
import { demoUser, mockApi, ok, renderRoute, signInStorage, type MockReply, type RecordedCall, connection } from '../support/utils';
import { registerOfflineAppHooks, vehicleDetail } from '../support/offline';

registerOfflineAppHooks();

/** The query hashes kept on the phone ([] when nothing is). */
async function keptQueries(): Promise<string[]> {
  const raw = await get<string>(OFFLINE_STORE_KEY);
  if (!raw) return [];
  const client = JSON.parse(raw) as { clientState: { queries: { queryHash: string }[] } };
  return client.clientState.queries.map((query) => query.queryHash);
}
const BALANCE_HASH = JSON.stringify(balanceQueryKey);

/** A write of the cache still gathering when it was wiped lands later: none of the driver's data may come back with it. */
async function nothingComesBack() {
  await new Promise((resolve) => setTimeout(resolve, PERSIST_THROTTLE_MS + 200));
  expect(await keptQueries()).toEqual([]);
}

const balance = (Saldo: number, SaldoTerceiro = 0) => ok({ Saldo, SaldoTerceiro });

/** Opens the dashboard signed in and waits until its balance is shown and kept on the phone. */
async function dashboardSeen(handlers: Record<string, MockReply | ((call: RecordedCall) => MockReply)> = {}) {
  signInStorage({ terms: 'aceito' });
  const mock = mockApi({ 'GET /api/motorista/saldo': balance(1234.56, 80), ...handlers });
  const view = renderRoute('/dashboard');
  expect(await screen.findByText('R$ 1.234,56')).toBeInTheDocument();
  await waitFor(async () => expect(await keptQueries()).toContain(BALANCE_HASH));
  return { ...view, mock };
}

const notice = () => screen.queryByTestId('aviso-sem-conexao');

describe('offline: the last data seen, with its date', () => {
  it('writes the line in São Paulo time, to the minute', () => {
    expect(offlineDataLine(Date.parse('2026-11-22T15:04:59Z'))).toBe('Sem conexão — dados de 22/11/2026 12:04');
    expect(offlineDataLine(Date.parse('2026-01-01T02:30:00Z'))).toBe('Sem conexão — dados de 31/12/2025 23:30');
  });

  it('the dashboard keeps the balance on screen with the time it was fetched, and refreshes it when the signal returns', async () => {
    let saldo = 1234.56;
    const { mock } = await dashboardSeen({ 'GET /api/motorista/saldo': () => balance(saldo, 80) });
    expect(notice()).toBeNull();
    const fetchedAt = queryClient.getQueryState(balanceQueryKey)?.dataUpdatedAt ?? 0;

    connection.set(false);
    const shown = await screen.findByTestId('aviso-sem-conexao');
    expect(within(shown).getByText(offlineDataLine(fetchedAt))).toBeInTheDocument();
    expect(offlineDataLine(fetchedAt)).toMatch(/^Sem conexão — dados de \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(screen.getByText('R$ 1.234,56')).toBeInTheDocument();
    expect(screen.getByText('R$ 80,00')).toBeInTheDocument();

    saldo = 2000;
    const calls = mock.callsTo('GET', '/api/motorista/saldo').length;
    connection.set(true);
    expect(await screen.findByText('R$ 2.000,00')).toBeInTheDocument();
    expect(mock.callsTo('GET', '/api/motorista/saldo').length).toBeGreaterThan(calls);
    expect(notice()).toBeNull();
  });

  it('a reopened portal with no signal shows the kept balance, dated when it was fetched, without asking the server', async () => {
    await dashboardSeen();
    // The portal is closed; the kept copy says the balance was fetched on 20/11/2026 at 07:30 (São Paulo).
    cleanup();
    queryClient.clear();
    const raw = await get<string>(OFFLINE_STORE_KEY);
    const kept = JSON.parse(raw ?? 'null') as { clientState: { queries: { queryHash: string; state: { dataUpdatedAt: number } }[] } };
    for (const query of kept.clientState.queries) query.state.dataUpdatedAt = Date.parse('2026-11-20T10:30:00Z');
    await set(OFFLINE_STORE_KEY, JSON.stringify(kept));

    connection.startOffline();
    const mock = mockApi({});
    renderRoute('/dashboard');
    expect(await screen.findByText('Sem conexão — dados de 20/11/2026 07:30')).toBeInTheDocument();
    expect(screen.getByText('R$ 1.234,56')).toBeInTheDocument();
    expect(mock.callsTo('GET', '/api/motorista/saldo')).toHaveLength(0);
  });

  it.each([
    [
      'the statement',
      '/extrato/listar',
      'GET /api/extrato/listar',
      ok({ Transacoes: [], Paginacao: { TotalPaginas: 0 }, Totais: [] }),
      'Extrato',
      '["extrato",1]',
    ],
    ['the VPOs', '/vpos/listar', 'GET /api/pedagio/motoristaVpos', ok({ VPOS: [], Paginacao: { TotalPaginas: 0 } }), 'VPOs', '["vpos"'],
    [
      'the tags',
      '/tags/listar',
      'GET /api/tag/listar',
      ok({ Tags: [], Paginacao: { TotalPaginas: 0 } }),
      'Tags',
      '["tags-e-veiculos","tags",1]',
    ],
    [
      'the vehicles',
      '/veiculos/listar',
      'GET /api/veiculo/listar',
      ok({ Veiculos: [], Paginacao: { TotalPaginas: 0 } }),
      'Veículos',
      '["tags-e-veiculos","veiculos",1]',
    ],
  ])('%s: kept on the phone and dated offline', async (_name, path, call, answer, title, keyStart) => {
    signInStorage({ terms: 'aceito' });
    mockApi({ [call]: answer, 'GET /api/operadoras': ok({ Operadoras: [] }) });
    renderRoute(path);
    await screen.findByRole('heading', { name: title });
    const listHash = async () => (await keptQueries()).find((hash) => hash.startsWith(keyStart));
    await waitFor(async () => expect(await listHash()).toBeDefined());
    const fetchedAt = queryClient.getQueryCache().get((await listHash()) ?? '')?.state.dataUpdatedAt ?? 0;
    connection.set(false);
    expect(await screen.findByText(offlineDataLine(fetchedAt))).toBeInTheDocument();
  });
});

describe('offline: a list never read on this phone', () => {
  it.each([
    ['the tags', '/tags/listar', 'Tags'],
    ['the vehicles', '/veiculos/listar', 'Veículos'],
    ['the VPOs', '/vpos/listar', 'VPOs'],
    ['the statement', '/extrato/listar', 'Extrato'],
  ])(
    '%s: one state, the true one (not loaded, neither loading nor empty), and the list once the signal returns',
    async (_name, path, title) => {
      signInStorage({ terms: 'aceito' });
      connection.startOffline();
      // The app opens with no signal: TanStack's onlineManager hears no event for it.
      onlineManager.setOnline(false);
      mockApi({
        'GET /api/tag/listar': ok({ Tags: [], Paginacao: { TotalPaginas: 0 } }),
        'GET /api/veiculo/listar': ok({ Veiculos: [], Paginacao: { TotalPaginas: 0 } }),
        'GET /api/operadoras': ok({ Operadoras: [] }),
        'GET /api/pedagio/motoristaVpos': ok({ VPOS: [], Paginacao: { TotalPaginas: 0 } }),
        'GET /api/extrato/listar': ok({ Transacoes: [], Paginacao: { TotalPaginas: 0 }, Totais: [] }),
      });
      renderRoute(path);
      await screen.findByRole('heading', { name: title, level: 1 });
      expect(await screen.findByText(/ainda não foram carregados neste aparelho/)).toBeInTheDocument();
      expect(await screen.findByText(TABLE_NOT_LOADED_TEXT)).toBeInTheDocument();
      expect(screen.queryByText(/Carregando/)).not.toBeInTheDocument();
      expect(screen.queryByText('Nenhum item.')).not.toBeInTheDocument();
      connection.set(true);
      expect(await screen.findByText('Nenhum item.')).toBeInTheDocument();
      expect(screen.queryByText(TABLE_NOT_LOADED_TEXT)).not.toBeInTheDocument();
    },
  );
});

describe('offline: actions that need the network are disabled, saying why', () => {
  const TAG = { serialNumber: '1234567812345678', Operadora: '22222222000122', statusCode: 201, ownershipType: 'own' };
  const catalogue = { 'GET /api/operadoras': ok({ Operadoras: [{ Nome: 'SemParar', Cnpj: '22222222000122' }] }) };

  const link = (name: string) => ({ name, online: 'link' as const });
  const button = (name: string) => ({ name, online: 'button' as const });
  it.each([
    ['dashboard', '/dashboard', {}, [link('Sacar saldo via Pix'), link('Comprar créditos de pedágio')]],
    [
      'tag list',
      '/tags/listar',
      { 'GET /api/tag/listar': ok({ Tags: [{ ...TAG, vehicle: { LicensePlate: 'ABC1D23' } }], Paginacao: { TotalPaginas: 1 } }) },
      [link('Cadastrar Tag'), link('Editar tag do veículo ABC1D23'), button('Excluir tag do veículo ABC1D23')],
    ],
    [
      'vehicle list',
      '/veiculos/listar',
      {
        'GET /api/veiculo/listar': ok({
          Veiculos: [{ id: 1, LicensePlate: 'ABC1D23', Status: null, tag: null }],
          Paginacao: { TotalPaginas: 1 },
        }),
      },
      [link('Cadastrar'), button('Excluir veículo ABC1D23')],
    ],
    [
      'tag detail',
      '/tags/detalhes/ABC1D23',
      {
        'GET /api/veiculo/detail/ABC1D23': vehicleDetail(TAG),
      },
      [button('Ativar'), link('Editar'), button('Excluir')],
    ],
  ])('%s', async (_name, path, handlers, actions) => {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/motorista/saldo': balance(100), ...catalogue, ...handlers });
    renderRoute(path);
    for (const { name, online } of actions) expect(await screen.findByRole(online, { name })).toBeEnabled();

    connection.set(false);
    await screen.findByTestId('aviso-sem-conexao');
    for (const { name } of actions) {
      const disabled = screen.getByRole('button', { name });
      expect(disabled).toBeDisabled();
      expect(disabled).toHaveAccessibleDescription(expect.stringContaining(OFFLINE_ACTIONS_DISABLED));
    }

    connection.set(true);
    await waitFor(() => expect(notice()).toBeNull());
    for (const { name, online } of actions) expect(screen.getByRole(online, { name })).toBeEnabled();
  });

  it.each([
    ['withdrawal', '/saldo/retirar', { 'GET /api/motorista/verificar-saque': ok({ Mensagem: 'Saque disponível' }) }, 'Sacar'],
    ['purchase', '/saldo/comprar', {}, 'Comprar'],
  ] as const)("%s form: '%s' is disabled with 'Sem conexão: tente quando o sinal voltar'", async (_name, path, handlers, name) => {
    signInStorage({ terms: 'aceito' });
    const mock = mockApi({ 'GET /api/motorista/saldo': balance(100), ...handlers });
    const { user } = renderRoute(path);
    await waitFor(() => expect(screen.getByRole('button', { name })).toBeEnabled());
    connection.set(false);
    expect(await screen.findByText(OFFLINE_REASON)).toBeInTheDocument();
    expect(screen.getByRole('button', { name })).toBeDisabled();
    expect(screen.getByRole('button', { name })).toHaveAccessibleDescription(
      'Nada foi enviado. O botão volta a funcionar quando o sinal voltar.',
    );
    await user.click(screen.getByRole('button', { name }));
    expect(mock.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });
});

describe('offline data belongs to one driver', () => {
  it("'Sair' wipes it, from memory and from the phone", async () => {
    const { user, router } = await dashboardSeen({ 'POST /api/tokens/logout': ok() });
    await user.click(screen.getByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await waitFor(async () => expect(await keptQueries()).toEqual([]));
    expect(queryClient.getQueryData(balanceQueryKey)).toBeUndefined();
    await nothingComesBack();
  });

  it('a 401 wipes it', async () => {
    const { router } = await dashboardSeen({
      'GET /api/extrato/listar': { status: 401, body: { Sucesso: false, Mensagem: serverMessages.session.unauthorized } },
    });
    await act(() => router.navigate('/extrato/listar'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await waitFor(async () => expect(await keptQueries()).toEqual([]));
    expect(queryClient.getQueryData(balanceQueryKey)).toBeUndefined();
    await nothingComesBack();
  });

  it('another driver signing in on the same phone wipes it', async () => {
    await dashboardSeen({
      'POST /api/tokens/login-motorista': ok({ Token: 'token-do-joao', Data: { id: 8, name: 'joão souza', cpfCnpj: '11144477735' } }),
      'GET /api/termos/status-atual/8': ok({ data: null }),
    });
    cleanup();
    await signIn({ cpfCnpj: '11144477735', password: 'segredo123' });
    expect(await keptQueries()).toEqual([]);
    expect(queryClient.getQueryData(balanceQueryKey)).toBeUndefined();
  });

  it("another driver's shell never shows it, even before anything wiped it", async () => {
    await dashboardSeen();
    cleanup();
    queryClient.clear();
    // Another driver's session appears in storage without a sign-in through this app.
    localStorage.setItem('user_data', JSON.stringify({ ...demoUser, id: 8, name: 'joão souza' }));
    connection.startOffline();
    mockApi({});
    renderRoute('/dashboard');
    expect(await screen.findByText('Sem conexão — estes dados ainda não foram carregados neste aparelho')).toBeInTheDocument();
    expect(screen.queryByText('R$ 1.234,56')).not.toBeInTheDocument();
    await waitFor(async () => expect(await keptQueries()).toEqual([]));
  });
});
