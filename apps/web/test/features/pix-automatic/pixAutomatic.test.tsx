import { screen, waitFor, within } from '@testing-library/react';
import type { PixAutomaticAuthorization } from '@portal/contract';
import { cycleFailedText, pixAutomaticMessages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderRoute, signInStorage } from '../../support/utils';
// Loaded up front: the lazy route resolves at once, even on a busy machine.
import '../../../src/features/pix-automatic/PixAutomaticPage';

const PATH = '/api/motorista/pix-automatico';
const PAYLOAD = '00020126690014br.gov.bcb.pix0128pix@portaldomotorista.com.br5204000053039865406150.005802BR6304ABCD';

const waiting: PixAutomaticAuthorization = {
  id: 'pxa_0123456789abcdef0123',
  estado: 'AGUARDANDO',
  frequencia: 'SEMANAL',
  valor: 150,
  qrCode: { payload: PAYLOAD, expiraEm: '2026-03-05T16:04:05.000Z' },
  proximoDebito: null,
  criadaEm: '2026-03-05T15:04:05.000Z',
  ativadaEm: null,
  encerradaEm: null,
  motivoEncerramento: null,
  ciclos: [],
};

const active: PixAutomaticAuthorization = {
  ...waiting,
  estado: 'ATIVA',
  qrCode: null,
  ativadaEm: '2026-03-05T15:10:00.000Z',
  proximoDebito: { data: '2026-03-12', valor: 150, agendado: true },
  ciclos: [
    { id: 'chg_2', numero: 2, valor: 150, dataDebito: '2026-03-12', estado: 'RECUSADA', motivo: 'Saldo insuficiente' },
    { id: 'chg_1', numero: 1, valor: 150, dataDebito: '2026-03-05', estado: 'PAGA', motivo: null },
  ],
};

const answer = (recarga: PixAutomaticAuthorization | null, extra: Record<string, unknown> = {}) =>
  ok({ Mensagem: pixAutomaticMessages.ok, RecargaAutomatica: recarga, Disponivel: true, ...extra });

const base = {
  'GET /api/motorista/saldo': ok({ Saldo: 0, SaldoTerceiro: 0 }),
  'GET /api/motorista/avisos': ok({ Avisos: [], UltimasMovimentacoes: [] }),
};

type User = ReturnType<typeof renderRoute>['user'];

async function typeValue(user: User, label: string, digits: string) {
  await user.click(await screen.findByLabelText(label));
  await user.paste(digits);
}

describe('/saldo/recarga-automatica', () => {
  it('with none yet: explains it (free, cancellable in the bank app) and checks the value and the frequency before sending', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ ...base, [`GET ${PATH}`]: answer(null) });
    const { user } = renderRoute('/saldo/recarga-automatica');
    expect(await screen.findByRole('heading', { name: pixAutomaticMessages.title, level: 1 })).toBeInTheDocument();
    expect(screen.getByText(pixAutomaticMessages.bankAppCancel)).toBeInTheDocument();
    expect(screen.getByText(new RegExp(pixAutomaticMessages.free.slice(0, 40)))).toBeInTheDocument();

    const submit = await screen.findByRole('button', { name: 'Gerar QR Code' });
    await user.click(submit);
    expect(await screen.findByText(pixAutomaticMessages.valueRequired)).toBeInTheDocument();
    await typeValue(user, 'Valor de cada recarga', '5000');
    await user.click(submit);
    expect(await screen.findByText(pixAutomaticMessages.belowMinimum)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Valor de cada recarga'));
    await typeValue(user, 'Valor de cada recarga', '15000');
    await user.click(submit);
    expect(await screen.findByText(pixAutomaticMessages.frequencyRequired)).toBeInTheDocument();
    expect(api.callsTo('POST', PATH)).toHaveLength(0);
  });

  it('creates it and shows the QR Code of the first Pix, which also authorizes the debits', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({
      ...base,
      [`GET ${PATH}`]: answer(null),
      [`POST ${PATH}`]: {
        status: 201,
        body: { Sucesso: true, Mensagem: pixAutomaticMessages.created, RecargaAutomatica: waiting, Disponivel: true },
      },
    });
    const { user } = renderRoute('/saldo/recarga-automatica');
    await typeValue(user, 'Valor de cada recarga', '15000');
    await user.click(screen.getByRole('radio', { name: 'Semanal (toda semana)' }));
    await user.click(screen.getByRole('button', { name: 'Gerar QR Code' }));
    expect(await screen.findByRole('heading', { name: pixAutomaticMessages.qrTitle })).toBeInTheDocument();
    expect(api.callsTo('POST', PATH)[0]?.body).toEqual({ valor: 150, frequencia: 'SEMANAL' });
    expect(api.callsTo('POST', PATH)[0]?.headers['idempotency-key']).toBeTruthy();
    expect(screen.getByTestId('pix-payload')).toHaveTextContent(PAYLOAD);
    expect(screen.getByRole('img', { name: 'QR Code do Pix para pagamento' })).toBeInTheDocument();
    expect(screen.getByTestId('estado-recarga')).toHaveTextContent('Aguardando autorização');
  });

  it('active: the next debit, the cycles (a refused one with its reason, a paid one with its receipt) and the value change explained', async () => {
    signInStorage({ terms: 'aceito' });
    const changed = { ...waiting, id: 'pxa_nova', valor: 200 };
    const api = mockApi({
      ...base,
      [`GET ${PATH}`]: answer(active),
      [`POST ${PATH}/${active.id}/valor`]: ok({
        Mensagem: pixAutomaticMessages.valueChanged,
        RecargaAutomatica: changed,
        Disponivel: true,
      }),
    });
    const { user } = renderRoute('/saldo/recarga-automatica');
    expect(await screen.findByTestId('estado-recarga')).toHaveTextContent('Ativa');
    const next = screen.getByTestId('proximo-debito');
    expect(next).toHaveTextContent('12/03/2026');
    expect(next).toHaveTextContent('Já agendado no seu banco.');
    expect(screen.getByText('Não debitada: Saldo insuficiente')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver comprovante da recarga de 05/03/2026' })).toHaveAttribute(
      'href',
      '/comprovantes/compra/chg_1',
    );

    await user.click(screen.getByRole('button', { name: 'Alterar valor' }));
    expect(screen.getByText(pixAutomaticMessages.changeExplained)).toBeInTheDocument();
    await typeValue(user, 'Novo valor', '20000');
    await user.click(screen.getByRole('button', { name: 'Gerar QR Code com o novo valor' }));
    expect(await screen.findByRole('heading', { name: pixAutomaticMessages.qrTitle })).toBeInTheDocument();
    expect(api.callsTo('POST', `${PATH}/${active.id}/valor`)[0]?.body).toEqual({ valor: 200 });
  });

  it("cancels only after a dialog whose answers cannot be mistaken ('Cancelar' / 'Voltar')", async () => {
    signInStorage({ terms: 'aceito' });
    const cancelled = {
      ...active,
      estado: 'CANCELADA' as const,
      proximoDebito: null,
      motivoEncerramento: pixAutomaticMessages.endReasons.driver,
      encerradaEm: '2026-03-06T12:00:00.000Z',
    };
    const api = mockApi({
      ...base,
      [`GET ${PATH}`]: answer(active),
      [`POST ${PATH}/${active.id}/cancelar`]: ok({
        Mensagem: pixAutomaticMessages.cancelled,
        RecargaAutomatica: cancelled,
        Disponivel: true,
      }),
    });
    const { user } = renderRoute('/saldo/recarga-automatica');
    await user.click(await screen.findByRole('button', { name: 'Cancelar recarga automática' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(pixAutomaticMessages.cancelConfirm)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST', `${PATH}/${active.id}/cancelar`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancelar recarga automática' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByText(pixAutomaticMessages.cancelled)).toBeInTheDocument();
    expect(api.callsTo('POST', `${PATH}/${active.id}/cancelar`)).toHaveLength(1);
    // Ended: what happened, and the form for a new one.
    expect(await screen.findByText(new RegExp(pixAutomaticMessages.endReasons.driver))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Gerar QR Code' })).toBeInTheDocument();
  });

  it("says at once that it could not be read, with 'Tentar novamente'", async () => {
    signInStorage({ terms: 'aceito' });
    let calls = 0;
    mockApi({
      ...base,
      [`GET ${PATH}`]: () => (++calls === 1 ? { status: 503, body: { Sucesso: false, Mensagem: 'Fora do ar' } } : answer(active)),
    });
    const { user } = renderRoute('/saldo/recarga-automatica');
    const retry = await screen.findByRole('button', { name: 'Tentar novamente' }, { timeout: 2000 });
    expect(screen.getByText('Não foi possível carregar a sua recarga automática.')).toBeInTheDocument();
    await user.click(retry);
    expect(await screen.findByTestId('estado-recarga')).toHaveTextContent('Ativa');
  });

  it('until the provider offers it, says so and points to buying once', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ ...base, [`GET ${PATH}`]: answer(null, { Disponivel: false }) });
    renderRoute('/saldo/recarga-automatica');
    expect(await screen.findByText(pixAutomaticMessages.unavailable)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Comprar saldo agora' })).toHaveAttribute('href', '/saldo/comprar');
    expect(screen.queryByRole('button', { name: 'Gerar QR Code' })).not.toBeInTheDocument();
  });

  it("the dashboard's notice of a cycle not debited opens this screen", async () => {
    const { noticeViews } = await import('../../../src/features/dashboard/notices');
    const [view] = noticeViews([
      {
        tipo: 'recarga-automatica-falhou',
        Mensagem: cycleFailedText(15_000, '2026-03-12', 'Saldo insuficiente'),
        autorizacaoId: active.id,
        cicloId: 'chg_2',
        valor: 150,
        dataDebito: '2026-03-12',
      },
    ]);
    expect(view).toMatchObject({
      text: 'A recarga automática de R$\u00a0150,00 de 12/03/2026 não foi debitada: Saldo insuficiente. Compre saldo se precisar antes da próxima.',
      action: 'Ver recarga',
      to: '/saldo/recarga-automatica',
    });
  });
});
