import { screen, waitFor, within } from '@testing-library/react';
import { messages, profileMessages } from '@portal/domain';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attentionQueryKey } from '../../../src/lib/attention';
import { queryClient } from '../../../src/lib/queryClient';
import { getUser } from '../../../src/lib/storage';
import { demoUser, mockApi, ok, renderRoute, signInStorage, type MockReply, type RecordedCall } from '../../support/utils';

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/features/settings/SettingsPage')]);
});

afterEach(() => {
  queryClient.clear();
});

const URL = '/api/motorista/dados';
const profile = { nome: 'maria da silva', cpfCnpj: demoUser.cpfCnpj, telefone: '11987654321', alteradoEm: null };

function openSettings(handlers: Record<string, MockReply | ((call: RecordedCall) => MockReply)> = {}) {
  signInStorage({ terms: 'aceito' });
  const mock = mockApi({
    'GET /api/motorista/preferencias': ok({ Preferencias: { nivelAlertaSaldo: 50 } }),
    'GET /api/motorista/limites-saque': ok({
      Limites: {
        porSaque: { valor: 5000, pendente: null },
        diario: { valor: 10000, pendente: null },
        noturno: { valor: 1000, pendente: null },
        usadoHoje: 0,
        usadoNestaNoite: 0,
      },
    }),
    'GET /api/motorista/chaves-pix': ok({ Chaves: [] }),
    [`GET ${URL}`]: ok({ Dados: profile }),
    ...handlers,
  });
  return { mock, ...renderRoute('/configuracoes') };
}

/** The form, drawn with the page, once its fields hold the saved data (usable from then on). */
async function section() {
  const form = within(await screen.findByRole('form', { name: 'Seus dados' }));
  await waitFor(() => expect(form.getByRole('textbox', { name: 'Nome completo' })).toBeEnabled());
  return form;
}

describe("/configuracoes: 'Seus dados' (issue 35)", () => {
  it('shows the CPF/CNPJ as the account’s identity, not editable, and the name and phone to correct', async () => {
    openSettings();
    const form = await section();
    expect(await form.findByRole('textbox', { name: 'Nome completo' })).toHaveValue('maria da silva');
    expect(form.getByRole('textbox', { name: 'Telefone' })).toHaveValue('(11) 98765-4321');
    expect(form.getByText('529.982.247-25')).toBeInTheDocument();
    expect(form.getByText('O CPF/CNPJ identifica sua conta e não pode ser alterado.')).toBeInTheDocument();
    expect(form.queryByRole('textbox', { name: /CPF/ })).toBeNull();
    expect(form.getByLabelText('Senha')).toHaveValue('');
  });

  it('is drawn with the page, its fields unusable until they hold the saved name and phone (nothing below moves when they arrive)', async () => {
    openSettings();
    const form = within(await screen.findByRole('form', { name: 'Seus dados' }));
    const name = form.getByRole('textbox', { name: 'Nome completo' }) as HTMLInputElement;
    const phone = form.getByRole('textbox', { name: 'Telefone' }) as HTMLInputElement;
    expect(name).toBeDisabled();
    expect(phone).toBeDisabled();
    expect(form.getByLabelText('Senha')).toBeDisabled();
    expect(form.getByRole('button', { name: 'Salvar dados' })).toBeDisabled();
    // The fields' values at the very change that enables the name, before any effect of React's next task.
    const atEnabling = await new Promise<[string, string]>((resolve) => {
      const observer = new MutationObserver(() => {
        if (name.disabled) return;
        observer.disconnect();
        resolve([name.value, phone.value]);
      });
      observer.observe(name, { attributes: true, attributeFilter: ['disabled'] });
    });
    expect(atEnabling).toEqual(['maria da silva', '(11) 98765-4321']);
    expect(form.getByText('529.982.247-25')).toBeVisible();
  });

  it('corrects the name and phone with the password: sent as digits, said, the password cleared, the header greets by the new name', async () => {
    const { mock, user } = openSettings({
      [`POST ${URL}`]: (call) => {
        const body = call.body as { nome: string; telefone: string };
        return ok({
          Mensagem: profileMessages.saved,
          Dados: { ...profile, nome: body.nome, telefone: body.telefone, alteradoEm: '2026-11-29T12:00:00.000Z' },
        });
      },
    });
    queryClient.setQueryData(attentionQueryKey, { Sucesso: true, Mensagem: 'OK', Avisos: [], UltimasMovimentacoes: [] });
    expect(await screen.findByText('Olá, Maria')).toBeInTheDocument();
    const form = await section();
    const name = await form.findByRole('textbox', { name: 'Nome completo' });
    await user.clear(name);
    await user.type(name, '  Joana   Pereira ');
    const phone = form.getByRole('textbox', { name: 'Telefone' });
    await user.clear(phone);
    await user.type(phone, '21998765432');
    await user.type(form.getByLabelText('Senha'), 'segredo123');
    await user.click(form.getByRole('button', { name: 'Salvar dados' }));

    expect(await screen.findByText(profileMessages.saved)).toBeInTheDocument();
    expect(mock.callsTo('POST', URL).map((c) => c.body)).toEqual([{ nome: 'Joana Pereira', telefone: '21998765432', senha: 'segredo123' }]);
    expect(await screen.findByText('Olá, Joana')).toBeInTheDocument();
    expect(getUser()).toEqual({ ...demoUser, name: 'Joana Pereira' });
    expect(queryClient.getQueryState(attentionQueryKey)?.isInvalidated).toBe(true);
    // The saved version refills the form, drawn in a transition: read it again at each try.
    await waitFor(() => {
      const after = within(screen.getByRole('form', { name: 'Seus dados' }));
      expect(after.getByLabelText('Senha')).toHaveValue('');
      expect(after.getByRole('textbox', { name: 'Telefone' })).toHaveValue('(21) 99876-5432');
      expect(after.getByText(/Última alteração:/)).toBeInTheDocument();
    });
  });

  it("refuses a short name, a phone of 10 digits and no password with the registration's messages, sending nothing", async () => {
    const { mock, user } = openSettings();
    const form = await section();
    const name = await form.findByRole('textbox', { name: 'Nome completo' });
    await user.clear(name);
    await user.type(name, 'Ana');
    const phone = form.getByRole('textbox', { name: 'Telefone' });
    await user.clear(phone);
    await user.type(phone, '1187654321');
    await user.click(form.getByRole('button', { name: 'Salvar dados' }));
    expect(await form.findByText(messages.registration.nameTooShort)).toBeInTheDocument();
    expect(form.getByText(messages.registration.phoneInvalid)).toBeInTheDocument();
    expect(form.getByText(profileMessages.passwordRequired)).toBeInTheDocument();
    expect(mock.callsTo('POST', URL)).toHaveLength(0);
  });

  it("puts the server's 'Senha incorreta' under the password", async () => {
    const { user } = openSettings({
      [`POST ${URL}`]: { status: 422, body: { Sucesso: false, Mensagem: 'Dados inválidos', errors: { senha: ['Senha incorreta'] } } },
    });
    const form = await section();
    await form.findByRole('textbox', { name: 'Nome completo' });
    await user.type(form.getByLabelText('Senha'), 'errada123');
    await user.click(form.getByRole('button', { name: 'Salvar dados' }));
    expect(await form.findByText('Senha incorreta')).toBeInTheDocument();
    await waitFor(() => expect(form.getByLabelText('Senha')).toHaveFocus());
    expect(getUser()).toEqual(demoUser);
  });
});
