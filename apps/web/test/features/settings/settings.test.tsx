import { screen, waitFor, within } from '@testing-library/react';
import { IDEMPOTENCY_KEY_HEADER } from '@portal/contract';
import { formatBrl, messages, payoutMessages, serverMessages } from '@portal/domain';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attentionQueryKey } from '../../../src/lib/attention';
import { OFFLINE_REASON } from '../../../src/lib/offline';
import { queryClient } from '../../../src/lib/queryClient';
import { mockApi, ok, renderRoute, signInStorage, type MockReply, type RecordedCall, connection } from '../../support/utils';

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/features/settings/SettingsPage')]);
});

afterEach(() => {
  if (!connection.online) connection.set(true);
  queryClient.clear();
});

const LABEL = 'Nível de alerta do saldo';
const saved = (nivelAlertaSaldo: number, Mensagem: string = serverMessages.settings.ok) =>
  ok({ Mensagem, Preferencias: { nivelAlertaSaldo } });

/** GET /api/motorista/limites-saque: a raise of the daily limit waiting until 26/11/2026 23:00 (São Paulo). */
const limit = (valor: number, pendente: { valor: number; vigenteEm: string } | null = null) => ({ valor, pendente });
const limits = {
  porSaque: limit(5000),
  diario: limit(10000, { valor: 20000, vigenteEm: '2026-11-27T02:00:00.000Z' }),
  noturno: limit(1000),
  usadoHoje: 300,
  usadoNestaNoite: 250,
};
const ownKey = { id: null, tipo: 'CPF', chave: '52998224725', propria: true, salvaEm: null, limitadaAte: null, restanteLimitada: null };
/** A phone key saved on 25/11/2026 at 23:00 in São Paulo, in its first 24 hours: R$ 500,00 still to receive. */
const phoneKey = {
  id: 5,
  tipo: 'PHONE',
  chave: '11987654321',
  propria: false,
  salvaEm: '2026-11-26T02:00:00.000Z',
  limitadaAte: '2026-11-27T02:00:00.000Z',
  restanteLimitada: 500,
};
const payoutHandlers = {
  'GET /api/motorista/limites-saque': ok({ Limites: limits }),
  // The server's order is not trusted: the driver's own CPF is listed first.
  'GET /api/motorista/chaves-pix': ok({ Chaves: [phoneKey, ownKey] }),
};

/** 'Seus dados' (its own tests: profile.test.tsx). */
const profileHandler = {
  'GET /api/motorista/dados': ok({ Dados: { nome: 'Motorista Teste', cpfCnpj: '52998224725', telefone: '11987654321', alteradoEm: null } }),
};

function openSettings(handlers: Record<string, MockReply | ((call: RecordedCall) => MockReply)> = {}) {
  signInStorage({ terms: 'aceito' });
  const mock = mockApi({
    'GET /api/motorista/preferencias': saved(50),
    ...payoutHandlers,
    ...profileHandler,
    // Decision 76: 'Pedágio sem cancela' (its own tests: free-flow/optIn.test.tsx).
    'GET /api/livre-passagem/placas': ok({ Placas: [] }),
    // Decision 70: 'Encerrar conta' reads what blocks it.
    'GET /api/motorista/encerramento': ok({ Encerramento: { podeEncerrar: false, pendencias: [] } }),
    ...handlers,
  });
  return { mock, ...renderRoute('/configuracoes') };
}

/** The alert level's field, once the saved level is in it (it is drawn with the page, disabled until then). */
async function field() {
  const input = await screen.findByRole('textbox', { name: LABEL });
  await waitFor(() => expect(input).toBeEnabled());
  return input;
}

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
    expect(await field()).toHaveAccessibleDescription(
      expect.stringContaining('O painel avisa quando o saldo de pedágio ficar abaixo deste valor'),
    );
    expect(screen.getByRole('button', { name: 'Salvar' })).toBeEnabled();
  });

  it('shows a saved R$ 0,00 as 0,00', async () => {
    openSettings({ 'GET /api/motorista/preferencias': saved(0) });
    expect(await field()).toHaveValue('0,00');
  });

  it('the alert level can be typed in only once it holds the saved level (nothing typed is mixed with it)', async () => {
    openSettings();
    const input = await screen.findByRole('textbox', { name: LABEL });
    expect(input).toBeDisabled();
    // The field's value at the very change that enables it, before any effect of React's next task.
    const atEnabling = await new Promise<string>((resolve) => {
      const observer = new MutationObserver(() => {
        if ((input as HTMLInputElement).disabled) return;
        observer.disconnect();
        resolve((input as HTMLInputElement).value);
      });
      observer.observe(input, { attributes: true, attributeFilter: ['disabled'] });
    });
    expect(atEnabling).toBe('50,00');
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
      'POST /api/motorista/preferencias': (call) =>
        saved((call.body as { nivelAlertaSaldo: number }).nivelAlertaSaldo, messages.settings.saved),
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
      'GET /api/motorista/preferencias': () =>
        fail ? { status: 404, body: { Sucesso: false, Mensagem: 'Motorista não encontrado' } } : saved(75),
    });
    expect(await screen.findByText('Motorista não encontrado')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await field()).toHaveValue('75,00');
  });
});

/** Text with the no-break space of formatBrl folded into a space, as the text matchers read it. */
const plain = (text: string) => text.replaceAll('\u00a0', ' ');

describe('/configuracoes: Limites de saque Pix (decision 44)', () => {
  const limitsForm = () => screen.findByRole('form', { name: 'Limites de saque Pix' });

  it('shows each limit, a raise still waiting and when it is in force, what was used, and why raises wait', async () => {
    openSettings();
    const form = await limitsForm();
    const perWithdrawal = within(form).getByRole('textbox', { name: 'Limite por saque' });
    const daily = within(form).getByRole('textbox', { name: 'Limite diário' });
    const night = within(form).getByRole('textbox', { name: 'Limite noturno (20h às 6h)' });
    expect(perWithdrawal).toHaveValue('5.000,00');
    // The field holds what the driver asked for; under it, the value in force until then.
    expect(daily).toHaveValue('20.000,00');
    expect(daily).toHaveAccessibleDescription(
      `Em vigor: ${formatBrl(1_000_000)}. Aumento para ${formatBrl(2_000_000)} vale a partir de 26/11/2026 23:00. Usado hoje: ${formatBrl(30_000)}.`,
    );
    expect(night).toHaveValue('1.000,00');
    expect(night).toHaveAccessibleDescription(`Usado nesta noite: ${formatBrl(25_000)}.`);
    expect(screen.getByText(/Diminuir um limite vale na hora; aumentar só vale 24 horas depois/)).toBeInTheDocument();
  });

  it("saves the three in reais with an Idempotency-Key, toasts the server's Mensagem, shows the new limits and asks the notices again", async () => {
    const answer =
      'Limites de saque salvos: reduções valem na hora. Limite noturno (20h às 6h): o aumento para R$ 2.000,00 vale a partir de 26/11/2026 15:00:00.';
    const { mock, user } = openSettings({
      'POST /api/motorista/limites-saque': ok({
        Mensagem: answer,
        Limites: { ...limits, porSaque: limit(800), noturno: limit(1000, { valor: 2000, vigenteEm: '2026-11-26T18:00:00.000Z' }) },
      }),
    });
    queryClient.setQueryData(attentionQueryKey, { Sucesso: true, Mensagem: 'OK', Avisos: [], UltimasMovimentacoes: [] });
    const form = await limitsForm();
    const perWithdrawal = within(form).getByRole('textbox', { name: 'Limite por saque' });
    await user.clear(perWithdrawal);
    await user.type(perWithdrawal, '80000');
    const night = within(form).getByRole('textbox', { name: 'Limite noturno (20h às 6h)' });
    await user.clear(night);
    await user.type(night, '200000');
    await user.click(within(form).getByRole('button', { name: 'Salvar limites' }));

    expect(await screen.findByText(answer)).toBeInTheDocument();
    const [post] = mock.callsTo('POST', '/api/motorista/limites-saque');
    // The daily raise still waiting is asked again as it was, not dropped.
    expect(post?.body).toEqual({ porSaque: 800, diario: 20000, noturno: 2000 });
    expect(post?.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]).toBeTruthy();
    expect(queryClient.getQueryState(attentionQueryKey)?.isInvalidated).toBe(true);
    expect(perWithdrawal).toHaveValue('800,00');
    // The answer's limits are drawn in a transition (the section's data is deferred), just after the toast.
    await waitFor(() =>
      expect(night).toHaveAccessibleDescription(
        `Em vigor: ${formatBrl(100_000)}. Aumento para ${formatBrl(200_000)} vale a partir de 26/11/2026 15:00. Usado nesta noite: ${formatBrl(25_000)}.`,
      ),
    );
  });

  it("refuses a limit past its maximum (and an empty one) with the contract's message, sending nothing", async () => {
    const { mock, user } = openSettings();
    const form = await limitsForm();
    const perWithdrawal = within(form).getByRole('textbox', { name: 'Limite por saque' });
    await user.clear(perWithdrawal);
    await user.type(perWithdrawal, '6000000');
    const daily = within(form).getByRole('textbox', { name: 'Limite diário' });
    await user.clear(daily);
    await user.click(within(form).getByRole('button', { name: 'Salvar limites' }));
    expect(await within(form).findByText(plain(payoutMessages.limitInvalid('perWithdrawal')))).toBeInTheDocument();
    expect(within(form).getByText(plain(payoutMessages.limitInvalid('daily')))).toBeInTheDocument();
    expect(perWithdrawal).toHaveAttribute('aria-invalid', 'true');
    expect(mock.callsTo('POST', '/api/motorista/limites-saque')).toHaveLength(0);
  });
});

describe('/configuracoes: Minhas chaves Pix (decision 44)', () => {
  const keyList = () => screen.findByRole('list', { name: 'Minhas chaves Pix' });

  it('lists the own CPF first, not removable, then each saved key with its type, the key, when it was saved and its cap', async () => {
    openSettings();
    const items = within(await keyList()).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Seu CPF/CNPJ');
    expect(items[0]).toHaveTextContent('529.982.247-25');
    expect(within(items[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(items[1]).toHaveTextContent('Telefone');
    expect(items[1]).toHaveTextContent('(11) 98765-4321');
    expect(items[1]).toHaveTextContent('Salva em 25/11/2026 23:00');
    expect(items[1]).toHaveTextContent(plain(`Até 26/11 23:00 pode receber até ${formatBrl(50_000)}`));
    expect(within(items[1]!).getByRole('button', { name: 'Remover chave Telefone (11) 98765-4321' })).toBeEnabled();
  });

  it("'Remover' asks first: Voltar keeps the key, Remover deletes it, toasts and asks the notices again", async () => {
    let chaves: unknown[] = [ownKey, phoneKey];
    const { mock, user } = openSettings({
      'GET /api/motorista/chaves-pix': () => ok({ Chaves: chaves }),
      'DELETE /api/motorista/chaves-pix/5': () => {
        chaves = [ownKey];
        return ok({ Mensagem: payoutMessages.keyRemoved });
      },
    });
    queryClient.setQueryData(attentionQueryKey, { Sucesso: true, Mensagem: 'OK', Avisos: [], UltimasMovimentacoes: [] });
    const remove = within(await keyList()).getByRole('button', { name: 'Remover chave Telefone (11) 98765-4321' });

    await user.click(remove);
    let dialog = await screen.findByRole('dialog', { name: 'Remover chave Pix' });
    expect(dialog).toHaveTextContent('Remover a chave Telefone (11) 98765-4321? Um saque para ela vai pedir sua senha de novo.');
    await user.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(mock.callsTo('DELETE', '/api/motorista/chaves-pix/5')).toHaveLength(0);

    await user.click(remove);
    dialog = await screen.findByRole('dialog', { name: 'Remover chave Pix' });
    await user.click(within(dialog).getByRole('button', { name: 'Remover' }));
    expect(await screen.findByText(payoutMessages.keyRemoved)).toBeInTheDocument();
    expect(mock.callsTo('DELETE', '/api/motorista/chaves-pix/5')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Minhas chaves Pix' })).getAllByRole('listitem')).toHaveLength(1));
    expect(queryClient.getQueryState(attentionQueryKey)?.isInvalidated).toBe(true);
  });

  it('saves a new key with the password (required, said why), masked as on Sacar, and lists it', async () => {
    let chaves: unknown[] = [ownKey];
    const { mock, user } = openSettings({
      'GET /api/motorista/chaves-pix': () => ok({ Chaves: chaves }),
      'POST /api/motorista/chaves-pix': () => {
        const key = { ...phoneKey, id: 6, tipo: 'CPF', chave: '11144477735' };
        chaves = [ownKey, key];
        return { status: 201, body: { Sucesso: true, Mensagem: payoutMessages.keySaved, Chave: key } };
      },
    });
    queryClient.setQueryData(attentionQueryKey, { Sucesso: true, Mensagem: 'OK', Avisos: [], UltimasMovimentacoes: [] });
    const form = await screen.findByRole('form', { name: 'Salvar uma chave Pix' });
    expect(
      within(form).getByText(
        plain(`Para sua segurança, uma chave nova pede sua senha e, nas primeiras 24 horas, recebe no máximo ${formatBrl(50_000)}.`),
      ),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText('Chave Pix')).toBeDisabled();
    await user.selectOptions(within(form).getByLabelText('Tipo da Chave Pix'), 'CPF');
    // A type draws its own (masked) field.
    const key = within(form).getByLabelText('Chave Pix');
    await user.click(key);
    await user.paste('11144477735');
    expect(key).toHaveValue('111.444.777-35');
    await user.click(within(form).getByRole('button', { name: 'Salvar chave' }));
    expect(await within(form).findByText(payoutMessages.passwordRequired)).toBeInTheDocument();
    expect(mock.callsTo('POST', '/api/motorista/chaves-pix')).toHaveLength(0);

    await user.type(within(form).getByLabelText('Senha'), 'motorista123');
    await user.click(within(form).getByRole('button', { name: 'Salvar chave' }));
    expect(await screen.findByText(payoutMessages.keySaved)).toBeInTheDocument();
    expect(mock.callsTo('POST', '/api/motorista/chaves-pix')[0]?.body).toEqual({
      tipo: 'CPF',
      chave: '11144477735',
      senha: 'motorista123',
    });
    expect(await within(await keyList()).findByText('111.444.777-35')).toBeInTheDocument();
    expect(within(form).getByLabelText('Senha')).toHaveValue('');
    expect(queryClient.getQueryState(attentionQueryKey)?.isInvalidated).toBe(true);
  });

  it("puts the server's 'Senha incorreta' under the password field", async () => {
    const { user } = openSettings({
      'POST /api/motorista/chaves-pix': {
        status: 422,
        body: { Sucesso: false, Mensagem: payoutMessages.passwordWrong, errors: { senha: [payoutMessages.passwordWrong] } },
      },
    });
    const form = await screen.findByRole('form', { name: 'Salvar uma chave Pix' });
    await user.selectOptions(within(form).getByLabelText('Tipo da Chave Pix'), 'EMAIL');
    await user.type(within(form).getByLabelText('Chave Pix'), 'outra@example.com');
    const password = within(form).getByLabelText('Senha');
    await user.type(password, 'errada123');
    await user.click(within(form).getByRole('button', { name: 'Salvar chave' }));
    expect(await within(form).findByText(payoutMessages.passwordWrong)).toBeInTheDocument();
    await waitFor(() => expect(password).toHaveFocus());
  });
});
