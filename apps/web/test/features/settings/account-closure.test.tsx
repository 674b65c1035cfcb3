import { screen, waitFor, within } from '@testing-library/react';
import { accountClosureMessages, CLOSURE_CONFIRMATION_TEXT } from '@portal/domain';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryClient } from '../../../src/lib/queryClient';
import { getToken } from '../../../src/lib/storage';
import { mockApi, ok, renderRoute, signInStorage, type MockReply, type RecordedCall } from '../../support/utils';

beforeAll(async () => {
  await Promise.all([
    import('../../../src/app/AuthenticatedShell'),
    import('../../../src/features/settings/SettingsPage'),
    import('../../../src/features/auth/LoginPage'),
  ]);
});

afterEach(() => {
  queryClient.clear();
  window.sessionStorage.clear();
});

const URL = '/api/motorista/encerramento';
const RECEIPT = '/api/encerramento/comprovante/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const canClose = ok({ Mensagem: accountClosureMessages.ready, Encerramento: { podeEncerrar: true, pendencias: [] } });
const blocked = ok({
  Mensagem: accountClosureMessages.loaded,
  Encerramento: {
    podeEncerrar: false,
    pendencias: [
      { motivo: 'saldo', mensagem: 'Saque o saldo de R$\u00a012,40 antes de encerrar.' },
      { motivo: 'contestacao', mensagem: 'Aguarde a operadora responder a contestação em aberto antes de encerrar a conta.' },
    ],
  },
});

function openSettings(handlers: Record<string, MockReply | ((call: RecordedCall) => MockReply)>) {
  signInStorage({ terms: 'aceito' });
  const mock = mockApi({
    'GET /api/motorista/preferencias': ok({ Preferencias: { nivelAlertaSaldo: 50 } }),
    'GET /api/motorista/chaves-pix': ok({ Chaves: [] }),
    ...handlers,
  });
  return { mock, ...renderRoute('/configuracoes') };
}

const section = async () => within(await screen.findByRole('region', { name: 'Encerrar conta' }));

describe("/configuracoes: 'Encerrar conta' (issue 35, decision 70)", () => {
  it('shows what keeps the account open, each with where to solve it, and no form', async () => {
    openSettings({ [`GET ${URL}`]: blocked });
    const s = await section();
    expect(await s.findByRole('link', { name: 'Sacar' })).toHaveAttribute('href', '/saldo/retirar');
    // The matcher compares with the text's spaces normalised: the no-break space after R$ reads as one.
    expect(s.getByText('Saque o saldo de R$ 12,40 antes de encerrar.')).toBeInTheDocument();
    expect(s.getByRole('link', { name: 'Ver contestações' })).toHaveAttribute('href', '/contestacoes');
    expect(s.queryByRole('button', { name: 'Encerrar conta' })).toBeNull();
    expect(s.queryByLabelText('Senha')).toBeNull();
  });

  it('asks for the ticked confirmation and the password before sending anything', async () => {
    const { mock, user } = openSettings({ [`GET ${URL}`]: canClose });
    const s = await section();
    await user.click(await s.findByRole('button', { name: 'Encerrar conta' }));
    expect(await s.findByText(accountClosureMessages.confirmationRequired)).toBeInTheDocument();
    expect(s.getByText(accountClosureMessages.passwordRequired)).toBeInTheDocument();
    expect(mock.callsTo('POST', URL)).toHaveLength(0);
  });

  it('closes with the password and the box ticked: signed out to /login, which says so and offers the receipt', async () => {
    const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString();
    const { mock, user, router } = openSettings({
      [`GET ${URL}`]: canClose,
      [`POST ${URL}`]: ok({ Mensagem: accountClosureMessages.closed, Comprovante: { url: RECEIPT, expiraEm: expiresAt } }),
    });
    const s = await section();
    await user.type(await s.findByLabelText('Senha'), 'segredo123');
    await user.click(s.getByRole('checkbox', { name: CLOSURE_CONFIRMATION_TEXT }));
    await user.click(s.getByRole('button', { name: 'Encerrar conta' }));

    expect(await screen.findByText('Sua conta foi encerrada')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(mock.callsTo('POST', URL).map((c) => c.body)).toEqual([{ senha: 'segredo123', confirmacao: true }]);
    expect(getToken()).toBeNull();
    expect(screen.getByRole('link', { name: /Baixar o comprovante de encerramento/ })).toHaveAttribute('href', RECEIPT);
  });

  it('refused because something landed meanwhile: the list is read again and shown', async () => {
    let reads = 0;
    const { user } = openSettings({
      [`GET ${URL}`]: () => (++reads === 1 ? canClose : blocked),
      [`POST ${URL}`]: {
        status: 409,
        body: { Sucesso: false, Mensagem: accountClosureMessages.blocked('Saque o saldo de R$\u00a012,40 antes de encerrar.') },
      },
    });
    const s = await section();
    await user.type(await s.findByLabelText('Senha'), 'segredo123');
    await user.click(s.getByRole('checkbox', { name: CLOSURE_CONFIRMATION_TEXT }));
    await user.click(s.getByRole('button', { name: 'Encerrar conta' }));
    expect(await s.findByRole('link', { name: 'Sacar' })).toBeInTheDocument();
    expect(getToken()).not.toBeNull();
  });

  it("puts the server's wrong password under the password and stays signed in", async () => {
    const { user } = openSettings({
      [`GET ${URL}`]: canClose,
      [`POST ${URL}`]: { status: 422, body: { Sucesso: false, Mensagem: 'Dados inválidos', errors: { senha: ['Senha incorreta'] } } },
    });
    const s = await section();
    await user.type(await s.findByLabelText('Senha'), 'errada123');
    await user.click(s.getByRole('checkbox', { name: CLOSURE_CONFIRMATION_TEXT }));
    await user.click(s.getByRole('button', { name: 'Encerrar conta' }));
    expect(await s.findByText('Senha incorreta')).toBeInTheDocument();
    await waitFor(() => expect(getToken()).not.toBeNull());
  });
});
