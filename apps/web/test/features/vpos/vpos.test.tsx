import { messages } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_REASON_ID } from '../../../src/lib/offline';
import { captureDownloads, mockFile } from '../../support/files';
import { connection, mockApi, ok, pageUrls, renderRoute, signInStorage, type MockReply } from '../../support/utils';
import { vpo } from '../../support/vpo';
// Loaded up front: the lazy route resolves at once, even on a busy machine.
import '../../../src/features/vpos/VposListPage';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  if (!connection.online) connection.set(true);
});

const rows = [
  vpo({}),
  vpo({
    IdTransacao: '42',
    PlacaVeiculo: 'XYZ9876',
    ValorTotalVP: 80,
    created_at: '2026-03-04T10:00:00Z',
    Status: 'EMITIDO',
    origem: null,
    destino: null,
    inicioViagem: null,
    fimViagem: null,
    idVpoAntt: null,
    rntrc: null,
    eixos: null,
    Utilizado: 0,
    Restante: 80,
  }),
];

/** GET /api/pedagio/motoristaVpos/:id: the VPO with its trip's passages. */
const detailsOk = (over: Record<string, unknown> = {}, Passagens: unknown[] = []) =>
  ok({ VPO: { ...vpo(over), externalId: 'embarque-7781', Passagens } });

const listOk = (totalPages = 1) => ok({ VPOS: rows, Paginacao: { TotalPaginas: totalPages } });
const urls = (api: ReturnType<typeof mockApi>) => pageUrls(api.fetchMock);
const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });

describe('/vpos/listar', () => {
  it('shows title, subtitle, hint and Valor, Placa, Rota, Restante, Data, newest first by default', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/pedagio/motoristaVpos': listOk() });
    renderRoute('/vpos/listar');
    expect(await screen.findByText('ABC1D23')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'VPOs', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Listagem de VPOs')).toBeInTheDocument();
    expect(screen.getByText('Clique em cima do VPO para ver mais detalhes')).toBeInTheDocument();
    expect(document.title).toBe('VPOs | Portal do Motorista');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Valor', 'Placa', 'Rota', 'Restante', 'Data']);

    const first = screen.getByText('ABC1D23').closest('tr')!;
    expect(within(first).getByText('R$ 1.234,56')).toBeInTheDocument();
    expect(within(first).getByText('05/03/2026 12:04:05')).toBeInTheDocument();
    // Decision 52: the route, what the VPO still holds and, under it, what it paid so far.
    const cell = (row: HTMLElement, label: string) => row.querySelector(`td[data-label="${label}"]`);
    expect(cell(first, 'Rota')).toHaveTextContent('Campinas (SP) – Santos (SP)');
    expect(cell(first, 'Restante')).toHaveTextContent(/^R\$\s1\.200,00Utilizado: R\$\s34,56$/);
    const second = screen.getByText('XYZ9876').closest('tr')!;
    expect(second).toHaveTextContent('R$ 80,00');
    expect(cell(second, 'Rota')).toHaveTextContent(messages.vpo.routeUnknown);
    expect(cell(second, 'Restante')).toHaveTextContent(/^R\$\s80,00Utilizado: R\$\s0,00$/);

    // The server's default order is shown as such.
    expect(header('Data')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Valor')).not.toHaveAttribute('aria-sort');
    expect(urls(api)).toEqual(['/api/pedagio/motoristaVpos?page=1&sort=data&direction=desc']);
  });

  it('sorts by the server: a header click asks for that column ascending, a second click descending, from page 1', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/pedagio/motoristaVpos': listOk(3) });
    const { user, router } = renderRoute('/vpos/listar?page=2');
    await screen.findByText('ABC1D23');
    expect(urls(api)[0]).toBe('/api/pedagio/motoristaVpos?page=2&sort=data&direction=desc');

    await user.click(screen.getByRole('button', { name: 'Valor' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=valor&direction=asc'));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=valor&direction=asc'));
    await waitFor(() => expect(header('Valor')).toHaveAttribute('aria-sort', 'ascending'));
    expect(header('Data')).not.toHaveAttribute('aria-sort');
    // The header keeps the keyboard focus while the new order loads.
    expect(screen.getByRole('button', { name: 'Valor' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Valor' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=valor&direction=desc'));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=valor&direction=desc'));
    await waitFor(() => expect(header('Valor')).toHaveAttribute('aria-sort', 'descending'));

    // Paging keeps the order.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Página 3' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Página 3' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=valor&direction=desc&page=3'));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=3&sort=valor&direction=desc'));

    // Another column starts ascending, back on page 1.
    await user.click(screen.getByRole('button', { name: 'Placa' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=placa&direction=asc'));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=placa&direction=asc'));
    await waitFor(() => expect(header('Placa')).toHaveAttribute('aria-sort', 'ascending'));

    await user.click(screen.getByRole('button', { name: 'Data' }));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=data&direction=asc'));
    await user.click(screen.getByRole('button', { name: 'Data' }));
    // Back to the default order: the URL is clean again.
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it("phones sort with one 'Ordenar por' select: each column in each direction, in words", async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/pedagio/motoristaVpos': listOk(2) });
    const { user, router } = renderRoute('/vpos/listar?page=2');
    await screen.findByText('ABC1D23');
    const select = screen.getByLabelText('Ordenar por');
    expect(select).toHaveValue('data:desc');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Valor (menor primeiro)',
      'Valor (maior primeiro)',
      'Placa (A a Z)',
      'Placa (Z a A)',
      'Data (mais antigos)',
      'Data (mais recentes)',
    ]);

    await user.selectOptions(select, 'Placa (Z a A)');
    await waitFor(() => expect(router.state.location.search).toBe('?sort=placa&direction=desc'));
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=placa&direction=desc'));
    await waitFor(() => expect(screen.getByLabelText('Ordenar por')).toHaveValue('placa:desc'));
    await user.selectOptions(screen.getByLabelText('Ordenar por'), 'Valor (menor primeiro)');
    await waitFor(() => expect(urls(api)).toContain('/api/pedagio/motoristaVpos?page=1&sort=valor&direction=asc'));
    await waitFor(() => expect(header('Valor')).toHaveAttribute('aria-sort', 'ascending'));
  });

  it.each([
    { name: 'an unknown column', search: '?sort=nome&direction=asc', asked: 'page=1&sort=data&direction=asc' },
    { name: 'an unknown direction', search: '?sort=placa&direction=lado', asked: 'page=1&sort=placa&direction=desc' },
    { name: 'a page that is not a number', search: '?page=abc', asked: 'page=1&sort=data&direction=desc' },
    { name: 'all three wrong', search: '?sort=nome&direction=lado&page=abc', asked: 'page=1&sort=data&direction=desc' },
  ])('$name in the URL falls back to the default for it ($asked)', async ({ search, asked }) => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ 'GET /api/pedagio/motoristaVpos': listOk() });
    renderRoute(`/vpos/listar${search}`);
    await screen.findByText('ABC1D23');
    expect(urls(api)).toEqual([`/api/pedagio/motoristaVpos?${asked}`]);
  });

  it("a row opens 'Detalhes do VPO' with every field, read-only; 'Fechar' closes it; Enter and Space open it too", async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/pedagio/motoristaVpos': listOk(),
      'GET /api/pedagio/motoristaVpos/41': detailsOk(),
      'GET /api/pedagio/motoristaVpos/42': detailsOk(rows[1]),
    });
    const { user } = renderRoute('/vpos/listar');
    await user.click(await screen.findByText('ABC1D23'));

    const dialog = await screen.findByRole('dialog', { name: 'Detalhes do VPO' });
    const value = (label: string) => within(dialog).getByText(label).nextElementSibling;
    expect(value('Número da Tag')).toHaveTextContent('1234 5678 9012 3456');
    expect(value('Placa do Veículo')).toHaveTextContent('ABC1D23');
    expect(value('Embarcador')).toHaveTextContent('11.222.333/0001-81');
    expect(value('Valor')).toHaveTextContent('R$ 1.234,56');
    expect(value('Data')).toHaveTextContent('05/03/2026 12:04:05');
    expect(value('Status')).toHaveTextContent('Em viagem');
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const second = screen.getByRole('row', { name: /placa XYZ9876/ });
    expect(second).toHaveAccessibleName(
      /^VPO de R\$\s80,00, placa XYZ9876, Rota não informada, restante R\$\s80,00, 04\/03\/2026 07:00:00, tag 1234 5678 9012 3456: ver detalhes$/,
    );
    second.focus();
    await user.keyboard('{Enter}');
    let details = await screen.findByRole('dialog', { name: 'Detalhes do VPO' });
    expect(within(details).getByText('Emitido')).toBeInTheDocument();
    expect(within(details).getByText('Valor').nextElementSibling).toHaveTextContent('R$ 80,00');
    await user.click(within(details).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    screen.getByRole('row', { name: /placa ABC1D23/ }).focus();
    await user.keyboard(' ');
    details = await screen.findByRole('dialog', { name: 'Detalhes do VPO' });
    expect(within(details).getByText('Em viagem')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('an unknown status is shown as it came', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/pedagio/motoristaVpos': ok({ VPOS: [vpo({ Status: 'PENDENTE_X' })], Paginacao: { TotalPaginas: 1 } }),
      'GET /api/pedagio/motoristaVpos/41': detailsOk({ Status: 'PENDENTE_X' }),
    });
    const { user } = renderRoute('/vpos/listar');
    await user.click(await screen.findByText('ABC1D23'));
    const dialog = await screen.findByRole('dialog', { name: 'Detalhes do VPO' });
    expect(within(dialog).getByText('PENDENTE_X')).toBeInTheDocument();
  });

  it("Sucesso false logs Mensagem and empties the list: 'Nenhum item.', no pages; the page says why, with 'Tentar novamente'", async () => {
    signInStorage({ terms: 'aceito' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({
      'GET /api/pedagio/motoristaVpos': {
        status: 200,
        body: { Sucesso: false, Mensagem: 'Serviço de VPO indisponível', VPOS: rows, Paginacao: { TotalPaginas: 4 } },
      },
    });
    renderRoute('/vpos/listar');
    expect(await screen.findByText('Nenhum item.')).toBeInTheDocument();
    expect(screen.queryByText('ABC1D23')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Página 2' })).not.toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(messages.readFailed.vpos);
    expect(within(alert).getByRole('button', { name: 'Tentar novamente' })).toBeInTheDocument();
    await waitFor(() => expect(logged).toHaveBeenCalledWith(expect.any(String), 'Serviço de VPO indisponível'));
    logged.mockRestore();
  });

  it("a failed request is logged, the table says 'Nenhum item.', and 'Tentar novamente' reads the list again", async () => {
    signInStorage({ terms: 'aceito' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    mockApi({
      'GET /api/pedagio/motoristaVpos': () => {
        calls += 1;
        return calls === 1
          ? { status: 400, body: { Sucesso: false, Mensagem: 'Dados inválidos' } }
          : ok({ VPOS: rows, Paginacao: { TotalPaginas: 1 } });
      },
    });
    const { user } = renderRoute('/vpos/listar');
    expect(await screen.findByText('Nenhum item.')).toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(messages.readFailed.vpos);
    expect(logged).toHaveBeenCalled();
    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect((await screen.findAllByText('ABC1D23')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    logged.mockRestore();
  });
});

describe("'Detalhes do VPO': the trip, its money and its passages (decision 52)", () => {
  const passages = [
    { placeName: 'Praça Jacareí', occurredAt: '2026-03-06T13:00:00Z', value: 12.4, pagoPor: 'VPO', passagem: null },
    { placeName: 'Praça Guararema', occurredAt: '2026-03-06T14:30:00Z', value: 22.16, pagoPor: 'VPO', passagem: null },
    { placeName: 'Praça Guararema', occurredAt: '2026-03-06T14:30:00Z', value: 7.84, pagoPor: 'SALDO', passagem: null },
  ];
  const shortVpo = { Utilizado: 34.56, Restante: 0, Devolvido: 0, PagoPeloSaldo: 7.84, ValorTotalVP: 34.56, Status: 'EM_VIAGEM' };

  async function openDetails(
    details: MockReply | (() => MockReply),
    listed: Record<string, unknown> = {},
    prepare: (fetchMock: ReturnType<typeof mockApi>['fetchMock']) => void = () => undefined,
  ) {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({
      'GET /api/pedagio/motoristaVpos': ok({ VPOS: [vpo(listed)], Paginacao: { TotalPaginas: 1 } }),
      'GET /api/pedagio/motoristaVpos/41': details,
    });
    prepare(api.fetchMock);
    const { user } = renderRoute('/vpos/listar');
    await user.click(await screen.findByText('ABC1D23'));
    const dialog = await screen.findByRole('dialog', { name: 'Detalhes do VPO' });
    return { api, user, dialog, value: (label: string) => within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling };
  }

  it('shows the shipper, the route, the window, the money, the ANTT identifiers and each passage with who paid it', async () => {
    const { api, dialog, value } = await openDetails(detailsOk(shortVpo, passages));
    const list = await within(dialog).findByRole('list');
    expect(api.callsTo('GET', '/api/pedagio/motoristaVpos/41')).toHaveLength(1);
    expect(api.callsTo('GET', '/api/pedagio/motoristaVpos/41')[0]?.headers.authorization).toBe('Bearer token-de-teste');

    // The six of the specification stay.
    expect(value('Número da Tag')).toHaveTextContent('1234 5678 9012 3456');
    expect(value('Placa do Veículo')).toHaveTextContent('ABC1D23');
    expect(value('Embarcador')).toHaveTextContent('11.222.333/0001-81');
    expect(value('Status')).toHaveTextContent('Em viagem');
    // Decision 52's, with the VPO's figures as it answered (fresher than the list's).
    expect(value('Nome do embarcador')).toHaveTextContent('Transportes Andrade');
    expect(value('Rota')).toHaveTextContent('Campinas (SP) – Santos (SP)');
    expect(value('Janela da viagem')).toHaveTextContent('05/03/2026 12:00:00 a 20/03/2026 12:00:00');
    expect(
      within(value('Janela da viagem') as HTMLElement)
        .getAllByText(/\/2026/)
        .map((t) => t.tagName),
    ).toEqual(['TIME', 'TIME']);
    expect(value('Valor')).toHaveTextContent('R$ 34,56');
    expect(value('Utilizado')).toHaveTextContent('R$ 34,56');
    expect(value('Restante')).toHaveTextContent('R$ 0,00');
    expect(value('Devolvido ao embarcador')).toHaveTextContent('R$ 0,00');
    expect(value('Identificador na ANTT')).toHaveTextContent('ANTT-2026/000123');
    expect(value('RNTRC do transportador')).toHaveTextContent('123456789');
    expect(value('Categoria (eixos)')).toHaveTextContent('5 eixos');

    // What Saldo paid because the VPO ran short: highlighted as a warning.
    const fromSaldo = within(dialog).getByText('Pago do seu saldo', { selector: 'dt' }).parentElement!;
    expect(fromSaldo).toHaveAttribute('data-warning', 'true');
    expect(fromSaldo).toHaveTextContent('R$ 7,84');

    // The passages, oldest first, each with who paid it; the Saldo one marked.
    expect(within(dialog).getByRole('heading', { name: 'Passagens da viagem', level: 3 })).toBeInTheDocument();
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Praça Jacareí');
    expect(items[0]).toHaveTextContent('06/03/2026 10:00:00');
    expect(items[0]).toHaveTextContent('R$ 12,40');
    expect(items[0]).toHaveTextContent(messages.vpo.paidByVpo);
    expect(items[0]).toHaveAttribute('data-paid-by', 'VPO');
    expect(items[1]).toHaveTextContent(/Praça Guararema.*R\$\s22,16.*Paga pelo VPO/);
    expect(items[2]).toHaveTextContent('R$ 7,84');
    expect(items[2]).toHaveTextContent(messages.vpo.paidBySaldo);
    expect(items[2]).toHaveAttribute('data-paid-by', 'SALDO');
    expect(within(items[2]!).getByText(messages.vpo.paidBySaldo).closest('[data-paid-by]')).toHaveAttribute('data-paid-by', 'SALDO');

    expect(within(dialog).getByRole('button', { name: messages.vpo.exportPdf })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Fechar' })).toBeInTheDocument();
  });

  it("nothing paid from Saldo: no such line; a VPO without a window or identifiers shows '—'; no passages yet says so", async () => {
    const legacy = { inicioViagem: null, fimViagem: null, idVpoAntt: null, rntrc: null, eixos: null, origem: null, destino: null };
    const { dialog, value } = await openDetails(detailsOk(legacy), legacy);
    expect(await within(dialog).findByText(messages.vpo.passagesEmpty)).toBeInTheDocument();
    expect(within(dialog).queryByText('Pago do seu saldo')).not.toBeInTheDocument();
    expect(value('Rota')).toHaveTextContent(messages.vpo.routeUnknown);
    for (const label of ['Janela da viagem', 'Identificador na ANTT', 'RNTRC do transportador', 'Categoria (eixos)']) {
      expect(value(label)).toHaveTextContent(/^—$/);
    }
  });

  it('says the passages are loading and shows the figures of the list meanwhile, then the VPO as it answered', async () => {
    let release: () => void = () => undefined;
    const { dialog, value } = await openDetails(detailsOk(shortVpo, passages), {}, (fetchMock) => {
      const json = fetchMock.getMockImplementation()!;
      fetchMock.mockImplementation(async (input, init) => {
        if (new URL(String(input), 'http://localhost').pathname === '/api/pedagio/motoristaVpos/41') {
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        }
        return json(input, init);
      });
    });
    const section = within(dialog).getByRole('region', { name: 'Passagens da viagem' });
    expect(section).toHaveAttribute('aria-busy', 'true');
    expect(within(section).getByRole('status')).toHaveTextContent(messages.vpo.passagesLoading);
    expect(value('Restante')).toHaveTextContent('R$ 1.200,00');

    release();
    expect(await within(dialog).findByText('Praça Jacareí')).toBeInTheDocument();
    expect(section).toHaveAttribute('aria-busy', 'false');
    expect(within(dialog).queryByText(messages.vpo.passagesLoading)).not.toBeInTheDocument();
    expect(value('Restante')).toHaveTextContent('R$ 0,00');
  });

  it("a failed read says so with 'Tentar novamente', keeping the list's figures; trying again shows the passages", async () => {
    let calls = 0;
    const { dialog, user, value } = await openDetails(() => {
      calls += 1;
      return calls === 1 ? { status: 404, body: { Sucesso: false, Mensagem: 'VPO não encontrado' } } : detailsOk({}, passages.slice(0, 1));
    });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(messages.vpo.detailsFailed);
    expect(value('Restante')).toHaveTextContent('R$ 1.200,00');

    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await within(dialog).findByText('Praça Jacareí')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it("'Baixar registro do VPO (PDF)' saves the record under the server's name; a refusal is told; offline it is disabled, saying why", async () => {
    const saved = captureDownloads();
    const { api, dialog, user } = await openDetails(detailsOk());
    const path = '/api/pedagio/motoristaVpos/41/pdf';
    const asked = mockFile(api.fetchMock, path, { body: '%PDF-1.7', contentType: 'application/pdf', fileName: 'vpo-41.pdf' });
    const button = within(dialog).getByRole('button', { name: messages.vpo.exportPdf });
    await user.click(button);
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['vpo-41.pdf']));
    expect(asked[0]?.headers.get('authorization')).toBe('Bearer token-de-teste');
    expect(asked[0]?.headers.get('accept')).toContain('application/pdf');

    mockFile(
      api.fetchMock,
      path,
      async () =>
        new Response(JSON.stringify({ Sucesso: false, Mensagem: 'VPO não encontrado' }), {
          status: 404,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    await user.click(button);
    expect(await screen.findByText('VPO não encontrado')).toBeInTheDocument();
    expect(saved).toHaveLength(1);

    connection.set(false);
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-describedby', OFFLINE_REASON_ID);
    expect(document.getElementById(OFFLINE_REASON_ID)).toHaveTextContent('As ações que precisam de internet estão desativadas');
  });
});
