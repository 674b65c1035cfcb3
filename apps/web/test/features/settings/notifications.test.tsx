import { screen, waitFor, within } from '@testing-library/react';
import { messages, pushOptInTexts, pushSubscriptionMessages } from '@portal/domain';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { savePushIfRenewed } from '../../../src/features/auth/api/devicePush';
import { PUSH_RENEWED_MESSAGE } from '../../../src/pwa/push/renewal';
import { signIn } from '../../../src/features/auth/api/signIn';
import { OFFLINE_REASON, OFFLINE_REASON_ID } from '../../../src/lib/offline';
import { queryClient } from '../../../src/lib/queryClient';
import { fakePushBrowser, pushEndpoint, serverKey, subscriptionKeys } from '../../support/pushBrowser';
import { connection, demoUser, mockApi, ok, renderRoute, signInStorage, type MockReply, type RecordedCall } from '../../support/utils';

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/features/settings/SettingsPage')]);
});

let browser: ReturnType<typeof fakePushBrowser> | null = null;
afterEach(() => {
  browser?.remove();
  browser = null;
  if (!connection.online) connection.set(true);
  queryClient.clear();
});

const KEY_PATH = 'GET /api/motorista/notificacoes/chave';
const SAVE_PATH = 'PUT /api/motorista/notificacoes/inscricao';
const DELETE_PATH = 'DELETE /api/motorista/notificacoes/inscricao';

type Handlers = Record<string, MockReply | ((call: RecordedCall) => MockReply)>;

/** /configuracoes on a device as `device` says, the server answering as `handlers` say. */
function openSettings(device: Parameters<typeof fakePushBrowser>[0] = {}, handlers: Handlers = {}) {
  browser = fakePushBrowser(device);
  signInStorage({ terms: 'aceito' });
  const mock = mockApi({
    'GET /api/motorista/preferencias': ok({ Preferencias: { nivelAlertaSaldo: 50 } }),
    [KEY_PATH]: ok({ ChavePublica: serverKey }),
    [SAVE_PATH]: ok({ Mensagem: pushSubscriptionMessages.saved }),
    [DELETE_PATH]: ok({ Mensagem: pushSubscriptionMessages.removed }),
    'POST /api/tokens/logout': ok(),
    ...handlers,
  });
  return { mock, browser, ...renderRoute('/configuracoes') };
}

const section = async () => within(await screen.findByRole('region', { name: pushOptInTexts.title }));
const enableButton = async () => (await section()).findByRole('button', { name: pushOptInTexts.enable });

describe('Configurações: notifications on this device', () => {
  it('says what will be sent before anything is allowed, and that it is off on this device', async () => {
    const { browser: fake } = openSettings();
    const s = await section();
    expect(s.getByText(pushOptInTexts.intro)).toBeInTheDocument();
    const events = s.getByRole('list', { name: pushOptInTexts.intro });
    expect(
      within(events)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([...pushOptInTexts.events]);
    for (const words of [
      'passagens',
      'Pix for recebido',
      'saque for concluído ou devolvido',
      'nova chave Pix',
      'abaixo do seu alerta',
      'mensalidade',
      'VPO',
      'contestação',
    ]) {
      expect(events).toHaveTextContent(words);
    }
    expect(s.getByText(pushOptInTexts.perDevice)).toBeInTheDocument();
    expect(await s.findByRole('status')).toHaveTextContent(pushOptInTexts.disabled);
    expect(await enableButton()).toBeEnabled();
    // Nothing is asked of the driver before the button.
    expect(fake.requestPermission).not.toHaveBeenCalled();
  });

  it("'Ativar notificações' asks the permission, subscribes with the server's key and sends the subscription", async () => {
    const { browser: fake, mock, user } = openSettings();
    await user.click(await enableButton());
    const s = await section();
    await waitFor(() => expect(s.getByRole('status')).toHaveTextContent(pushOptInTexts.enabled));
    expect(fake.requestPermission).toHaveBeenCalledTimes(1);
    expect(fake.subscribe).toHaveBeenCalledTimes(1);
    const options = fake.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect(Buffer.from(options.applicationServerKey).toString('base64url')).toBe(serverKey);
    expect(mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao').map((c) => c.body)).toEqual([
      { endpoint: pushEndpoint, keys: subscriptionKeys },
    ]);
    expect(mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao')[0]!.headers.authorization).toBe('Bearer token-de-teste');
    expect(s.getByRole('button', { name: pushOptInTexts.disable })).toBeEnabled();
    // Whose they are, for the next sign-in in this browser.
    expect(window.localStorage.getItem('notificacoes_motorista')).toBe(String(demoUser.id));
    expect(window.localStorage.getItem('notificacoes_endereco')).toBe(pushEndpoint);
  });

  it('shows the press at once while the browser and the server work', async () => {
    const { browser: fake, user } = openSettings();
    let release = () => undefined as void;
    fake.state.subscribeGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const button = await enableButton();
    await user.click(button);
    await waitFor(() => expect(button).toHaveAttribute('data-loading', 'true'));
    expect(button).toBeDisabled();
    release();
    await waitFor(async () => expect((await section()).getByRole('status')).toHaveTextContent(pushOptInTexts.enabled));
  });

  it("'Desativar notificações' removes it on the server, then in the browser", async () => {
    const { browser: fake, mock, user } = openSettings({ permission: 'granted', subscribed: true });
    window.localStorage.setItem('notificacoes_motorista', String(demoUser.id));
    const s = await section();
    expect(await s.findByRole('status')).toHaveTextContent(pushOptInTexts.enabled);
    await user.click(s.getByRole('button', { name: pushOptInTexts.disable }));
    await waitFor(() => expect(s.getByRole('status')).toHaveTextContent(pushOptInTexts.disabled));
    expect(mock.callsTo('DELETE', '/api/motorista/notificacoes/inscricao').map((c) => c.body)).toEqual([{ endpoint: pushEndpoint }]);
    expect(fake.unsubscribe).toHaveBeenCalledTimes(1);
    expect(fake.state.subscription).toBeNull();
    expect(window.localStorage.getItem('notificacoes_motorista')).toBeNull();
  });

  it('a failed removal changes nothing: still enabled, the reason and Tentar novamente', async () => {
    let refuse = true;
    const {
      browser: fake,
      mock,
      user,
    } = openSettings(
      { permission: 'granted', subscribed: true },
      { [DELETE_PATH]: () => (refuse ? { status: 500, body: { Sucesso: false, Mensagem: messages.session.internalError } } : ok()) },
    );
    const s = await section();
    await user.click(await s.findByRole('button', { name: pushOptInTexts.disable }));
    const alert = await s.findByRole('alert');
    expect(alert).toHaveTextContent(pushOptInTexts.disableFailedTitle);
    expect(alert).toHaveTextContent(messages.session.internalError);
    expect(s.getByRole('status')).toHaveTextContent(pushOptInTexts.enabled);
    expect(fake.unsubscribe).not.toHaveBeenCalled();

    refuse = false;
    await user.click(s.getByRole('button', { name: pushOptInTexts.retry }));
    await waitFor(() => expect(s.getByRole('status')).toHaveTextContent(pushOptInTexts.disabled));
    expect(mock.callsTo('DELETE', '/api/motorista/notificacoes/inscricao')).toHaveLength(2);
    expect(s.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('an unsupported browser is told so plainly, with no button', async () => {
    openSettings({ unsupported: true });
    const s = await section();
    expect(await s.findByText(pushOptInTexts.unsupportedTitle)).toBeInTheDocument();
    expect(s.getByText(pushOptInTexts.unsupportedBody)).toBeInTheDocument();
    expect(s.queryByRole('button')).not.toBeInTheDocument();
    // What would be sent is still said (a driver may open the portal in another browser for it).
    expect(s.getByRole('list', { name: pushOptInTexts.intro })).toBeInTheDocument();
  });

  it('blocked in the browser: how to allow it, and a look again once allowed', async () => {
    const { browser: fake, user } = openSettings({ permission: 'denied' });
    const s = await section();
    expect(await s.findByText(pushOptInTexts.deniedTitle)).toBeInTheDocument();
    expect(s.getByText(pushOptInTexts.deniedBody)).toBeInTheDocument();
    expect(s.queryByRole('button', { name: pushOptInTexts.enable })).not.toBeInTheDocument();

    // The driver allows it in the browser's settings and comes back.
    fake.state.permission = 'granted';
    await user.click(s.getByRole('button', { name: pushOptInTexts.recheck }));
    expect(await enableButton()).toBeEnabled();
    expect(s.getByRole('status')).toHaveTextContent(pushOptInTexts.disabled);
  });

  it("'Bloquear' at the prompt shows how to allow it; closing the prompt says it was not allowed", async () => {
    const blocked = openSettings();
    blocked.browser.state.prompt = 'denied';
    await blocked.user.click(await enableButton());
    const s = await section();
    expect(await s.findByText(pushOptInTexts.deniedTitle)).toBeInTheDocument();
    expect(s.queryByText(pushOptInTexts.enableFailedTitle)).not.toBeInTheDocument();
    expect(blocked.mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao')).toHaveLength(0);
    blocked.unmount();
    browser?.remove();

    const dismissed = openSettings();
    dismissed.browser.state.prompt = 'default';
    await dismissed.user.click(await enableButton());
    const alert = await (await section()).findByRole('alert');
    expect(alert).toHaveTextContent(pushOptInTexts.enableFailedTitle);
    expect(alert).toHaveTextContent(pushOptInTexts.dismissed);
    // Tried again, allowed this time.
    dismissed.browser.state.prompt = 'granted';
    await dismissed.user.click((await section()).getByRole('button', { name: pushOptInTexts.retry }));
    await waitFor(async () => expect((await section()).getByRole('status')).toHaveTextContent(pushOptInTexts.enabled));
  });

  it('the push service failing: the reason and Tentar novamente; nothing sent to the server', async () => {
    const { browser: fake, mock, user } = openSettings();
    fake.state.subscribeFailure = new DOMException('Registration failed - push service error', 'AbortError');
    await user.click(await enableButton());
    const s = await section();
    const alert = await s.findByRole('alert');
    expect(alert).toHaveTextContent(pushOptInTexts.enableFailedTitle);
    expect(alert).toHaveTextContent(pushOptInTexts.pushServiceFailed);
    expect(s.getByRole('status')).toHaveTextContent(pushOptInTexts.disabled);
    expect(mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao')).toHaveLength(0);

    fake.state.subscribeFailure = null;
    await user.click(s.getByRole('button', { name: pushOptInTexts.retry }));
    await waitFor(() => expect(s.getByRole('status')).toHaveTextContent(pushOptInTexts.enabled));
    expect(mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao')).toHaveLength(1);
  });

  it('a subscription the server refuses is dropped from the browser: the device never looks enabled for nothing', async () => {
    const { browser: fake, user } = openSettings(
      {},
      { [SAVE_PATH]: { status: 422, body: { Sucesso: false, Mensagem: pushSubscriptionMessages.endpointInvalid } } },
    );
    await user.click(await enableButton());
    const s = await section();
    expect(await s.findByRole('alert')).toHaveTextContent(pushSubscriptionMessages.endpointInvalid);
    expect(fake.unsubscribe).toHaveBeenCalledTimes(1);
    expect(fake.state.subscription).toBeNull();
    expect(s.getByRole('status')).toHaveTextContent(pushOptInTexts.disabled);
  });

  it('with no signal the button is disabled, pointing at the reason', async () => {
    connection.startOffline();
    openSettings();
    const button = await enableButton();
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-describedby', OFFLINE_REASON_ID);
    expect(screen.getByText(OFFLINE_REASON)).toBeVisible();
  });

  it("'Sair' ends this browser's subscription", async () => {
    const { browser: fake, mock, user, router } = openSettings({ permission: 'granted', subscribed: true });
    window.localStorage.setItem('notificacoes_motorista', String(demoUser.id));
    expect(await (await section()).findByRole('status')).toHaveTextContent(pushOptInTexts.enabled);
    await user.click(screen.getByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(fake.unsubscribe).toHaveBeenCalledTimes(1);
    expect(fake.state.subscription).toBeNull();
    expect(mock.callsTo('POST', '/api/tokens/logout')).toHaveLength(1);
    expect(window.localStorage.getItem('notificacoes_motorista')).toBeNull();
  });
});

describe('signing in on a device', () => {
  const signInAnswers = (handlers: Handlers = {}) =>
    mockApi({
      'POST /api/tokens/login-motorista': ok({ Token: 'novo-token', Data: demoUser }),
      [`GET /api/termos/status-atual/${String(demoUser.id)}`]: ok({ data: null }),
      [KEY_PATH]: ok({ ChavePublica: serverKey }),
      [SAVE_PATH]: ok({ Mensagem: pushSubscriptionMessages.saved }),
      ...handlers,
    });

  it("ends a subscription another driver left in this browser: their notifications never reach this driver's screen", async () => {
    browser = fakePushBrowser({ permission: 'granted', subscribed: true });
    window.localStorage.setItem('notificacoes_motorista', String(demoUser.id + 1));
    const mock = signInAnswers();
    await signIn({ cpfCnpj: demoUser.cpfCnpj, password: 'segredo123' });
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
    expect(browser.state.subscription).toBeNull();
    expect(window.localStorage.getItem('notificacoes_motorista')).toBeNull();
    expect(mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao')).toHaveLength(0);
  });

  it('keeps the notifications this driver turned on (after a 401), saved again for the new session', async () => {
    browser = fakePushBrowser({ permission: 'granted', subscribed: true });
    window.localStorage.setItem('notificacoes_motorista', String(demoUser.id));
    const mock = signInAnswers();
    await signIn({ cpfCnpj: demoUser.cpfCnpj, password: 'segredo123' });
    await waitFor(() => expect(mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao')).toHaveLength(1));
    const [saved] = mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao');
    expect(saved!.body).toEqual({ endpoint: pushEndpoint, keys: subscriptionKeys });
    expect(saved!.headers.authorization).toBe('Bearer novo-token');
    await waitFor(() => expect(window.localStorage.getItem('notificacoes_endereco')).toBe(pushEndpoint));
    expect(browser.unsubscribe).not.toHaveBeenCalled();
  });

  it('a browser with nothing turned on asks nothing', async () => {
    browser = fakePushBrowser({ permission: 'granted' });
    const mock = signInAnswers();
    await signIn({ cpfCnpj: demoUser.cpfCnpj, password: 'segredo123' });
    expect(mock.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/tokens/login-motorista',
      `GET /api/termos/status-atual/${String(demoUser.id)}`,
    ]);
  });
});

describe('a subscription the browser renewed', () => {
  const OLD_ENDPOINT = 'https://push.example.com/fcm/send/aparelho-antigo';

  it('is saved with the session once, then asks nothing while the address is the one saved', async () => {
    browser = fakePushBrowser({ permission: 'granted', subscribed: true });
    signInStorage({ terms: 'aceito' });
    window.localStorage.setItem('notificacoes_motorista', String(demoUser.id));
    window.localStorage.setItem('notificacoes_endereco', OLD_ENDPOINT);
    const mock = mockApi({ [SAVE_PATH]: ok({ Mensagem: pushSubscriptionMessages.saved }) });
    await savePushIfRenewed(demoUser.id);
    const [saved, ...more] = mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao');
    expect(more).toHaveLength(0);
    expect(saved!.body).toEqual({ endpoint: pushEndpoint, keys: subscriptionKeys });
    expect(window.localStorage.getItem('notificacoes_endereco')).toBe(pushEndpoint);
    await savePushIfRenewed(demoUser.id);
    expect(mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao')).toHaveLength(1);
  });

  it('told by the service worker while a screen is open, the screen saves the new address', async () => {
    const { mock, browser: fake } = openSettings({ permission: 'granted', subscribed: true });
    window.localStorage.setItem('notificacoes_motorista', String(demoUser.id));
    window.localStorage.setItem('notificacoes_endereco', OLD_ENDPOINT);
    await section();
    await waitFor(() => expect(fake.pageListens()).toBe(true));
    fake.postFromWorker(PUSH_RENEWED_MESSAGE);
    await waitFor(() => expect(mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao')).toHaveLength(1));
    expect(mock.callsTo('PUT', '/api/motorista/notificacoes/inscricao')[0]!.body).toEqual({
      endpoint: pushEndpoint,
      keys: subscriptionKeys,
    });
  });

  it("another driver's notifications in this browser are not saved for this one", async () => {
    browser = fakePushBrowser({ permission: 'granted', subscribed: true });
    signInStorage({ terms: 'aceito' });
    window.localStorage.setItem('notificacoes_motorista', String(demoUser.id + 1));
    window.localStorage.setItem('notificacoes_endereco', OLD_ENDPOINT);
    const mock = mockApi({ [SAVE_PATH]: ok({ Mensagem: pushSubscriptionMessages.saved }) });
    await savePushIfRenewed(demoUser.id);
    expect(mock.calls).toHaveLength(0);
  });
});
