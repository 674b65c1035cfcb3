import { freeFlowMessages } from '@portal/domain';
import { onlineManager } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TABLE_NOT_LOADED_TEXT } from '../../../src/components/ui/DataTable';
import { OFFLINE_REASON_ID } from '../../../src/lib/offline';
import { queryClient } from '../../../src/lib/queryClient';
import { captureDownloads, mockFile } from '../../support/files';
import {
  connection,
  demoUser,
  mockApi,
  ok,
  renderRoute,
  signInStorage,
  statementRow,
  type MockReply,
  type RecordedCall,
} from '../../support/utils';

beforeAll(async () => {
  await Promise.all([
    import('../../../src/app/AuthenticatedShell'),
    import('../../../src/features/free-flow/FreeFlowPage'),
    import('../../../src/app/routes/DashboardRoute'),
    import('../../../src/features/statement/StatementPage'),
  ]);
});

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => {
  window.localStorage.removeItem('conta_em_uso');
  if (!connection.online) connection.set(true);
  queryClient.clear();
});

/** A toll as GET /api/livre-passagem answers it: open, 12 days to pay. */
const toll = (over: Record<string, unknown> = {}) => ({
  id: 1,
  placa: 'ABC1D23',
  concessionaria: 'RioSP',
  portico: 'Pórtico Itaguaí P1',
  rodovia: 'BR-101',
  km: 414.5,
  sentido: 'Norte',
  eixos: 2,
  valor: 12.34,
  dataPassagem: '2026-03-05T15:04:05Z',
  vencimento: '2026-04-06',
  diasRestantes: 12,
  estado: 'EM_ABERTO',
  pagoEm: null,
  pagoPor: null,
  autenticacao: null,
  sinalizacao: null,
  aguardandoSaldo: false,
  contestacao: null,
  ...over,
});

const summary = (over: Record<string, unknown> = {}) => ({
  emAberto: 3,
  valorEmAberto: 45.67,
  vencidos: 1,
  proximoVencimento: '2026-03-20',
  sinalizados: 1,
  placasAtivas: 2,
  ...over,
});

const tolls = [
  toll({ id: 1 }),
  toll({ id: 2, portico: 'Pórtico Hoje', diasRestantes: 0 }),
  toll({ id: 3, portico: 'Pórtico Amanhã', diasRestantes: 1, aguardandoSaldo: true }),
  toll({ id: 4, portico: 'Pórtico Vencido', estado: 'VENCIDO', diasRestantes: -3, vencimento: '2026-03-02' }),
  toll({ id: 5, portico: 'Pórtico Pago', estado: 'PAGO', pagoEm: '2026-03-06T12:00:00Z', pagoPor: 'SALDO', autenticacao: 'AUT-1' }),
  toll({ id: 6, portico: 'Pórtico Cancelado', estado: 'CANCELADO' }),
  toll({ id: 7, portico: 'Pórtico Sinalizado', sinalizacao: 'TAG_ATIVA' }),
];

const page = (Debitos: unknown[] = tolls, Resumo = summary(), TotalPaginas = 1) => ok({ Debitos, Paginacao: { TotalPaginas }, Resumo });
const plates = ok({
  Placas: [
    { veiculoId: 1, placa: 'ABC1D23', ativo: true, automatico: false, desde: '2026-03-01T12:00:00Z' },
    { veiculoId: 2, placa: 'XYZ9K88', ativo: true, automatico: true, desde: '2026-03-01T12:00:00Z' },
  ],
});

type Handlers = Record<string, MockReply | ((call: RecordedCall) => MockReply)>;

function open(handlers: Handlers = {}, path = '/livre-passagem') {
  signInStorage({ terms: 'aceito' });
  const api = mockApi({ 'GET /api/livre-passagem': page(), 'GET /api/livre-passagem/placas': plates, ...handlers });
  return { api, ...renderRoute(path) };
}

/** Decision 77: the screen as a Motorista of the demo carrier (the account chosen in the header). */
function asMotorista(handlers: Handlers) {
  window.localStorage.setItem(
    'conta_em_uso',
    JSON.stringify({
      person: demoUser.id,
      id: 40,
      name: 'Transportes Demonstração Ltda',
      document: '12.***.***/0001-95',
      role: 'motorista',
    }),
  );
  return open({
    'GET /api/contas': ok({
      Contas: [
        { id: demoUser.id, nome: 'Maria da Silva', documento: '***.982.247-**', papel: 'titular', propria: true, empresa: false },
        {
          id: 40,
          nome: 'Transportes Demonstração Ltda',
          documento: '12.***.***/0001-95',
          papel: 'motorista',
          propria: false,
          empresa: true,
        },
      ],
    }),
    ...handlers,
  });
}

const card = (portico: string) => screen.getByRole('article', { name: portico });
const urls = (fetchMock: { mock: { calls: unknown[][] } }) => fetchMock.mock.calls.map(([input]) => String(input));

describe('/livre-passagem: the tolls of the plates opted in (decision 76)', () => {
  it('shows the summary and each toll: gantry, highway and km, São Paulo time, value, deadline and days left, its state', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'Pedágios sem cancela', level: 1 })).toBeInTheDocument();
    expect(document.title).toBe('Pedágios sem cancela | Portal do Motorista');
    await screen.findByRole('article', { name: 'Pórtico Itaguaí P1' });
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('data-toll'))).toEqual(['1', '2', '3', '4', '5', '6', '7']);

    const resumo = screen.getByRole('region', { name: 'Resumo dos pedágios sem cancela' });
    expect(resumo).toHaveTextContent('R$ 45,67');
    expect(resumo).toHaveTextContent('3 pedágios em aberto');
    expect(resumo).toHaveTextContent('1 vencido');
    expect(resumo).toHaveTextContent('20/03/2026');

    const first = card('Pórtico Itaguaí P1');
    expect(first).toHaveTextContent('BR-101, km 414,5, sentido Norte');
    expect(first).toHaveTextContent('05/03/2026 12:04:05');
    expect(first).toHaveTextContent('Placa ABC1D23');
    expect(first).toHaveTextContent('R$ 12,34');
    expect(first).toHaveTextContent('06/04/2026 · faltam 12 dias');
    expect(within(first).getByText('Em aberto')).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: /^Pagar R\$\s12,34 do pedágio em Pórtico Itaguaí P1$/ })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: /^Comprovante para recurso/ })).toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: /^Ver comprovante/ })).not.toBeInTheDocument();
    expect(first).not.toHaveTextContent(freeFlowMessages.tagWasActive);

    expect(card('Pórtico Hoje')).toHaveTextContent('vence hoje');
    expect(card('Pórtico Amanhã')).toHaveTextContent('vence amanhã');
    // Automatic payment found Saldo short: paid when money arrives, with the way to buy credit.
    expect(card('Pórtico Amanhã')).toHaveTextContent('será pago assim que entrar dinheiro no seu Saldo');
    expect(within(card('Pórtico Amanhã')).getByRole('link', { name: 'Comprar saldo' })).toHaveAttribute('href', '/saldo/comprar');

    const overdue = card('Pórtico Vencido');
    expect(overdue).toHaveTextContent('venceu há 3 dias');
    expect(within(overdue).getByText('Vencido')).toBeInTheDocument();
    expect(overdue).toHaveTextContent(freeFlowMessages.overdue);
    expect(overdue).toHaveTextContent(freeFlowMessages.overdueWhatToDo);
    expect(within(overdue).getByRole('button', { name: /^Pagar/ })).toBeInTheDocument();

    const paid = card('Pórtico Pago');
    expect(within(paid).getByText('Pago')).toBeInTheDocument();
    expect(paid).toHaveTextContent('06/03/2026 09:00:00');
    expect(within(paid).queryByRole('button', { name: /^Pagar/ })).not.toBeInTheDocument();
    expect(within(paid).getByRole('button', { name: /^Ver comprovante/ })).toBeInTheDocument();
    expect(paid).not.toHaveTextContent('faltam');

    const cancelled = card('Pórtico Cancelado');
    expect(within(cancelled).getByText('Cancelado pela concessionária')).toBeInTheDocument();
    expect(within(cancelled).queryByRole('button', { name: /^(Pagar|Ver comprovante|Contestar)/ })).not.toBeInTheDocument();
    expect(within(cancelled).getByRole('button', { name: /^Comprovante para recurso/ })).toBeInTheDocument();

    const flagged = card('Pórtico Sinalizado');
    expect(within(flagged).getByText('Sua tag estava ativa: esta cobrança pode ser indevida')).toBeInTheDocument();
    expect(within(flagged).getByRole('button', { name: 'Contestar a cobrança do pedágio em Pórtico Sinalizado' })).toBeInTheDocument();
  });

  it('filters by plate (the driver’s plates) and by state in the address, back on page 1, and pages by Paginacao', async () => {
    const { api, user, router } = open({ 'GET /api/livre-passagem': page(tolls.slice(0, 1), summary(), 3) }, '/livre-passagem?page=2');
    await screen.findByRole('article');
    expect(screen.getByRole('button', { name: 'Página 3' })).toBeInTheDocument();
    expect(urls(api.fetchMock)).toContain('/api/livre-passagem?page=2');
    const plate = screen.getByRole('combobox', { name: 'Placa' });
    await waitFor(() =>
      expect(
        within(plate)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Todas', 'ABC1D23', 'XYZ9K88']),
    );
    expect(
      within(screen.getByRole('combobox', { name: 'Estado' }))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Todos', 'Em aberto', 'Pago', 'Vencido', 'Cancelado pela concessionária']);

    await user.selectOptions(plate, 'XYZ9K88');
    await waitFor(() => expect(router.state.location.search).toBe('?placa=XYZ9K88'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Estado' }), 'Vencido');
    await waitFor(() => expect(router.state.location.search).toBe('?placa=XYZ9K88&estado=VENCIDO'));
    await waitFor(() => expect(urls(api.fetchMock)).toContain('/api/livre-passagem?page=1&placa=XYZ9K88&estado=VENCIDO'));
  });

  it("'Pagar' asks first (the value, paid from Saldo); two taps send once, with an Idempotency-Key; the answer's Mensagem; the list is read again", async () => {
    let paid = false;
    const { api, user } = open({
      'GET /api/livre-passagem': () => page(paid ? [toll({ estado: 'PAGO', pagoEm: '2026-03-06T12:00:00Z', pagoPor: 'SALDO' })] : [toll()]),
      'POST /api/livre-passagem/1/pagar': () => {
        paid = true;
        return ok({
          Mensagem: 'Pedágio sem cancela de R$ 12,34 pago com o seu Saldo. Guarde o comprovante.',
          Debito: toll({ estado: 'PAGO' }),
        });
      },
    });
    const pay = await screen.findByRole('button', { name: /^Pagar R\$\s12,34/ });
    await user.dblClick(pay);
    const dialogs = await screen.findAllByRole('dialog', { name: 'Pagar pedágio sem cancela' });
    expect(dialogs).toHaveLength(1);
    const dialog = dialogs[0]!;
    expect(dialog).toHaveTextContent('Pagar R$ 12,34 do pedágio sem cancela em Pórtico Itaguaí P1, placa ABC1D23?');
    expect(dialog).toHaveTextContent('pago com o seu Saldo');
    expect(api.callsTo('POST', '/api/livre-passagem/1/pagar')).toHaveLength(0);

    await user.dblClick(within(dialog).getByRole('button', { name: /^Pagar R\$\s12,34$/ }));
    expect(await screen.findByText('Pedágio sem cancela de R$ 12,34 pago com o seu Saldo. Guarde o comprovante.')).toBeInTheDocument();
    const sent = api.callsTo('POST', '/api/livre-passagem/1/pagar');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[0]?.headers.authorization).toBe('Bearer token-de-teste');
    await waitFor(() => expect(within(card('Pórtico Itaguaí P1')).getByText('Pago')).toBeInTheDocument());
    expect(within(card('Pórtico Itaguaí P1')).queryByRole('button', { name: /^Pagar/ })).not.toBeInTheDocument();
  });

  it("'Voltar' on the question pays nothing; a refusal is told in the error toast", async () => {
    const { api, user } = open({
      'GET /api/livre-passagem': page([toll()]),
      'POST /api/livre-passagem/1/pagar': { status: 422, body: { Sucesso: false, Mensagem: 'Saldo insuficiente' } },
    });
    await user.click(await screen.findByRole('button', { name: /^Pagar R\$\s12,34/ }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Pagar pedágio sem cancela' })).getByRole('button', { name: 'Voltar' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 5_000 });
    expect(api.callsTo('POST', '/api/livre-passagem/1/pagar')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: /^Pagar R\$\s12,34/ }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Pagar pedágio sem cancela' })).getByRole('button', { name: /^Pagar/ }),
    );
    expect(await screen.findByText('Saldo insuficiente')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/livre-passagem/1/pagar')).toHaveLength(1);
  });

  it("a flagged toll is contested in one tap: 'Contestar' offers the three reasons, the chosen one is sent at once", async () => {
    let contested = false;
    const flaggedToll = toll({ id: 7, portico: 'Pórtico Sinalizado', sinalizacao: 'TAG_ATIVA' });
    const { api, user } = open({
      'GET /api/livre-passagem': () => page([contested ? { ...flaggedToll, contestacao: { id: 40, estado: 'ABERTA' } } : flaggedToll]),
      'POST /api/livre-passagem/7/contestar': () => {
        contested = true;
        return ok({ Mensagem: 'Contestação enviada à concessionária.', Debito: flaggedToll });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Contestar a cobrança do pedágio em Pórtico Sinalizado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contestar cobrança' });
    expect(
      within(within(dialog).getByRole('group', { name: 'Contestar cobrança' }))
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['A tag pagou esta passagem', 'Não passei neste pórtico', 'Placa lida errada', 'Voltar']);
    await user.dblClick(within(dialog).getByRole('button', { name: 'A tag pagou esta passagem' }));
    expect(await screen.findByText('Contestação enviada à concessionária.')).toBeInTheDocument();
    const sent = api.callsTo('POST', '/api/livre-passagem/7/contestar');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ motivo: 'TAG_PAGOU' });
    expect(sent[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Contestar cobrança' })).not.toBeInTheDocument());
    // Read again: the contest's state, the warning and 'Contestar' gone.
    await waitFor(() => expect(within(card('Pórtico Sinalizado')).getByText('Em análise')).toBeInTheDocument());
    expect(within(card('Pórtico Sinalizado')).queryByRole('button', { name: /^Contestar/ })).not.toBeInTheDocument();
  });

  it("'Ver comprovante' and 'Comprovante para recurso' save the PDFs under the server's names", async () => {
    const saved = captureDownloads();
    const { api, user } = open({ 'GET /api/livre-passagem': page([tolls[4]]) });
    mockFile(api.fetchMock, '/api/livre-passagem/5/comprovante', {
      body: '%PDF-1.7',
      contentType: 'application/pdf',
      fileName: 'pedagio-5.pdf',
    });
    const proof = mockFile(api.fetchMock, '/api/livre-passagem/5/comprovante-recurso', {
      body: '%PDF-1.7',
      contentType: 'application/pdf',
      fileName: 'recurso-5.pdf',
    });
    await user.click(await screen.findByRole('button', { name: /^Ver comprovante/ }));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['pedagio-5.pdf']));
    await user.click(screen.getByRole('button', { name: /^Comprovante para recurso/ }));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['pedagio-5.pdf', 'recurso-5.pdf']));
    expect(proof[0]?.headers.get('authorization')).toBe('Bearer token-de-teste');
  });

  it("a Motorista on the company's account sees their trucks' tolls, contests and proves them; 'Pagar' and the receipt are not theirs (decision 77)", async () => {
    asMotorista({
      'GET /api/livre-passagem': page([tolls[0], tolls[4]]),
    });
    const open_ = await screen.findByRole('article', { name: 'Pórtico Itaguaí P1' });
    expect(within(open_).queryByRole('button', { name: /^Pagar/ })).not.toBeInTheDocument();
    expect(within(open_).getByRole('button', { name: /^Contestar/ })).toBeInTheDocument();
    expect(within(open_).getByRole('button', { name: /^Comprovante para recurso/ })).toBeInTheDocument();
    const paid = card('Pórtico Pago');
    expect(within(paid).queryByRole('button', { name: /^Ver comprovante/ })).not.toBeInTheDocument();
  });

  it('a Motorista whose trucks have it off is told a Gestor turns it on, and is not sent to do it (decision 77)', async () => {
    asMotorista({
      'GET /api/livre-passagem': page([], summary({ emAberto: 0, valorEmAberto: 0, vencidos: 0, sinalizados: 0, placasAtivas: 0 })),
    });
    expect(await screen.findByText('O pedágio sem cancela está desligado nas placas dos seus veículos')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Ligar nos veículos' })).not.toBeInTheDocument();
  });

  it('no plate opted in: says how to turn it on, with the way to the vehicles and to Configurações', async () => {
    open({
      'GET /api/livre-passagem': page(
        [],
        summary({ emAberto: 0, valorEmAberto: 0, vencidos: 0, proximoVencimento: null, sinalizados: 0, placasAtivas: 0 }),
      ),
    });
    expect(await screen.findByText('O pedágio sem cancela está desligado nas suas placas')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ligar nos veículos' })).toHaveAttribute('href', '/veiculos/listar');
    expect(screen.getByRole('link', { name: 'Abrir Configurações' })).toHaveAttribute('href', '/configuracoes#pedagio-sem-cancela');
    expect(screen.queryByText('Nenhum pedágio sem cancela das suas placas até agora.')).not.toBeInTheDocument();
  });

  it("a failure says so at once, and 'Tentar novamente' reads the list again", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    const { user } = open({
      'GET /api/livre-passagem': () => {
        calls += 1;
        return calls === 1 ? { status: 400, body: { Sucesso: false, Mensagem: 'Dados inválidos' } } : page([toll()]);
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar os pedágios sem cancela.');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('article', { name: 'Pórtico Itaguaí P1' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    logged.mockRestore();
  });

  it('offline: a list never read here is neither loading nor empty; once read, its actions are disabled, saying why', async () => {
    signInStorage({ terms: 'aceito' });
    connection.startOffline();
    onlineManager.setOnline(false);
    mockApi({ 'GET /api/livre-passagem': page([toll()]), 'GET /api/livre-passagem/placas': plates });
    renderRoute('/livre-passagem');
    await screen.findByRole('heading', { name: 'Pedágios sem cancela', level: 1 });
    expect(await screen.findByText(TABLE_NOT_LOADED_TEXT)).toBeInTheDocument();
    expect(screen.queryByText(/Carregando/)).not.toBeInTheDocument();
    connection.set(true);
    const pay = await screen.findByRole('button', { name: /^Pagar R\$\s12,34/ });
    expect(pay).toBeEnabled();
    connection.set(false);
    await screen.findByTestId('aviso-sem-conexao');
    for (const button of [pay, screen.getByRole('button', { name: /^Comprovante para recurso/ })]) {
      expect(button).toBeDisabled();
      expect(button).toHaveAttribute('aria-describedby', OFFLINE_REASON_ID);
    }
  });
});

describe("/dashboard: the 'Pedágios sem cancela' tile and notice (decision 76)", () => {
  it('the tile says what is owed; a notice while anything is overdue, to /livre-passagem', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/motorista/saldo': ok({ Saldo: 100, SaldoTerceiro: 0 }),
      'GET /api/motorista/avisos': ok({ Avisos: [], UltimasMovimentacoes: [] }),
      'GET /api/livre-passagem': page([toll()], summary({ vencidos: 2 })),
    });
    renderRoute('/dashboard');
    const tile = await screen.findByRole('link', { name: /^Pedágios sem cancela/ });
    expect(tile).toHaveAttribute('href', '/livre-passagem');
    await waitFor(() => expect(tile).toHaveTextContent('R$ 45,67 a pagar'));
    const region = await screen.findByRole('region', { name: 'Avisos' });
    const line = await within(region).findByText('2 pedágios sem cancela vencidos: risco de multa por evasão');
    expect(within(line.closest('li')!).getByRole('link', { name: 'Pagar os pedágios sem cancela' })).toHaveAttribute(
      'href',
      '/livre-passagem',
    );
  });

  it('nothing owed: no notice', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/motorista/saldo': ok({ Saldo: 100, SaldoTerceiro: 0 }),
      'GET /api/motorista/avisos': ok({ Avisos: [], UltimasMovimentacoes: [] }),
      'GET /api/livre-passagem': page([], summary({ emAberto: 0, valorEmAberto: 0, vencidos: 0, proximoVencimento: null, sinalizados: 0 })),
    });
    renderRoute('/dashboard');
    const tile = await screen.findByRole('link', { name: /^Pedágios sem cancela/ });
    await waitFor(() => expect(tile).toHaveTextContent('Cobrados pela placa'));
    expect(screen.queryByRole('region', { name: 'Avisos' })).not.toBeInTheDocument();
  });
});

describe("a tag passage's 'Comprovante para recurso' (decision 76)", () => {
  it('the statement offers it on each passage, saved under the server’s name', async () => {
    const saved = captureDownloads();
    signInStorage({ terms: 'aceito' });
    const passage = { id: 501, possivelDuplicada: false, contestavel: false, contestacao: null };
    const api = mockApi({
      'GET /api/extrato/listar': ok({ Transacoes: [statementRow({ passagem: passage })], Paginacao: { TotalPaginas: 1 }, Totais: [] }),
    });
    const asked = mockFile(api.fetchMock, '/api/passagens/501/comprovante-recurso', {
      body: '%PDF-1.7',
      contentType: 'application/pdf',
      fileName: 'recurso-passagem-501.pdf',
    });
    const { user } = renderRoute('/extrato/listar');
    await user.click(
      await screen.findByRole('button', { name: 'Comprovante para recurso da passagem por Praça Jacareí de 05/03/2026 12:04:05' }),
    );
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['recurso-passagem-501.pdf']));
    expect(asked[0]?.headers.get('authorization')).toBe('Bearer token-de-teste');
  });
});
