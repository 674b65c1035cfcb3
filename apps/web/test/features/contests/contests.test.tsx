import { contestMessages, messages } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureDownloads, mockFile } from '../../support/files';
import {
  connection,
  mockApi,
  ok,
  pageUrls,
  renderRoute,
  signInStorage,
  statementRow,
  type MockReply,
  type RecordedCall,
} from '../../support/utils';
import { vpo as aVpo } from '../../support/vpo';
// Loaded up front: the lazy routes resolve at once, even on a busy machine.
import '../../../src/app/AuthenticatedShell';
import '../../../src/features/statement/StatementPage';
import '../../../src/features/vpos/VposListPage';
import '../../../src/features/contests/ContestsPage';
import '../../../src/app/routes/DashboardRoute';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  if (!connection.online) connection.set(true);
});

/** Decision 56: what a statement row or a VPO's passage says of its passage. */
const info = (over: Record<string, unknown> = {}) => ({
  id: 501,
  possivelDuplicada: false,
  contestavel: true,
  contestacao: null,
  ...over,
});

const opened = 'Contestação enviada. A operadora tem até 12/03/2026 12:04 para responder.';

/** A contest as the server answers it. */
const contest = (over: Record<string, unknown> = {}) => ({
  id: 31,
  passagem: {
    id: 501,
    externalId: 'p-1',
    serialNumber: '1234567890123456',
    pedagioSemCancela: false,
    placa: 'ABC1D23',
    praca: 'Praça Jacareí',
    valor: 12.4,
    dataPassagem: '2026-03-05T15:04:05Z',
    possivelDuplicada: false,
  },
  motivo: 'CATEGORIA',
  descricao: null,
  estado: 'ABERTA',
  atrasada: false,
  abertaEm: '2026-03-05T16:00:00Z',
  prazoResposta: '2026-03-12T16:00:00Z',
  respondidaEm: null,
  resposta: null,
  valorDevolvido: null,
  devolucoes: [],
  ...over,
});

const openAnswer = (call: RecordedCall): MockReply => ({
  status: 201,
  body: { Sucesso: true, Mensagem: opened, Contestacao: contest({ motivo: (call.body as { motivo: string }).motivo }) },
});

const statementRows = [
  statementRow({ transactionId: 1, placeName: 'Praça Jacareí', passagem: info() }),
  statementRow({ transactionId: 2, placeName: 'Praça Guararema', passagem: info({ id: 502, possivelDuplicada: true }) }),
  statementRow({
    transactionId: 3,
    placeName: 'Praça Arujá',
    passagem: info({ id: 503, contestavel: false, contestacao: { id: 30, estado: 'ABERTA', atrasada: false } }),
  }),
  statementRow({
    transactionId: 4,
    placeName: 'Praça Itaquaquecetuba',
    passagem: info({ id: 504, contestavel: false, contestacao: { id: 29, estado: 'ABERTA', atrasada: true } }),
  }),
  statementRow({
    transactionId: 5,
    origin: 'estorno-passagem',
    placeName: 'Praça Mogi',
    value: 9.6,
    passagem: info({ id: 505, contestavel: false, contestacao: { id: 28, estado: 'ACEITA', atrasada: false } }),
  }),
  statementRow({
    transactionId: 6,
    placeName: 'Praça Santa Isabel',
    passagem: info({ id: 506, contestavel: true, contestacao: { id: 27, estado: 'RECUSADA', atrasada: false } }),
  }),
  statementRow({ transactionId: 7, placeName: 'Praça Velha', passagem: info({ id: 507, contestavel: false }) }),
  statementRow({ transactionId: 8, origin: 'compra-pix', placeName: 'COMPRA DE SALDO via PIX', value: 50, kind: 'compras' }),
];

function rowOf(text: string): HTMLElement {
  return screen.getByText(text).closest('tr')!;
}

function openStatement(handlers: Record<string, MockReply | ((call: RecordedCall) => MockReply)> = {}, rows: unknown[] = statementRows) {
  signInStorage({ terms: 'aceito' });
  const api = mockApi({
    'GET /api/extrato/listar': ok({ Transacoes: rows, Paginacao: { TotalPaginas: 1 }, Totais: [] }),
    'POST /api/motorista/contestacoes': openAnswer,
    ...handlers,
  });
  return { api, ...renderRoute('/extrato/listar') };
}

describe('the statement: a passage and its contest (decision 56)', () => {
  it("shows each passage's state and 'Contestar' only where it can be contested", async () => {
    openStatement();
    await screen.findByText('Passagem por: Praça Jacareí');
    const contestButton = (text: string) => within(rowOf(text)).queryByRole('button', { name: /^Contestar/ });

    expect(contestButton('Passagem por: Praça Jacareí')).toHaveAccessibleName(
      'Contestar a passagem por Praça Jacareí de 05/03/2026 12:04:05',
    );
    expect(within(rowOf('Passagem por: Praça Jacareí')).queryByText(/Em análise|Aceita|Recusada|duplicada/)).not.toBeInTheDocument();

    expect(within(rowOf('Passagem por: Praça Guararema')).getByText('Possível cobrança duplicada')).toBeInTheDocument();
    expect(contestButton('Passagem por: Praça Guararema')).toBeInTheDocument();

    expect(within(rowOf('Passagem por: Praça Arujá')).getByText('Em análise')).toBeInTheDocument();
    expect(contestButton('Passagem por: Praça Arujá')).not.toBeInTheDocument();

    expect(within(rowOf('Passagem por: Praça Itaquaquecetuba')).getByText('Resposta atrasada')).toBeInTheDocument();
    expect(within(rowOf('Passagem por: Praça Itaquaquecetuba')).queryByText('Em análise')).not.toBeInTheDocument();

    const refund = rowOf('Passagem devolvida: Praça Mogi (contestação aceita)');
    expect(within(refund).getByText('Aceita')).toBeInTheDocument();
    expect(within(refund).queryByRole('button', { name: /^Contestar/ })).not.toBeInTheDocument();

    expect(within(rowOf('Passagem por: Praça Santa Isabel')).getByText('Recusada')).toBeInTheDocument();
    expect(contestButton('Passagem por: Praça Santa Isabel')).toBeInTheDocument();

    expect(contestButton('Passagem por: Praça Velha')).not.toBeInTheDocument();
    expect(within(rowOf('Passagem por: Praça Velha')).queryByText(/Em análise|Aceita|Recusada|duplicada/)).not.toBeInTheDocument();
    expect(within(rowOf('Compra de saldo via Pix')).queryByRole('button', { name: /^Contestar/ })).not.toBeInTheDocument();
  });

  it("the dialog: the passage, five reasons, 'Outro' needs a text; then the body with an Idempotency-Key, the toast and the row read again", async () => {
    let reads = 0;
    const { api, user } = openStatement({
      'GET /api/extrato/listar': () => {
        reads += 1;
        const first = statementRows[0]!;
        const row =
          reads === 1
            ? first
            : { ...first, passagem: info({ contestavel: false, contestacao: { id: 31, estado: 'ABERTA', atrasada: false } }) };
        return ok({ Transacoes: [row], Paginacao: { TotalPaginas: 1 }, Totais: [] });
      },
    });
    await user.click(await screen.findByRole('button', { name: /^Contestar a passagem por Praça Jacareí/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Contestar passagem' });
    const passage = within(dialog).getByRole('region', { name: 'Passagem' });
    expect(passage).toHaveTextContent('Praça Jacareí');
    expect(passage).toHaveTextContent('05/03/2026 12:04:05');
    expect(passage).toHaveTextContent('R$ 12,40');
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((radio) => radio.closest('div')?.parentElement?.textContent),
    ).toEqual([
      'Cobrança duplicada',
      'Categoria ou eixos diferentes do veículo',
      'O veículo não passou nesta praça',
      'Paga pelo VPO e debitada do saldo',
      'Outro',
    ]);
    // Not flagged: nothing chosen for the driver.
    expect(
      within(dialog)
        .getAllByRole('radio')
        .filter((radio) => (radio as HTMLInputElement).checked),
    ).toHaveLength(0);
    expect(dialog).toHaveTextContent(
      'A operadora tem até 7 dias para responder. Se ela aceitar, o valor volta para a conta que pagou a passagem.',
    );
    expect(within(dialog).getByRole('button', { name: 'Voltar' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Cancelar' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Enviar contestação' }));
    expect(await within(dialog).findByText(contestMessages.reasonInvalid)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('radio', { name: 'Outro' }));
    await user.click(within(dialog).getByRole('button', { name: 'Enviar contestação' }));
    expect(await within(dialog).findByText(contestMessages.textRequired)).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Descreva o motivo/ })).toHaveAttribute('maxlength', '500');
    expect(api.callsTo('POST', '/api/motorista/contestacoes')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /Descreva o motivo/ }), '  Cobrada como 9 eixos  ');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar contestação' }));

    expect(await screen.findByText(opened)).toBeInTheDocument();
    const [sent] = api.callsTo('POST', '/api/motorista/contestacoes');
    expect(sent?.body).toEqual({ passagemId: 501, motivo: 'OUTRO', descricao: 'Cobrada como 9 eixos' });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent?.headers.authorization).toBe('Bearer token-de-teste');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Contestar passagem' })).not.toBeInTheDocument());
    // The statement is read again: the row now says 'Em análise' and offers no second contest.
    await waitFor(() => expect(within(rowOf('Passagem por: Praça Jacareí')).getByText('Em análise')).toBeInTheDocument());
    expect(within(rowOf('Passagem por: Praça Jacareí')).queryByRole('button', { name: /^Contestar/ })).not.toBeInTheDocument();
    expect(reads).toBe(2);
  });

  it("a flagged passage comes with 'Cobrança duplicada' chosen; the text stays optional", async () => {
    const { api, user } = openStatement();
    await user.click(await screen.findByRole('button', { name: /^Contestar a passagem por Praça Guararema/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Contestar passagem' });
    expect(within(dialog).getByRole('radio', { name: 'Cobrança duplicada' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Enviar contestação' }));
    expect(await screen.findByText(opened)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/motorista/contestacoes')[0]?.body).toEqual({ passagemId: 502, motivo: 'DUPLICADA' });
  });

  it("'Voltar' closes the dialog and sends nothing", async () => {
    const { api, user } = openStatement();
    await user.click(await screen.findByRole('button', { name: /^Contestar a passagem por Praça Jacareí/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Contestar passagem' });
    await user.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Contestar passagem' })).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/motorista/contestacoes')).toHaveLength(0);
  });

  it("the server's refusals: a field's message under the field, any other in the error toast", async () => {
    let answer: MockReply = {
      status: 422,
      body: { Sucesso: false, Mensagem: 'Dados inválidos', errors: { descricao: ['Texto com caracteres inválidos'] } },
    };
    const { user } = openStatement({ 'POST /api/motorista/contestacoes': () => answer });
    await user.click(await screen.findByRole('button', { name: /^Contestar a passagem por Praça Jacareí/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Contestar passagem' });
    await user.click(within(dialog).getByRole('radio', { name: 'O veículo não passou nesta praça' }));
    await user.click(within(dialog).getByRole('button', { name: 'Enviar contestação' }));
    expect(await within(dialog).findByText('Texto com caracteres inválidos')).toBeInTheDocument();

    answer = { status: 409, body: { Sucesso: false, Mensagem: contestMessages.alreadyOpen } };
    await user.click(within(dialog).getByRole('button', { name: 'Enviar contestação' }));
    const toast = await screen.findByText(contestMessages.alreadyOpen);
    expect(toast.closest('[role="alert"]')).toHaveTextContent(messages.toast.errorTitle);
  });

  it("offline, 'Contestar' is disabled and points at the reason", async () => {
    openStatement();
    const button = await screen.findByRole('button', { name: /^Contestar a passagem por Praça Jacareí/ });
    connection.set(false);
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('aria-describedby', 'motivo-sem-conexao');
  });
});

describe("'Detalhes do VPO': a passage of the trip and its contest (decision 56)", () => {
  it("offers 'Contestar' once per passage (the whole value), and shows a contested one's state", async () => {
    signInStorage({ terms: 'aceito' });
    const vpo = aVpo({
      ValorTotalVP: 34.56,
      origem: null,
      destino: null,
      inicioViagem: null,
      fimViagem: null,
      idVpoAntt: null,
      rntrc: null,
      eixos: null,
      Restante: 0,
      PagoPeloSaldo: 7.84,
    });
    const Passagens = [
      { placeName: 'Praça Jacareí', occurredAt: '2026-03-06T13:00:00Z', value: 12.4, pagoPor: 'VPO', passagem: info({ id: 601 }) },
      { placeName: 'Praça Guararema', occurredAt: '2026-03-06T14:30:00Z', value: 22.16, pagoPor: 'VPO', passagem: info({ id: 602 }) },
      { placeName: 'Praça Guararema', occurredAt: '2026-03-06T14:30:00Z', value: 7.84, pagoPor: 'SALDO', passagem: info({ id: 602 }) },
      {
        placeName: 'Praça Arujá',
        occurredAt: '2026-03-06T15:30:00Z',
        value: 5,
        pagoPor: 'VPO',
        passagem: info({ id: 603, contestavel: false, contestacao: { id: 9, estado: 'ACEITA', atrasada: false } }),
      },
    ];
    const api = mockApi({
      'GET /api/pedagio/motoristaVpos': ok({ VPOS: [vpo], Paginacao: { TotalPaginas: 1 } }),
      'GET /api/pedagio/motoristaVpos/41': ok({ VPO: { ...vpo, externalId: 'e-1', Passagens } }),
      'POST /api/motorista/contestacoes': openAnswer,
    });
    const { user } = renderRoute('/vpos/listar');
    await user.click(await screen.findByText('ABC1D23'));
    const details = await screen.findByRole('dialog', { name: 'Detalhes do VPO' });
    await within(details).findByText('Praça Arujá');
    expect(
      within(details)
        .getAllByRole('button', { name: /^Contestar/ })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual([
      'Contestar a passagem por Praça Jacareí de 06/03/2026 10:00:00',
      'Contestar a passagem por Praça Guararema de 06/03/2026 11:30:00',
    ]);
    expect(within(details).getByText('Aceita')).toBeInTheDocument();

    await user.click(within(details).getByRole('button', { name: /^Contestar a passagem por Praça Guararema/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Contestar passagem' });
    // Both payments of the passage: 22,16 by the VPO and 7,84 from Saldo.
    expect(within(dialog).getByRole('region', { name: 'Passagem' })).toHaveTextContent('R$ 30,00');
    await user.click(within(dialog).getByRole('radio', { name: 'Paga pelo VPO e debitada do saldo' }));
    await user.click(within(dialog).getByRole('button', { name: 'Enviar contestação' }));
    expect(await screen.findByText(opened)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/motorista/contestacoes')[0]?.body).toEqual({ passagemId: 602, motivo: 'VPO_E_SALDO' });
    // The VPO's passages are read again, and its details stay open.
    await waitFor(() => expect(api.callsTo('GET', '/api/pedagio/motoristaVpos/41')).toHaveLength(2));
    expect(screen.getByRole('dialog', { name: 'Detalhes do VPO' })).toBeInTheDocument();
  });
});

describe('/contestacoes (decision 56)', () => {
  const listed = [
    contest({ id: 35, motivo: 'OUTRO', descricao: 'A tag foi lida duas vezes na mesma cabine' }),
    contest({ id: 34, atrasada: true, passagem: { ...contest().passagem, praca: 'Praça Arujá' } }),
    contest({
      id: 33,
      estado: 'ACEITA',
      respondidaEm: '2026-03-07T12:00:00Z',
      resposta: 'Categoria corrigida para 2 eixos',
      valorDevolvido: 22.4,
      devolucoes: [
        { destino: 'SALDO', embarcador: null, valor: 10 },
        { destino: 'VPO', embarcador: 'Transportes X', valor: 12.4 },
      ],
      passagem: { ...contest().passagem, praca: 'Praça Mogi' },
    }),
    contest({
      id: 32,
      estado: 'RECUSADA',
      respondidaEm: '2026-03-08T12:00:00Z',
      resposta: 'As imagens mostram o veículo na praça',
      passagem: { ...contest().passagem, praca: 'Praça Santa Isabel', placa: null },
    }),
  ];

  function openContests(reply: MockReply | ((call: RecordedCall) => MockReply), path = '/contestacoes') {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/motorista/contestacoes': reply });
    return { api, ...renderRoute(path) };
  }

  const card = (place: string) => screen.getByRole('article', { name: place });
  const field = (article: HTMLElement, label: string) => within(article).getByText(label, { selector: 'dt' }).nextElementSibling;

  it('shows each contest: passage, reason, dates, the answer and what was given back', async () => {
    const { api } = openContests(ok({ Contestacoes: listed, Paginacao: { TotalPaginas: 1 } }));
    expect(await screen.findByRole('heading', { name: 'Contestações', level: 1 })).toBeInTheDocument();
    expect(document.title).toBe('Contestações | Portal do Motorista');
    await screen.findByRole('article', { name: 'Praça Arujá' });
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('data-contest'))).toEqual(['35', '34', '33', '32']);

    const open = screen.getAllByRole('article', { name: 'Praça Jacareí' })[0]!;
    expect(within(open).getByText('Em análise')).toBeInTheDocument();
    expect(open).toHaveTextContent('05/03/2026 12:04:05');
    expect(open).toHaveTextContent('Placa ABC1D23');
    expect(open).toHaveTextContent('R$ 12,40');
    expect(field(open, 'Motivo')).toHaveTextContent('Outro“A tag foi lida duas vezes na mesma cabine”');
    expect(field(open, 'Aberta em')).toHaveTextContent('05/03/2026 13:00:00');
    expect(field(open, 'Responder até')).toHaveTextContent('12/03/2026 13:00:00');

    const late = card('Praça Arujá');
    expect(within(late).getAllByText('Resposta atrasada')).toHaveLength(2);
    expect(field(late, 'Resposta atrasada')).toHaveTextContent('O prazo era 12/03/2026 13:00:00');
    expect(within(late).queryByText('Responder até')).not.toBeInTheDocument();
    expect(field(late, 'Motivo')).toHaveTextContent('Categoria ou eixos diferentes do veículo');

    const accepted = card('Praça Mogi');
    expect(within(accepted).getByText('Aceita')).toBeInTheDocument();
    expect(field(accepted, 'Respondida em')).toHaveTextContent('07/03/2026 09:00:00');
    expect(field(accepted, 'Resposta da operadora')).toHaveTextContent('Categoria corrigida para 2 eixos');
    // Issue 33: where the money went, each part with its value.
    expect(field(accepted, 'Valor devolvido')).toHaveTextContent('R$ 22,40');
    expect(
      [...(field(accepted, 'Valor devolvido')?.querySelectorAll('li') ?? [])].map((li) => li.textContent?.replace(/\s+/g, ' ')),
    ).toEqual(['Devolvido ao seu saldo: R$ 10,00', 'Devolvido ao VPO de Transportes X: R$ 12,40']);

    const refused = card('Praça Santa Isabel');
    expect(within(refused).getByText('Recusada')).toBeInTheDocument();
    expect(field(refused, 'Resposta da operadora')).toHaveTextContent('As imagens mostram o veículo na praça');
    expect(within(refused).queryByText('Valor devolvido')).not.toBeInTheDocument();
    expect(refused).not.toHaveTextContent('Placa');

    expect(api.callsTo('GET', '/api/motorista/contestacoes')).toHaveLength(1);
  });

  it("'Baixar registro (PDF)' saves the contest's record under the server's name", async () => {
    const saved = captureDownloads();
    const { api, user } = openContests(ok({ Contestacoes: listed, Paginacao: { TotalPaginas: 1 } }));
    const asked = mockFile(api.fetchMock, '/api/motorista/contestacoes/33/pdf', {
      body: '%PDF-1.7',
      contentType: 'application/pdf',
      fileName: 'contestacao-33.pdf',
    });
    await screen.findByRole('article', { name: 'Praça Mogi' });
    await user.click(within(card('Praça Mogi')).getByRole('button', { name: /^Baixar registro \(PDF\)/ }));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['contestacao-33.pdf']));
    expect(asked[0]?.headers.get('authorization')).toBe('Bearer token-de-teste');
  });

  it('filters by state in the address, back on page 1, and pages by Paginacao', async () => {
    const { api, user, router } = openContests(
      ok({ Contestacoes: listed.slice(0, 1), Paginacao: { TotalPaginas: 3 } }),
      '/contestacoes?page=2',
    );
    await screen.findByRole('article');
    expect(screen.getByRole('button', { name: 'Página 3' })).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Estado' }), 'Aceita');
    await waitFor(() => expect(router.state.location.search).toBe('?estado=ACEITA'));
    await waitFor(() => expect(api.calls.some((call) => call.path === '/api/motorista/contestacoes')).toBe(true));
    expect(pageUrls(api.fetchMock)[0]).toBe('/api/motorista/contestacoes?page=2');
    await waitFor(() => expect(pageUrls(api.fetchMock)).toContain('/api/motorista/contestacoes?page=1&estado=ACEITA'));
  });

  it('with none yet, says how to contest a passage', async () => {
    openContests(ok({ Contestacoes: [], Paginacao: { TotalPaginas: 0 } }));
    expect(await screen.findByText('Para contestar uma passagem, abra o Extrato e toque em Contestar.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Abrir o extrato' })).toHaveAttribute('href', '/extrato/listar');
  });

  it("a failure says so, and 'Tentar novamente' asks again", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    const { user } = openContests(() => {
      calls += 1;
      // A 4xx is final (no automatic retries): the page says so at once.
      return calls === 1
        ? { status: 400, body: { Sucesso: false, Mensagem: 'Dados inválidos' } }
        : ok({ Contestacoes: listed, Paginacao: { TotalPaginas: 1 } });
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar as contestações.');
    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('article', { name: 'Praça Mogi' })).toBeInTheDocument();
    logged.mockRestore();
  });
});

describe("/dashboard: 'Possível cobrança duplicada' (decision 56)", () => {
  const duplicate = {
    tipo: 'cobranca-duplicada',
    Mensagem: 'Possível cobrança duplicada: Praça Jacareí, R$ 12,40 em 05/03/2026 12:04',
    passagemId: 502,
    praca: 'Praça Jacareí',
    valor: 12.4,
    dataPassagem: '2026-03-05T15:04:05Z',
  };

  it("'Contestar' contests it in one tap as a double charge; the toast, then the notice is gone", async () => {
    signInStorage({ terms: 'aceito' });
    let contested = false;
    const api = mockApi({
      'GET /api/motorista/saldo': ok({ Saldo: 100, SaldoTerceiro: 0 }),
      'GET /api/motorista/avisos': () => ok({ Avisos: contested ? [] : [duplicate], UltimasMovimentacoes: [] }),
      'POST /api/motorista/contestacoes': (call) => {
        contested = true;
        return openAnswer(call);
      },
    });
    const { user } = renderRoute('/dashboard');
    const region = await screen.findByRole('region', { name: 'Avisos' });
    const line = await within(region).findByText(duplicate.Mensagem);
    const notice = line.closest('li')!;
    expect(within(notice).getByRole('link', { name: 'Ver no extrato' })).toHaveAttribute('href', '/extrato/listar');
    const button = within(notice).getByRole('button', { name: /^Contestar a cobrança duplicada de R\$\s12,40 em Praça Jacareí$/ });
    await user.click(button);

    expect(await screen.findByText(opened)).toBeInTheDocument();
    const sent = api.callsTo('POST', '/api/motorista/contestacoes');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ passagemId: 502, motivo: 'DUPLICADA' });
    expect(sent[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByText(duplicate.Mensagem)).not.toBeInTheDocument());
    expect(api.callsTo('GET', '/api/motorista/avisos')).toHaveLength(2);
  });

  it('a refusal is told in the error toast and the notice stays', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/motorista/saldo': ok({ Saldo: 100, SaldoTerceiro: 0 }),
      'GET /api/motorista/avisos': ok({ Avisos: [duplicate], UltimasMovimentacoes: [] }),
      'POST /api/motorista/contestacoes': { status: 422, body: { Sucesso: false, Mensagem: contestMessages.windowClosed } },
    });
    const { user } = renderRoute('/dashboard');
    await user.click(await screen.findByRole('button', { name: /^Contestar a cobrança duplicada/ }));
    expect(await screen.findByText(contestMessages.windowClosed)).toBeInTheDocument();
    expect(screen.getByText(duplicate.Mensagem)).toBeInTheDocument();
  });
});
