import { screen, waitFor } from '@testing-library/react';
import { IDEMPOTENCY_KEY_HEADER } from '@portal/contract';
import { messages, serverMessages } from '@portal/domain';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attentionQueryKey } from '../src/lib/attention';
import { OFFLINE_REASON } from '../src/lib/offline';
import { queryClient } from '../src/lib/queryClient';
import { mockApi, ok, renderRoute, signInStorage, type MockReply, type RecordedCall, connection } from './utils';

beforeAll(async () => {
  await Promise.all([import('../src/app/AuthenticatedShell'), import('../src/features/settings/SettingsPage')]);
});

afterEach(() => {
  if (!connection.online) connection.set(true);
  queryClient.clear();
});

const LABEL = 'Nível de alerta do saldo';
const saved = (nivelAlertaSaldo: number, Mensagem: string = serverMessages.settings.ok) => ok({ Mensagem, Preferencias: { nivelAlertaSaldo } });

function openSettings(handlers: Record<string, MockReply | ((call: RecordedCall) => MockReply)> = {}) {
  signInStorage({ terms: 'aceito' });
  const mock = mockApi({ 'GET /api/motorista/preferencias': saved(50), ...handlers });
  return { mock, ...renderRoute('/configuracoes') };
}

const field = () => screen.findByRole('textbox', { name: LABEL });

describe('/configuracoes', () => {
  it("is reached from the header's 'Configurações'", async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/motorista/saldo': ok({ Saldo: 10, SaldoTerceiro: 0 }), 'GET /api/motorista/preferencias': saved(50) });
    const { user, router } = renderRoute('/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Configurações' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/configuracoes'));
    expect(await screen.findByRole('heading', { name: 'Configurações', level: 1 })).toBeInTheDocument();
  });

  it('shows the saved alert level (R$ 50,00 until chosen) with what it is for', async () => {
    openSettings();
    expect(await field()).toHaveValue('50,00');
    expect(document.title).toBe('Configurações | Portal do Motorista');
    expect(await field()).toHaveAccessibleDescription(expect.stringContaining('O painel avisa quando o saldo de pedágio ficar abaixo deste valor'));
    expect(screen.getByRole('button', { name: 'Salvar' })).toBeEnabled();
  });

  it('shows a saved R$ 0,00 as 0,00', async () => {
    openSettings({ 'GET /api/motorista/preferencias': saved(0) });
    expect(await field()).toHaveValue('0,00');
  });

  it("refuses R$ 60.000,00 (and an empty field) with the contract's message, sending nothing", async () => {
    const { mock, user } = openSettings();
    const input = await field();
    await user.clear(input);
    await user.type(input, '6000000');
    expect(input).toHaveValue('60.000,00');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(messages.settings.alertLevelInvalid)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await user.clear(input);
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(messages.settings.alertLevelInvalid)).toBeInTheDocument();
    expect(mock.callsTo('POST', '/api/motorista/preferencias')).toHaveLength(0);
  });

  it('saves in reais with an Idempotency-Key, says so and asks the dashboard notices again', async () => {
    const { mock, user } = openSettings({
      'POST /api/motorista/preferencias': (call) => saved((call.body as { nivelAlertaSaldo: number }).nivelAlertaSaldo, messages.settings.saved),
    });
    queryClient.setQueryData(attentionQueryKey, { Sucesso: true, Mensagem: 'OK', Avisos: [], UltimasMovimentacoes: [] });
    const input = await field();
    await user.clear(input);
    await user.type(input, '50000000');
    expect(input).toHaveValue('500.000,00');
    await user.clear(input);
    await user.type(input, '1234567');
    expect(input).toHaveValue('12.345,67');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText(messages.settings.saved)).toBeInTheDocument();
    const [post] = mock.callsTo('POST', '/api/motorista/preferencias');
    expect(post?.body).toEqual({ nivelAlertaSaldo: 12345.67 });
    expect(post?.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]).toBeTruthy();
    expect(queryClient.getQueryState(attentionQueryKey)?.isInvalidated).toBe(true);
    expect(input).toHaveValue('12.345,67');
  });

  it("puts a 422's field message on the field", async () => {
    const { user } = openSettings({
      'POST /api/motorista/preferencias': {
        status: 422,
        body: { Sucesso: false, Mensagem: 'Dados inválidos', errors: { nivelAlertaSaldo: ['Valor recusado pelo servidor'] } },
      },
    });
    const input = await field();
    await user.clear(input);
    await user.type(input, '8000');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Valor recusado pelo servidor')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(input).toHaveFocus());
  });

  it("offline: 'Salvar' is disabled with the reason, and nothing is sent", async () => {
    const { mock, user } = openSettings();
    await field();
    connection.set(false);
    expect(await screen.findByText(OFFLINE_REASON)).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Salvar' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Nada foi enviado. O botão volta a funcionar quando o sinal voltar.');
    await user.click(button);
    expect(mock.callsTo('POST', '/api/motorista/preferencias')).toHaveLength(0);
    connection.set(true);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Salvar' })).toBeEnabled());
  });

  it('a failed load says so and offers to try again', async () => {
    let fail = true;
    const { user } = openSettings({
      'GET /api/motorista/preferencias': () => (fail ? { status: 404, body: { Sucesso: false, Mensagem: 'Motorista não encontrado' } } : saved(75)),
    });
    expect(await screen.findByText('Motorista não encontrado')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await field()).toHaveValue('75,00');
  });
});
