// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { api, IDEMPOTENCY_KEY_HEADER } from '@portal/contract';
import { messages, serverMessages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { request } from '../../src/lib/api';
import { NO_ANSWER_MESSAGE } from '../../src/lib/idempotency';
import { mockApi, ok, pendingCharge, renderRoute, signInStorage, type MockReply, type RecordedCall } from '../support/utils';
import { fastRetries, registerOfflineAppHooks, vehicleDetail } from '../support/offline';

registerOfflineAppHooks();

const balance = (Saldo: number, SaldoTerceiro = 0) => ok({ Saldo, SaldoTerceiro });

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
    await user.click(within(await screen.findByRole('dialog', { name: 'Ativar tag' })).getByRole('button', { name: 'Ativar' }));
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
