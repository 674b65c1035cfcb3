import { act, screen, waitFor, within } from '@testing-library/react';
import { messages, serverMessages } from '@portal/domain';
import { describe, expect, it, vi } from 'vitest';
import { balanceQueryKey } from '../../../src/lib/balance';
import { queryClient } from '../../../src/lib/queryClient';
import { mockApi, ok, pendingCharge as charge, renderRoute, signInStorage, type MockReply } from '../../support/utils';
// Loaded up front: the lazy route resolves at once, even on a busy machine.
import '../../../src/features/credit/BuyBalancePage';

const chargeAnswer = (status = 'PENDING') =>
  ok({ Mensagem: messages.pix.chargeStatus[status as 'PENDING'], qrCode: { ...charge, status } });

const base = {
  'GET /api/motorista/saldo': ok({ Saldo: 0, SaldoTerceiro: 0 }),
  [`GET /api/transacoes/qrcode/${charge.id}`]: chargeAnswer(),
};

function storePix() {
  localStorage.setItem('comprar_saldo_valor', '150,00');
  localStorage.setItem('comprar_saldo_pix', JSON.stringify(charge));
  localStorage.setItem('comprar_saldo_form_visivel', 'false');
}

type User = ReturnType<typeof renderRoute>['user'];

/** Pastes the digits into 'Valor Saldo' (the cash-register mask formats a paste like typing) and buys. */
async function buy(user: User, digits: string) {
  await user.click(await screen.findByLabelText('Valor Saldo'));
  await user.paste(digits);
  await user.click(screen.getByRole('button', { name: 'Comprar' }));
}

function toastWith(text: string): HTMLElement {
  const toast = screen.getByText(text).closest<HTMLElement>('[role="alert"]');
  if (!toast) throw new Error(`no toast around '${text}'`);
  return toast;
}

describe('/saldo/comprar', () => {
  it.each([
    ['nothing typed', '', 'Por favor digite o valor que deseja comprar de saldo'],
    ['only zeros (the field stays empty)', '000', 'Por favor digite o valor que deseja comprar de saldo'],
    ['R$ 50,00, below the minimum', '5000', 'O valor mínimo para compra de saldo é de R$ 100,00'],
    ['R$ 99,99, below the minimum', '9999', 'O valor mínimo para compra de saldo é de R$ 100,00'],
    ['R$ 50.000,01, above the maximum', '5000001', 'O valor máximo para compra de saldo é de R$ 50.000,00'],
  ])('explains %s and sends nothing', async (_case, digits, message) => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi(base);
    const { user } = renderRoute('/saldo/comprar');
    await buy(user, digits);
    expect(await screen.findByText(message)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Valor Saldo')).toHaveFocus());
    expect(api.callsTo('POST', '/api/transacoes/gerar-qrcode')).toHaveLength(0);
  });

  it('types like a cash register on a phone keypad', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi(base);
    const { user } = renderRoute('/saldo/comprar');
    const input = await screen.findByLabelText('Valor Saldo');
    expect(input).toHaveAttribute('inputmode', 'tel');
    expect(input).toHaveAttribute('placeholder', '0,00');
    await user.type(input, '000');
    expect(input).toHaveValue('');
    await user.type(input, '123456');
    expect(input).toHaveValue('1.234,56');
  });

  it('generates the Pix, shows it, copies it for 3 s and keeps it in storage', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ ...base, 'POST /api/transacoes/gerar-qrcode': ok({ Mensagem: 'Pix gerado com sucesso!', qrCode: charge }) });
    const { user } = renderRoute('/saldo/comprar');
    await buy(user, '15000');
    expect(localStorage.getItem('comprar_saldo_valor')).toBe('150,00');

    expect(await screen.findByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/transacoes/gerar-qrcode')[0]?.body).toEqual({ valor: 150, cpfCnpj: '52998224725', project: 'VPO' });
    expect(screen.getByText('Copie o código abaixo para fazer o pagamento.')).toBeInTheDocument();
    expect(screen.getByText('R$ 150,00')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'QR Code do Pix para pagamento' }).tagName.toLowerCase()).toBe('svg');
    expect(screen.getByTestId('pix-payload')).toHaveTextContent(charge.payload);
    expect(screen.getByText('O Pix pode demorar até alguns minutos para ser validado e receber seu saldo.')).toBeInTheDocument();
    expect(localStorage.getItem('comprar_saldo_form_visivel')).toBe('false');
    expect(JSON.parse(localStorage.getItem('comprar_saldo_pix') ?? 'null')).toEqual(charge);

    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await user.click(screen.getByRole('button', { name: 'Copiar código PIX' }));
      expect(await screen.findByRole('button', { name: 'Código PIX copiado!' })).toBeInTheDocument();
      expect(await navigator.clipboard.readText()).toBe(charge.payload);
      act(() => {
        vi.advanceTimersByTime(2900);
      });
      expect(screen.getByRole('button', { name: 'Código PIX copiado!' })).toBeInTheDocument();
      act(() => {
        vi.advanceTimersByTime(200);
      });
      expect(screen.getByRole('button', { name: 'Copiar código PIX' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('decision 61: a development server sends the command that pays the Pix, and the screen shows it; without it, nothing', async () => {
    signInStorage({ terms: 'aceito' });
    const command = `npm run cli -- pix:pay ${charge.id}`;
    mockApi({
      ...base,
      'POST /api/transacoes/gerar-qrcode': ok({ Mensagem: 'Pix gerado com sucesso!', qrCode: { ...charge, pagarNoTerminal: command } }),
    });
    const { user, unmount } = renderRoute('/saldo/comprar');
    await buy(user, '15000');
    expect(await screen.findByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeInTheDocument();
    expect(screen.getByText(messages.pix.payInTerminal.title)).toBeInTheDocument();
    expect(screen.getByText(command)).toBeInTheDocument();
    unmount();
    localStorage.clear();

    signInStorage({ terms: 'aceito' });
    mockApi({ ...base, 'POST /api/transacoes/gerar-qrcode': ok({ Mensagem: 'Pix gerado com sucesso!', qrCode: charge }) });
    const production = renderRoute('/saldo/comprar');
    await buy(production.user, '15000');
    expect(await screen.findByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeInTheDocument();
    expect(screen.queryByText(messages.pix.payInTerminal.title)).not.toBeInTheDocument();
    expect(screen.queryByText(/pix:pay/)).not.toBeInTheDocument();
  });

  it('shows the stored Pix again after a reload, without generating another', async () => {
    signInStorage({ terms: 'aceito' });
    storePix();
    const api = mockApi(base);
    renderRoute('/saldo/comprar');
    expect(await screen.findByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeInTheDocument();
    expect(screen.getByTestId('pix-payload')).toHaveTextContent(charge.payload);
    await waitFor(() => expect(api.callsTo('GET', `/api/transacoes/qrcode/${charge.id}`).length).toBeGreaterThan(0));
    expect(api.callsTo('POST', '/api/transacoes/gerar-qrcode')).toHaveLength(0);
  });

  it("'Gerar novo Pix' returns to an empty form and clears the stored data", async () => {
    signInStorage({ terms: 'aceito' });
    storePix();
    mockApi(base);
    const { user } = renderRoute('/saldo/comprar');
    await user.click(await screen.findByRole('button', { name: 'Gerar novo Pix' }));
    expect(await screen.findByLabelText('Valor Saldo')).toHaveValue('');
    expect(localStorage.getItem('comprar_saldo_pix')).toBeNull();
    expect(localStorage.getItem('comprar_saldo_valor')).toBeNull();
    expect(localStorage.getItem('comprar_saldo_form_visivel')).toBeNull();
  });

  it('says so by itself when the payment is received, and reloads the balance', async () => {
    signInStorage({ terms: 'aceito' });
    storePix();
    mockApi({ ...base, [`GET /api/transacoes/qrcode/${charge.id}`]: chargeAnswer('RECEIVED') });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    renderRoute('/saldo/comprar');
    expect(await screen.findByText(messages.pix.chargeStatus.RECEIVED)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copiar código PIX' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver meu saldo no painel' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByText('R$ 150,00')).toBeInTheDocument();
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: balanceQueryKey }));
  });

  it("offers 'Gerar novo Pix' when the Pix expired", async () => {
    signInStorage({ terms: 'aceito' });
    storePix();
    mockApi({ ...base, [`GET /api/transacoes/qrcode/${charge.id}`]: chargeAnswer('OVERDUE') });
    renderRoute('/saldo/comprar');
    expect(await screen.findByText(messages.pix.chargeStatus.OVERDUE)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Gerar novo Pix' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'QR Code do Pix para pagamento' })).not.toBeInTheDocument();
  });

  it('puts a 422 message under the field and other failures in a toast', async () => {
    signInStorage({ terms: 'aceito' });
    let answer: MockReply = {
      status: 422,
      body: {
        Sucesso: false,
        Mensagem: 'O valor mínimo para compra de saldo é de R$ 100,00',
        errors: { valor: ['Valor recusado pelo servidor'] },
      },
    };
    mockApi({ ...base, 'POST /api/transacoes/gerar-qrcode': () => answer });
    const { user } = renderRoute('/saldo/comprar');
    await buy(user, '15000');
    expect(await screen.findByText('Valor recusado pelo servidor')).toBeInTheDocument();
    expect(screen.getByLabelText('Valor Saldo')).toHaveAccessibleDescription(expect.stringContaining('Valor recusado pelo servidor'));

    answer = { status: 502, body: { Sucesso: false, Mensagem: serverMessages.pix.providerUnavailable, errors: {} } };
    await user.click(screen.getByRole('button', { name: 'Comprar' }));
    await screen.findByText(serverMessages.pix.providerUnavailable);
    expect(within(toastWith(serverMessages.pix.providerUnavailable)).getByText('Ops, ocorreu um erro!')).toBeInTheDocument();
  });

  it.each<[string, MockReply, string]>([
    [
      'without a Pix',
      { status: 200, body: { Sucesso: false, Mensagem: 'Cobrança recusada pelo provedor', error: 'provider_refused' } },
      'Cobrança recusada pelo provedor',
    ],
    [
      'with an empty Pix',
      { status: 200, body: { Sucesso: false, Mensagem: 'Pix indisponível no momento', qrCode: { ...charge, payload: '' } } },
      'Pix indisponível no momento',
    ],
  ])(
    "spec §8: an unsuccessful 200 answer (%s) shows its Mensagem in a danger toast 'Ops, ocorreu um erro!'",
    async (_case, reply, mensagem) => {
      signInStorage({ terms: 'aceito' });
      mockApi({ ...base, 'POST /api/transacoes/gerar-qrcode': reply });
      const { user } = renderRoute('/saldo/comprar');
      await buy(user, '15000');
      await screen.findByText(mensagem);
      expect(within(toastWith(mensagem)).getByText('Ops, ocorreu um erro!')).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Pix gerado com sucesso!' })).not.toBeInTheDocument();
      expect(localStorage.getItem('comprar_saldo_pix')).toBeNull();
    },
  );
});
