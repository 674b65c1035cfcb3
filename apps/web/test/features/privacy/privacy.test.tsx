import { screen, waitFor, within } from '@testing-library/react';
import { privacyLinks, privacyMessages, privacyNotice } from '@portal/domain';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryClient } from '../../../src/lib/queryClient';
import { connection, mockApi, ok, renderRoute, signInStorage } from '../../support/utils';

beforeAll(async () => {
  await Promise.all([
    import('../../../src/features/privacy/PrivacyPage'),
    import('../../../src/features/auth/LoginPage'),
    import('../../../src/features/auth/RegisterPage'),
    import('../../../src/app/AuthenticatedShell'),
    import('../../../src/features/settings/SettingsPage'),
  ]);
});

afterEach(() => {
  queryClient.clear();
  window.localStorage.clear();
  if (!connection.online) connection.set(true);
});

const URL = '/api/privacidade';
const officer = { nome: 'Beatriz Nogueira Lima', email: 'dpo@transportadora.com.br' };
const answered = () => ok({ Mensagem: privacyMessages.loaded, Encarregado: officer });

describe("/privacidade: the 'Aviso de Privacidade' (decision 72)", () => {
  it('shows every section of the notice, its contents, and the encarregado the server names', async () => {
    const api = mockApi({ [`GET ${URL}`]: answered() });
    renderRoute('/privacidade');

    expect(await screen.findByRole('heading', { level: 1, name: privacyNotice.title })).toBeInTheDocument();
    expect(document.title).toBe('Aviso de Privacidade | Portal do Motorista');
    const contents = screen.getByRole('navigation', { name: privacyNotice.contentsLabel });
    for (const section of [...privacyNotice.sections, privacyNotice.officer]) {
      const heading = screen.getByRole('heading', { level: 2, name: section.heading });
      expect(within(contents).getByRole('link', { name: section.heading })).toHaveAttribute('href', `#${heading.id}`);
    }
    for (const section of privacyNotice.sections) {
      const region = screen.getByRole('region', { name: section.heading });
      for (const item of section.items) {
        expect(within(region).getByText(item.title)).toBeInTheDocument();
        expect(within(region).getByText(item.text)).toBeInTheDocument();
      }
    }
    // Who sees what, named: the Pix provider, the operators, the shippers.
    const shared = screen.getByRole('region', { name: 'Quem mais vê seus dados' });
    expect(within(shared).getByText('Asaas, que faz os Pix')).toBeInTheDocument();
    // The law's periods, in the driver's words.
    const periods = screen.getByRole('region', { name: 'Por quanto tempo' });
    expect(within(periods).getByText(/^6 meses/)).toBeInTheDocument();
    expect(within(periods).getByText(/^5 anos depois que a conta é encerrada/)).toBeInTheDocument();
    // Each right where it is used in the portal.
    const rights = screen.getByRole('region', { name: 'Seus direitos e como usar' });
    expect(within(rights).getByRole('link', { name: 'Corrigir seus dados' })).toHaveAttribute('href', '/configuracoes#seus-dados');
    expect(within(rights).getByRole('link', { name: 'Ir para Meus dados' })).toHaveAttribute('href', '/configuracoes#meus-dados');
    expect(within(rights).getByRole('link', { name: 'Ir para Encerrar conta' })).toHaveAttribute('href', '/configuracoes#encerrar-conta');

    const talk = screen.getByRole('region', { name: privacyNotice.officer.heading });
    const card = await within(talk).findByTestId('encarregado');
    expect(within(card).getByText(officer.nome)).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: officer.email })).toHaveAttribute('href', `mailto:${officer.email}`);
    expect(within(talk).getByRole('link', { name: privacyNotice.officer.support })).toHaveAttribute('href', '/api/suporte/whatsapp');
    // Public: asked without a session.
    expect(api.callsTo('GET', URL)).toHaveLength(1);
    expect(api.callsTo('GET', URL)[0]?.headers.authorization).toBeUndefined();
  });

  it('a visitor goes back to the login', async () => {
    mockApi({ [`GET ${URL}`]: answered() });
    renderRoute('/privacidade');
    expect(await screen.findByRole('link', { name: privacyNotice.back.signedOut })).toHaveAttribute('href', '/login');
  });

  it('signed in, back goes to Configurações', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ [`GET ${URL}`]: answered() });
    renderRoute('/privacidade');
    expect(await screen.findByRole('link', { name: privacyNotice.back.signedIn })).toHaveAttribute('href', '/configuracoes');
  });

  it('offline, the notice is all there and says the contact comes back with the connection', async () => {
    connection.set(false);
    const api = mockApi({ [`GET ${URL}`]: answered() });
    renderRoute('/privacidade');
    expect(await screen.findByText(privacyNotice.officer.offline)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Seus direitos e como usar' })).toBeInTheDocument();
    connection.set(true);
    expect(await screen.findByText(officer.nome)).toBeInTheDocument();
    expect(api.callsTo('GET', URL).length).toBeGreaterThan(0);
    expect(screen.queryByText(privacyNotice.officer.offline)).toBeNull();
  });

  it('a failed read is said, and tried again on request', async () => {
    let fail = true;
    mockApi({
      [`GET ${URL}`]: () => (fail ? { status: 503, body: { Sucesso: false, Mensagem: 'Serviço indisponível' } } : answered()),
    });
    const { user } = renderRoute('/privacidade');
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(within(alert).getByText(privacyNotice.officer.failed)).toBeInTheDocument();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText(officer.nome)).toBeInTheDocument();
  });
});

describe('the notice is reachable from the login, the registration and Configurações', () => {
  it('the login links to it', async () => {
    mockApi({});
    const { user, router } = renderRoute('/login');
    const link = await screen.findByRole('link', { name: privacyLinks.login });
    expect(link).toHaveAttribute('href', '/privacidade');
    mockApi({ [`GET ${URL}`]: answered() });
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/privacidade'));
    expect(await screen.findByText(officer.nome)).toBeInTheDocument();
  });

  it('the registration links to it beside the button that creates the account, in another tab (what was typed stays)', async () => {
    mockApi({});
    renderRoute('/registrar');
    const link = await screen.findByRole('link', { name: `${privacyLinks.label} (abre em outra aba)` });
    expect(link).toHaveAttribute('href', '/privacidade');
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.getByText(privacyLinks.registration)).toBeInTheDocument();
    const submit = screen.getByRole('button', { name: 'Criar conta' });
    expect(link.compareDocumentPosition(submit) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('Configurações links to it', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({});
    renderRoute('/configuracoes');
    const section = await screen.findByRole('region', { name: privacyLinks.settingsHeading });
    expect(within(section).getByRole('link', { name: privacyLinks.label })).toHaveAttribute('href', '/privacidade');
  });
});
