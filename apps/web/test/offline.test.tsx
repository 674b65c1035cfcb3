// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { api, IDEMPOTENCY_KEY_HEADER } from '@portal/contract';
import { messages, serverMessages } from '@portal/domain';
import { del, get, set } from 'idb-keyval';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signIn } from '../src/features/auth/api/signIn';
import { request } from '../src/lib/api';
import { balanceQueryKey } from '../src/lib/balance';
import { NO_ANSWER_MESSAGE, retryPolicy } from '../src/lib/idempotency';
import { OFFLINE_ACTIONS_DISABLED, OFFLINE_REASON, offlineDataLine } from '../src/lib/offline';
import { OFFLINE_STORE_KEY, PERSIST_THROTTLE_MS } from '../src/lib/persist';
import { queryClient } from '../src/lib/queryClient';
import { demoUser, mockApi, ok, pendingCharge, renderRoute, signInStorage, type MockReply, type RecordedCall, connection } from './utils';

/** GET /api/veiculo/detail/ABC1D23's answer for a vehicle carrying `tag`. */
const vehicleDetail = (tag: unknown) =>
  ok({
    Dados: {
      id: 9,
      LicensePlate: 'ABC1D23',
      CpfCnpjAntt: '52998224725',
      RntrcAntt: '123456789',
      Axles: 3,
      vehicleType: 2,
      modelo: 'm',
      tag,
    },
  });

beforeAll(async () => {
  await Promise.all([
    import('../src/app/AuthenticatedShell'),
    import('../src/app/routes/DashboardRoute'),
    import('../src/features/withdrawal/WithdrawPage'),
    import('../src/features/credit/BuyBalancePage'),
    import('../src/features/tags/TagsListPage'),
    import('../src/features/tags/TagDetailPage'),
    import('../src/features/vehicles/VehiclesListPage'),
    import('../src/features/statement/StatementPage'),
  ]);
});

const fastRetries = [0, 0, 0];
const realRetries = retryPolicy.delaysMs;
beforeEach(() => {
  retryPolicy.delaysMs = fastRetries;
});
afterEach(async () => {
  retryPolicy.delaysMs = realRetries;
  if (!connection.online) connection.set(true);
  cleanup();
  queryClient.clear();
  // The persister writes at most every 500 ms (lib/persist.ts): a write of this test still pending
  // would land after the delete and hand its data to the next test.
  await new Promise((resolve) => setTimeout(resolve, PERSIST_THROTTLE_MS + 100));
  await del(OFFLINE_STORE_KEY);
});

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
      ok({ Transacoes: [], Paginacao: { TotalPaginas: 0 } }),
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

/**
 * A server that does a call once per Idempotency-Key (as ours does): a retry with the same key gets
 * the first answer again. `lose` answers are lost on the way back after the server did the work.
 */
function onceServer(answer: () => MockReply) {
  const first = new Map<string, MockReply>();
  let effects = 0;
  const handler = (call: RecordedCall): MockReply => {
    const key = call.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] ?? '';
    const replay = first.get(key);
    if (replay) return replay;
    effects += 1;
    const reply = answer();
    if (key) first.set(key, reply);
    return reply;
  };
  return { handler, effects: () => effects };
}

/** The first `count` answers of `route` ('METHOD /path') never reach the phone (the server did the work). */
function loseAnswers(mock: ReturnType<typeof mockApi>, route: string, count: number) {
  const answer = mock.fetchMock.getMockImplementation();
  let lost = 0;
  mock.fetchMock.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const response = await answer!(input, init);
    const path = new URL(String(input), 'http://localhost').pathname;
    if (`${(init.method ?? 'GET').toUpperCase()} ${path}` === route && lost < count) {
      lost += 1;
      throw new TypeError('Failed to fetch');
    }
    return response;
  });
}

const keysSent = (mock: ReturnType<typeof mockApi>, method: string, path: string) =>
  mock.callsTo(method, path).map((call) => call.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('safe retries: one key per intent of the driver', () => {
  type User = ReturnType<typeof renderRoute>['user'];
  async function withdraw(user: User) {
    await user.click(screen.getByLabelText('Valor'));
    await user.paste('4000');
    await user.selectOptions(screen.getByLabelText('Tipo da Chave Pix'), 'PHONE');
    await user.click(screen.getByLabelText('Chave Pix'));
    await user.paste('11987654321');
    await user.click(screen.getByRole('button', { name: 'Sacar' }));
  }
  async function openWithdrawal(server: ReturnType<typeof onceServer>) {
    signInStorage({ terms: 'aceito' });
    const mock = mockApi({
      'GET /api/motorista/saldo': balance(100),
      'GET /api/motorista/verificar-saque': ok({ Mensagem: 'Saque disponível' }),
      // The phone key is saved (decision 44): no password asked, the retries are the subject here.
      'GET /api/motorista/chaves-pix': ok({
        Chaves: [
          {
            id: 1,
            tipo: 'PHONE',
            chave: '11987654321',
            propria: false,
            salvaEm: '2026-11-01T12:00:00.000Z',
            limitadaAte: null,
            restanteLimitada: null,
          },
        ],
      }),
      'POST /api/motorista/sacar': server.handler,
    });
    const view = renderRoute('/saldo/retirar');
    await screen.findByText('R$ 100,00');
    return { ...view, mock };
  }
  const requested = () => ok({ Mensagem: serverMessages.withdrawal.processing, withdrawalId: 'wd_1', status: 'PROCESSING' });

  it("an answer lost on the way: sent again with the same key by itself, 'Saque solicitado' once, one withdrawal", async () => {
    const server = onceServer(requested);
    const { user, mock } = await openWithdrawal(server);
    loseAnswers(mock, 'POST /api/motorista/sacar', 1);
    await withdraw(user);

    expect(await screen.findByText(serverMessages.withdrawal.processing)).toBeInTheDocument();
    const keys = keysSent(mock, 'POST', '/api/motorista/sacar');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(server.effects()).toBe(1);
    expect(screen.getAllByText(serverMessages.withdrawal.processing)).toHaveLength(1);
  });

  it('no answer at all: the driver is told plainly; pressing again sends the same key and gets the first answer', async () => {
    const server = onceServer(requested);
    const { user, mock } = await openWithdrawal(server);
    loseAnswers(mock, 'POST /api/motorista/sacar', 1 + fastRetries.length);
    await withdraw(user);
    expect(await screen.findByText(NO_ANSWER_MESSAGE)).toBeInTheDocument();
    expect(screen.getByLabelText('Valor')).toHaveValue('40,00');

    await user.click(screen.getByRole('button', { name: 'Sacar' }));
    expect(await screen.findByText(serverMessages.withdrawal.processing)).toBeInTheDocument();
    const keys = keysSent(mock, 'POST', '/api/motorista/sacar');
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(1);
    expect(server.effects()).toBe(1);

    // The answer closed the intent: the same order again is a new withdrawal, with a new key.
    await withdraw(user);
    await waitFor(() => expect(keysSent(mock, 'POST', '/api/motorista/sacar')).toHaveLength(6));
    expect(keysSent(mock, 'POST', '/api/motorista/sacar')[5]).not.toBe(keys[0]);
    await waitFor(() => expect(server.effects()).toBe(2));
  });

  it("'em processamento' (409): waits and asks again with the same key", async () => {
    let calls = 0;
    const server = onceServer(requested);
    const { user, mock } = await openWithdrawal({
      effects: server.effects,
      handler: (call) => {
        calls += 1;
        return calls === 1 ? { status: 409, body: { Sucesso: false, Mensagem: messages.idempotency.inProgress } } : server.handler(call);
      },
    });
    await withdraw(user);
    expect(await screen.findByText(serverMessages.withdrawal.processing)).toBeInTheDocument();
    const keys = keysSent(mock, 'POST', '/api/motorista/sacar');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('a refusal of the server is an answer: the driver reads it, and the next press is a new intent', async () => {
    const server = onceServer(() => ({ status: 409, body: { Sucesso: false, Mensagem: serverMessages.withdrawal.alreadyProcessing } }));
    const { user, mock } = await openWithdrawal(server);
    await withdraw(user);
    expect(await screen.findByText(serverMessages.withdrawal.alreadyProcessing)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sacar' }));
    await waitFor(() => expect(keysSent(mock, 'POST', '/api/motorista/sacar')).toHaveLength(2));
    const [first, second] = keysSent(mock, 'POST', '/api/motorista/sacar');
    expect(second).not.toBe(first);
  });

  it('a purchase whose answer was lost shows one Pix, made once', async () => {
    const charge = pendingCharge;
    const server = onceServer(() => ok({ Mensagem: serverMessages.pix.chargeCreated, qrCode: charge }));
    signInStorage({ terms: 'aceito' });
    const mock = mockApi({
      'GET /api/motorista/saldo': balance(0),
      'POST /api/transacoes/gerar-qrcode': server.handler,
      [`GET /api/transacoes/qrcode/${charge.id}`]: ok({ Mensagem: 'Aguardando', qrCode: charge }),
    });
    loseAnswers(mock, 'POST /api/transacoes/gerar-qrcode', 2);
    const { user } = renderRoute('/saldo/comprar');
    await user.click(await screen.findByLabelText('Valor Saldo'));
    await user.paste('15000');
    await user.click(screen.getByRole('button', { name: 'Comprar' }));
    expect(await screen.findByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeInTheDocument();
    const keys = keysSent(mock, 'POST', '/api/transacoes/gerar-qrcode');
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(server.effects()).toBe(1);
  });

  it('a tag activation whose answer was lost is done once, with one toast', async () => {
    const server = onceServer(() => ok({ Mensagem: messages.tag.activated }));
    signInStorage({ terms: 'aceito' });
    const tag = { serialNumber: '1234567812345678', Operadora: '22222222000122', statusCode: 201, ownershipType: 'own' };
    const mock = mockApi({
      'GET /api/motorista/saldo': balance(100),
      'GET /api/operadoras': ok({ Operadoras: [{ Nome: 'SemParar', Cnpj: '22222222000122' }] }),
      'GET /api/veiculo/detail/ABC1D23': vehicleDetail(tag),
      'POST /api/tag/ativar-tag-motorista': server.handler,
    });
    loseAnswers(mock, 'POST /api/tag/ativar-tag-motorista', 1);
    const { user } = renderRoute('/tags/detalhes/ABC1D23');
    await user.click(await screen.findByRole('button', { name: 'Ativar' }));
    expect(await screen.findByText(messages.tag.activated)).toBeInTheDocument();
    const keys = keysSent(mock, 'POST', '/api/tag/ativar-tag-motorista');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(server.effects()).toBe(1);
    expect(screen.getAllByText(messages.tag.activated)).toHaveLength(1);
  });

  const stateChanging = [
    ['buy credit', 'createPixCharge'],
    ['withdraw', 'withdraw'],
    ['register tag', 'registerTag'],
    ['activate', 'activateTag'],
    ['block', 'blockTag'],
    ['release', 'releaseTag'],
    ['cancel', 'cancelTag'],
    ['replace', 'replaceTag'],
    ['delete tag', 'removeTag'],
    ['update vehicle', 'updateVehicle'],
    ['delete vehicle', 'deleteVehicle'],
    ['accept terms', 'accept'],
    ['reject terms', 'reject'],
  ] as const;

  it.each(stateChanging)('%s (%s) carries an Idempotency-Key', async (_name, name) => {
    signInStorage({ terms: 'aceito' });
    const endpoint = api[name];
    expect(endpoint.idempotent).toBe(true);
    const mock = mockApi({
      [`${endpoint.method} ${endpoint.path}`]: { status: 422, body: { Sucesso: false, Mensagem: 'Dados inválidos' } },
    });
    await expect(
      request(endpoint as typeof api.blockTag, {
        body: { serialNumber: '1234567812345678', statusId: '200', origem: 'Pedagio motorista' },
      }),
    ).rejects.toThrow();
    expect(mock.calls[0]?.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]).toMatch(UUID);
  });

  it.each([
    ['balance', 'balance'],
    ['statement', 'statement'],
    ['sign-out', 'logout'],
  ] as const)('%s (%s) carries none', async (_name, name) => {
    signInStorage({ terms: 'aceito' });
    const endpoint = api[name];
    const mock = mockApi({});
    await expect(request(endpoint as typeof api.balance)).rejects.toThrow();
    expect(mock.calls[0]?.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]).toBeUndefined();
  });
});
