import { screen, waitFor, within } from '@testing-library/react';
import { messages } from '@portal/domain';
import { describe, expect, it, vi } from 'vitest';
import { balanceQueryKey } from '../src/lib/balance';
import { queryClient } from '../src/lib/queryClient';
import { mockApi, ok, renderRoute, signInStorage, type MockReply } from './utils';

const charge = {
  id: 'chg_0123456789abcdef0123',
  payload: '00020126690014br.gov.bcb.pix0128pix@portaldomotorista.com.br5204000053039865406150.005802BR6304ABCD',
  valor: 150,
  status: 'PENDING',
  expiresAt: '2026-03-05T16:04:05.000Z',
  createdAt: '2026-03-05T15:04:05.000Z',
};

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

describe('/saldo/comprar', () => {
  it('explains each invalid value and sends nothing', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi(base);
    const { user } = renderRoute('/saldo/comprar');
    const input = await screen.findByLabelText('Valor Saldo');
    expect(input).toHaveAttribute('inputmode', 'tel');
    const buy = screen.getByRole('button', { name: 'Comprar' });

    await user.click(buy);
    expect(await screen.findByText('Por favor digite o valor que deseja comprar de saldo')).toBeInTheDocument();

    await user.type(input, '000');
    expect(input).toHaveValue('');
    await user.type(input, '5000');
    expect(input).toHaveValue('50,00');
    await user.click(buy);
    expect(await screen.findByText('O valor mínimo para compra de saldo é de R$ 100,00')).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, '5000001');
    expect(input).toHaveValue('50.000,01');
    await user.click(buy);
    expect(await screen.findByText(messages.purchase.aboveMaximum)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/transacoes/gerar-qrcode')).toHaveLength(0);
  });

  it('generates the Pix, shows it, copies it for 3 s and keeps it in storage', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ ...base, 'POST /api/transacoes/gerar-qrcode': ok({ Mensagem: 'Pix gerado com sucesso!', qrCode: charge }) });
    const { user } = renderRoute('/saldo/comprar');
    await user.type(await screen.findByLabelText('Valor Saldo'), '15000');
    expect(localStorage.getItem('comprar_saldo_valor')).toBe('150,00');
    await user.click(screen.getByRole('button', { name: 'Comprar' }));

    expect(await screen.findByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/transacoes/gerar-qrcode')[0]?.body).toEqual({ valor: 150, cpfCnpj: '52998224725', project: 'VPO' });
    expect(screen.getByText('Copie o código abaixo para fazer o pagamento.')).toBeInTheDocument();
    expect(screen.getByText('R$ 150,00')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'QR Code do Pix para pagamento' }).tagName.toLowerCase()).toBe('svg');
    expect(screen.getByTestId('pix-payload')).toHaveTextContent(charge.payload);
    expect(screen.getByText('O Pix pode demorar até alguns minutos para ser validado e receber seu saldo.')).toBeInTheDocument();
    expect(localStorage.getItem('comprar_saldo_form_visivel')).toBe('false');
    expect(JSON.parse(localStorage.getItem('comprar_saldo_pix') ?? 'null')).toEqual(charge);

    await user.click(screen.getByRole('button', { name: 'Copiar código PIX' }));
    expect(await screen.findByRole('button', { name: 'Código PIX copiado!' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(charge.payload);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copiar código PIX' })).toBeInTheDocument(), { timeout: 4500 });
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
      body: { Sucesso: false, Mensagem: 'O valor mínimo para compra de saldo é de R$ 100,00', errors: { valor: ['Valor recusado pelo servidor'] } },
    };
    mockApi({ ...base, 'POST /api/transacoes/gerar-qrcode': () => answer });
    const { user } = renderRoute('/saldo/comprar');
    await user.type(await screen.findByLabelText('Valor Saldo'), '15000');
    await user.click(screen.getByRole('button', { name: 'Comprar' }));
    expect(await screen.findByText('Valor recusado pelo servidor')).toBeInTheDocument();

    answer = { status: 502, body: { Sucesso: false, Mensagem: messages.pix.providerUnavailable, errors: {} } };
    await user.click(screen.getByRole('button', { name: 'Comprar' }));
    const toast = (await screen.findByText(messages.pix.providerUnavailable)).closest<HTMLElement>('[role="alert"]')!;
    expect(within(toast).getByText('Ops, ocorreu um erro!')).toBeInTheDocument();
    expect(within(toast).getByText(messages.pix.providerUnavailable)).toBeInTheDocument();
  });
});
