import { screen, waitFor, within } from '@testing-library/react';
import type { Receipt } from '@portal/contract';
import { messages, serverMessages } from '@portal/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_REASON_ID } from '../../../src/lib/offline';
import { captureDownloads, mockFile } from '../../support/files';
import { connection, mockApi, ok, pendingCharge, renderRoute, signInStorage, type MockReply } from '../../support/utils';
// Loaded up front: the lazy routes resolve at once, even on a busy machine.
import '../../../src/features/receipts/ReceiptPage';
import '../../../src/features/credit/BuyBalancePage';
import '../../../src/features/withdrawal/WithdrawPage';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  if (!connection.online) connection.set(true);
});

const driver = { nome: 'maria da silva', documento: '***.982.247-**', chavePix: null, tipoChave: null };
const portal = { nome: 'Portal do Motorista', documento: null, chavePix: null, tipoChave: null };

const purchase = (over: Partial<Receipt> = {}): Receipt => ({
  tipo: 'compra',
  id: pendingCharge.id,
  titulo: serverMessages.receipt.purchaseTitle,
  valor: 150,
  dataHora: '2026-03-05T15:04:05.000Z',
  concluidoEm: '2026-03-05T15:04:05.000Z',
  status: 'RECEIVED',
  statusTexto: messages.receipt.status.RECEIVED,
  valorDevolvido: 0,
  pagador: driver,
  recebedor: portal,
  provedor: 'Asaas',
  idTransacaoProvedor: 'pay_080225913252',
  descricao: 'COMPRA DE SALDO via PIX',
  motivo: null,
  ...over,
});

const withdrawal = (over: Partial<Receipt> = {}): Receipt => ({
  tipo: 'saque',
  id: 'wd_0123456789abcdef',
  titulo: serverMessages.receipt.withdrawalTitle,
  valor: 40,
  dataHora: '2026-03-06T13:00:00.000Z',
  concluidoEm: '2026-03-06T13:00:07.000Z',
  status: 'DONE',
  statusTexto: messages.receipt.status.DONE,
  valorDevolvido: 0,
  pagador: portal,
  // The key's holder as the provider reported it, not the driver.
  recebedor: { nome: 'Joana Pereira Lima', documento: '***.143.689-**', chavePix: '***.982.247-**', tipoChave: 'CPF' },
  provedor: 'Asaas',
  idTransacaoProvedor: 'tra_123456',
  descricao: 'Saque Portal do Motorista',
  motivo: null,
  ...over,
});

const receiptPath = (receipt: Receipt) => `/comprovantes/${receipt.tipo}/${receipt.id}`;

function openReceipt(receipt: Receipt, extra: Record<string, MockReply> = {}) {
  signInStorage({ terms: 'aceito' });
  const api = mockApi({ [`GET /api/comprovantes/${receipt.tipo}/${receipt.id}`]: ok({ Comprovante: receipt }), ...extra });
  return { api, ...renderRoute(receiptPath(receipt)) };
}

/** The value beside a label of the receipt (its <dt>/<dd> pair). */
function field(label: string, scope: HTMLElement = document.body): string {
  const term = within(scope).getAllByText(label, { selector: 'dt' })[0];
  return term?.nextElementSibling?.textContent ?? '';
}

describe('/comprovantes/:tipo/:id', () => {
  it('a paid purchase: title, value, date and time, status, payer, receiver, provider and both ids', async () => {
    openReceipt(purchase());
    const article = await screen.findByRole('article', { name: serverMessages.receipt.purchaseTitle });
    expect(document.title).toBe('Comprovante | Portal do Motorista');
    expect(screen.getByRole('heading', { level: 1, name: serverMessages.receipt.purchaseTitle })).toBeInTheDocument();
    expect(within(article).getByTestId('valor-comprovante')).toHaveTextContent('R$ 150,00');
    expect(within(article).getByTestId('situacao-comprovante')).toHaveTextContent('Pagamento recebido');
    expect(field('Data e hora', article)).toBe('05/03/2026 12:04:05');
    expect(field('Descrição', article)).toBe('COMPRA DE SALDO via PIX');
    const payer = within(article).getByRole('region', { name: 'Pagador' });
    expect(field('Nome', payer)).toBe('maria da silva');
    expect(field('CPF/CNPJ', payer)).toBe('***.982.247-**');
    expect(field('Nome', within(article).getByRole('region', { name: 'Recebedor' }))).toBe('Portal do Motorista');
    expect(field('Instituição de pagamento', article)).toBe('Asaas');
    expect(field('ID da transação no provedor', article)).toBe('pay_080225913252');
    expect(field('ID no Portal do Motorista', article)).toBe(pendingCharge.id);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar ao extrato' })).toHaveAttribute('href', '/extrato/listar');
  });

  it('a completed withdrawal: the receiver with the Pix key masked as banks do, and its type', async () => {
    openReceipt(withdrawal());
    const article = await screen.findByRole('article', { name: serverMessages.receipt.withdrawalTitle });
    expect(within(article).getByTestId('valor-comprovante')).toHaveTextContent('R$ 40,00');
    expect(within(article).getByTestId('situacao-comprovante')).toHaveTextContent('Saque concluído');
    expect(field('Concluído em', article)).toBe('06/03/2026 10:00:07');
    const receiver = within(article).getByRole('region', { name: 'Recebedor' });
    expect(field('Chave Pix (CPF)', receiver)).toBe('***.982.247-**');
    expect(field('Titular informado pelo banco', receiver)).toBe('Joana Pereira Lima');
    expect(field('CPF/CNPJ', receiver)).toBe('***.143.689-**');
    expect(field('Nome', within(article).getByRole('region', { name: 'Pagador' }))).toBe('Portal do Motorista');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a withdrawal whose holder the provider did not report says so, and names nobody', async () => {
    openReceipt(withdrawal({ recebedor: { nome: null, documento: null, chavePix: '***.982.247-**', tipoChave: 'CPF' } }));
    const article = await screen.findByRole('article', { name: serverMessages.receipt.withdrawalTitle });
    const receiver = within(article).getByRole('region', { name: 'Recebedor' });
    expect(field('Titular informado pelo banco', receiver)).toBe(messages.receipt.holderUnavailable);
    expect(within(receiver).queryByText('CPF/CNPJ')).not.toBeInTheDocument();
    expect(field('Chave Pix (CPF)', receiver)).toBe('***.982.247-**');
  });

  it('a withdrawal in processing: no completion yet, the provider id not given yet', async () => {
    openReceipt(
      withdrawal({ status: 'PROCESSING', statusTexto: messages.receipt.status.PROCESSING, concluidoEm: null, idTransacaoProvedor: null }),
    );
    const article = await screen.findByRole('article');
    expect(within(article).getByTestId('situacao-comprovante')).toHaveTextContent('Saque em processamento');
    expect(within(article).queryByText('Concluído em')).not.toBeInTheDocument();
    expect(field('ID da transação no provedor', article)).toBe('Ainda não informado pelo provedor');
  });

  it('a reversed withdrawal says so prominently, with the reason', async () => {
    openReceipt(
      withdrawal({
        status: 'FAILED',
        statusTexto: messages.receipt.status.FAILED,
        valorDevolvido: 40,
        motivo: 'a transferência foi recusada pelo banco',
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.receipt.reversedNotice);
    expect(alert).toHaveTextContent('Motivo: a transferência foi recusada pelo banco');
    expect(screen.getByTestId('situacao-comprovante')).toHaveTextContent(messages.receipt.status.FAILED);
  });

  it.each([
    ['REFUNDED', 150, 'R$ 150,00'],
    ['PARTIALLY_REFUNDED', 50, 'R$ 50,00'],
  ] as const)('a %s purchase says what came back', async (status, returned, text) => {
    openReceipt(purchase({ status, statusTexto: messages.receipt.status[status], valorDevolvido: returned }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.receipt.status[status]);
    expect(alert).toHaveTextContent(`Valor devolvido: ${text}`);
  });

  it("another driver's or an unknown receipt: the API's Mensagem and the way back to the statement", async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/comprovantes/saque/wd_alheio': { status: 404, body: { Sucesso: false, Mensagem: messages.receipt.notFound } } });
    renderRoute('/comprovantes/saque/wd_alheio');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.receipt.notFound);
    expect(within(alert).getByRole('link', { name: 'Voltar ao extrato' })).toHaveAttribute('href', '/extrato/listar');
    expect(screen.queryByRole('button', { name: 'Baixar PDF' })).not.toBeInTheDocument();
  });

  it('a kind of receipt that does not exist is not asked for', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({});
    renderRoute('/comprovantes/boleto/1');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.receipt.notFound);
    expect(api.calls.filter((call) => call.path.startsWith('/api/comprovantes'))).toEqual([]);
  });

  it("'Imprimir' opens the browser's print", async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const { user } = openReceipt(purchase());
    await user.click(await screen.findByRole('button', { name: 'Imprimir' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it("'Baixar PDF' saves the server's PDF under its name; a refusal is told", async () => {
    const saved = captureDownloads();
    const receipt = purchase();
    const { api, user } = openReceipt(receipt);
    const asked = mockFile(api.fetchMock, `/api/comprovantes/compra/${receipt.id}/pdf`, {
      body: '%PDF-1.7',
      contentType: 'application/pdf',
      fileName: `comprovante-compra-${receipt.id}.pdf`,
    });
    await user.click(await screen.findByRole('button', { name: 'Baixar PDF' }));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual([`comprovante-compra-${receipt.id}.pdf`]));
    expect(asked[0]?.headers.get('authorization')).toBe('Bearer token-de-teste');

    mockFile(
      api.fetchMock,
      `/api/comprovantes/compra/${receipt.id}/pdf`,
      async () =>
        new Response(JSON.stringify({ Sucesso: false, Mensagem: messages.receipt.notFound }), {
          status: 404,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    await user.click(screen.getByRole('button', { name: 'Baixar PDF' }));
    expect(await screen.findByText(messages.receipt.notFound)).toBeInTheDocument();
    expect(saved).toHaveLength(1);
  });

  it("no connection: 'Baixar PDF' is disabled saying why; 'Imprimir' still works", async () => {
    openReceipt(purchase());
    await screen.findByRole('article');
    connection.set(false);
    const download = await screen.findByRole('button', { name: 'Baixar PDF' });
    await waitFor(() => expect(download).toBeDisabled());
    expect(download).toHaveAttribute('aria-describedby', OFFLINE_REASON_ID);
    expect(screen.getByRole('button', { name: 'Imprimir' })).toBeEnabled();
  });
});

describe("the success screens' way to the receipt", () => {
  it("a received Pix purchase: 'Ver comprovante' opens its receipt", async () => {
    signInStorage({ terms: 'aceito' });
    localStorage.setItem('comprar_saldo_valor', '150,00');
    localStorage.setItem('comprar_saldo_pix', JSON.stringify(pendingCharge));
    localStorage.setItem('comprar_saldo_form_visivel', 'false');
    mockApi({
      'GET /api/motorista/saldo': ok({ Saldo: 150, SaldoTerceiro: 0 }),
      [`GET /api/transacoes/qrcode/${pendingCharge.id}`]: ok({ qrCode: { ...pendingCharge, status: 'RECEIVED' } }),
      [`GET /api/comprovantes/compra/${pendingCharge.id}`]: ok({ Comprovante: purchase() }),
    });
    const { user, router } = renderRoute('/saldo/comprar');
    const link = await screen.findByRole('link', { name: 'Ver comprovante' });
    expect(link).toHaveAttribute('href', `/comprovantes/compra/${pendingCharge.id}`);
    await user.click(link);
    expect(await screen.findByRole('article', { name: serverMessages.receipt.purchaseTitle })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/comprovantes/compra/${pendingCharge.id}`);
  });

  it('a pending Pix has no receipt yet', async () => {
    signInStorage({ terms: 'aceito' });
    localStorage.setItem('comprar_saldo_pix', JSON.stringify(pendingCharge));
    localStorage.setItem('comprar_saldo_form_visivel', 'false');
    mockApi({
      'GET /api/motorista/saldo': ok({ Saldo: 0, SaldoTerceiro: 0 }),
      [`GET /api/transacoes/qrcode/${pendingCharge.id}`]: ok({ qrCode: pendingCharge }),
    });
    renderRoute('/saldo/comprar');
    expect(await screen.findByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Ver comprovante' })).not.toBeInTheDocument();
  });

  it("a requested withdrawal: 'Ver comprovante' to its withdrawalId", async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/motorista/verificar-saque': ok({ Mensagem: serverMessages.withdrawal.allowed }),
      'GET /api/motorista/saldo': ok({ Saldo: 100, SaldoTerceiro: 0 }),
      'POST /api/motorista/sacar': ok({
        Mensagem: serverMessages.withdrawal.processing,
        withdrawalId: 'wd_0123456789abcdef',
        status: 'PROCESSING',
      }),
    });
    const { user } = renderRoute('/saldo/retirar');
    await user.click(await screen.findByLabelText('Valor'));
    await user.paste('4000');
    await user.selectOptions(screen.getByLabelText('Tipo da Chave Pix'), 'CPF');
    await user.click(screen.getByLabelText('Chave Pix'));
    await user.paste('52998224725');
    await user.click(screen.getByRole('button', { name: 'Sacar' }));
    const link = await screen.findByRole('link', { name: 'Ver comprovante' });
    expect(link).toHaveAttribute('href', '/comprovantes/saque/wd_0123456789abcdef');
    expect(link.closest('[role="status"]')).toHaveTextContent('Saque registrado: o comprovante mostra a situação do Pix.');
  });
});
