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

const CORRECT = 'Corrigir nome ou telefone';

/** The section, once its data is there ('Corrigir nome ou telefone' usable). */
async function dataSection() {
  const region = within(await screen.findByRole('region', { name: 'Seus dados' }));
  await waitFor(() => expect(region.getByRole('button', { name: CORRECT })).toBeEnabled());
  return region;
}

/** 'Corrigir nome ou telefone' pressed: the form, filled with the saved name and phone. */
async function openForm(user: ReturnType<typeof openSettings>['user']) {
  const region = await dataSection();
  await user.click(region.getByRole('button', { name: CORRECT }));
  return within(await screen.findByRole('form', { name: 'Seus dados' }));
}

describe("/configuracoes: 'Seus dados' (issue 35)", () => {
  it('shows the CPF/CNPJ as the account’s identity, the name and the phone; the form opens on request, filled, the name focused', async () => {
    const { user } = openSettings();
    const region = await dataSection();
    expect(region.getByText('529.982.247-25')).toBeVisible();
    expect(region.getByText('O CPF/CNPJ identifica sua conta e não pode ser alterado.')).toBeInTheDocument();
    expect(region.getByText('maria da silva')).toBeVisible();
    expect(region.getByText('(11) 98765-4321')).toBeVisible();
    expect(region.queryByRole('textbox')).toBeNull();

    const form = await openForm(user);
    const name = form.getByRole('textbox', { name: 'Nome completo' });
    expect(name).toHaveValue('maria da silva');
    await waitFor(() => expect(name).toHaveFocus());
    expect(form.getByRole('textbox', { name: 'Telefone' })).toHaveValue('(11) 98765-4321');
    expect(form.getByText('529.982.247-25')).toBeInTheDocument();
    expect(form.queryByRole('textbox', { name: /CPF/ })).toBeNull();
    expect(form.getByLabelText('Senha')).toHaveValue('');
  });

  it('is drawn with the page: the data’s lines wait as skeletons and the button is unusable until the data arrives', async () => {
    openSettings();
    const region = within(await screen.findByRole('region', { name: 'Seus dados' }));
    const correct = region.getByRole('button', { name: CORRECT });
    expect(correct).toBeDisabled();
    expect(region.queryByText('maria da silva')).toBeNull();
    // The data at the very change that enables the button, before any effect of React's next task.
    const atEnabling = await new Promise<string>((resolve) => {
      const observer = new MutationObserver(() => {
        if ((correct as HTMLButtonElement).disabled) return;
        observer.disconnect();
        resolve(region.getByTestId('cpf-cnpj').textContent ?? '');
      });
      observer.observe(correct, { attributes: true, attributeFilter: ['disabled'] });
    });
    expect(atEnabling).toBe('529.982.247-25');
    expect(region.getByText('maria da silva')).toBeVisible();
  });

  it("'Cancelar' closes the form and sends nothing", async () => {
    const { mock, user } = openSettings();
    const form = await openForm(user);
    await user.type(form.getByRole('textbox', { name: 'Nome completo' }), ' Junior');
    await user.click(form.getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('form', { name: 'Seus dados' })).toBeNull();
    expect(screen.getByText('maria da silva')).toBeVisible();
    await waitFor(() => expect(screen.getByRole('button', { name: CORRECT })).toHaveFocus());
    expect(mock.callsTo('POST', URL)).toHaveLength(0);
  });

  it('corrects the name and phone with the password: sent as digits, said, the form closed on the new data, the header greets by the new name', async () => {
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
    const form = await openForm(user);
    const name = form.getByRole('textbox', { name: 'Nome completo' });
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
    // The saved version, drawn in a transition: read it again at each try.
    await waitFor(() => {
      const region = within(screen.getByRole('region', { name: 'Seus dados' }));
      expect(region.queryByRole('form')).toBeNull();
      expect(region.getByText('Joana Pereira')).toBeVisible();
      expect(region.getByText('(21) 99876-5432')).toBeVisible();
      expect(region.getByText(/Última alteração:/)).toBeInTheDocument();
    });
  });

  it("refuses a short name, a phone of 10 digits and no password with the registration's messages, sending nothing", async () => {
    const { mock, user } = openSettings();
    const form = await openForm(user);
    const name = form.getByRole('textbox', { name: 'Nome completo' });
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

  it("puts the server's 'Senha incorreta' under the password, the form left open", async () => {
    const { user } = openSettings({
      [`POST ${URL}`]: { status: 422, body: { Sucesso: false, Mensagem: 'Dados inválidos', errors: { senha: ['Senha incorreta'] } } },
    });
    const form = await openForm(user);
    await user.type(form.getByLabelText('Senha'), 'errada123');
    await user.click(form.getByRole('button', { name: 'Salvar dados' }));
    expect(await form.findByText('Senha incorreta')).toBeInTheDocument();
    await waitFor(() => expect(form.getByLabelText('Senha')).toHaveFocus());
    expect(getUser()).toEqual(demoUser);
  });
});
