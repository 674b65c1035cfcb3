// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { formatBrl, messages, payoutNoticeMessages, serverMessages } from '@portal/domain';
import { get } from 'idb-keyval';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attentionQueryKey } from '../../../src/lib/attention';
import { OFFLINE_ACTIONS_DISABLED } from '../../../src/lib/offline';
import { OFFLINE_STORE_KEY } from '../../../src/lib/persist';
import { queryClient } from '../../../src/lib/queryClient';
import { connection, demoUser, mockApi, ok, renderRoute, signInStorage, statementRow, type MockReply } from '../../support/utils';
import { forgetKeptData } from '../../support/keptData';

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/app/routes/DashboardRoute')]);
});

afterEach(async () => {
  if (!connection.online) connection.set(true);
  await forgetKeptData();
});

const tagBlocked = (placa: string, serialNumber: string) => ({
  tipo: 'tag-bloqueada',
  Mensagem: serverMessages.attention.tagBlockedForFee(placa),
  placa,
  serialNumber,
});
const lowBalance = { tipo: 'saldo-baixo', Mensagem: serverMessages.attention.lowBalance('R$ 50,00'), saldo: 12.5, nivelAlerta: 50 };
const pendingPurchase = {
  tipo: 'compra-pendente',
  Mensagem: serverMessages.attention.pendingPurchase('R$ 150,00'),
  cobrancaId: 'chg_0123456789abcdef0123',
  valor: 150,
  expiraEm: '2026-11-22T20:00:00.000Z',
};

/** Decision 44: a key saved and a payout to it, as the server words them. */
const keySaved = {
  tipo: 'chave-pix-nova',
  Mensagem: payoutNoticeMessages.keySaved('CPF ***.444.777-**', '25/11/2026 23:00:00'),
  chaveId: 7,
  salvaEm: '2026-11-26T02:00:00.000Z',
};
const payout = {
  tipo: 'saque',
  Mensagem: payoutNoticeMessages.withdrawal(
    'R$ 500,00',
    'CPF ***.444.777-**',
    '25/11/2026 23:01:00',
    payoutNoticeMessages.withdrawalStatus.DONE,
  ),
  saqueId: 'wd_0123456789abcdef',
  valor: 500,
  status: 'DONE',
  criadoEm: '2026-11-26T02:01:00.000Z',
};

/** Decision 52: a VPO that could not pay its trip's passages; Saldo paid the rest. */
const shortVpo = {
  tipo: 'vpo-insuficiente',
  Mensagem: serverMessages.attention.shortVpo('Transportes Andrade', 'R$ 7,84'),
  vpoId: '41',
  embarcador: 'Transportes Andrade',
  pagoPeloSaldo: 7.84,
};

const lastThree = [
  statementRow({ transactionId: 30, placeName: 'Praça Jacareí', value: -12.4, created_at: '2026-11-21T15:04:05Z' }),
  statementRow({
    transactionId: 29,
    origin: 'compra-pix',
    placeName: 'COMPRA DE SALDO via PIX',
    value: 150,
    created_at: '2026-11-20T11:00:00Z',
    kind: 'compras',
    user_transaction: true,
    event: 'RECEIVED',
  }),
  statementRow({
    transactionId: 28,
    placeName: 'Praça Guararema',
    is_third: true,
    value: -8.9,
    created_at: '2026-11-19T09:30:00Z',
    kind: 'terceiros',
  }),
];

const attention = (Avisos: unknown[], UltimasMovimentacoes: unknown[] = lastThree) => ok({ Avisos, UltimasMovimentacoes });

function openDashboard(avisos: MockReply) {
  signInStorage({ terms: 'aceito' });
  const mock = mockApi({ 'GET /api/motorista/saldo': ok({ Saldo: 1234.56, SaldoTerceiro: 80 }), 'GET /api/motorista/avisos': avisos });
  return { mock, ...renderRoute('/dashboard') };
}

const noticesRegion = () => screen.queryByRole('region', { name: 'Avisos' });
const noticeLines = () => within(screen.getByRole('region', { name: 'Avisos' })).getAllByRole('listitem');

describe('/dashboard: what needs attention', () => {
  it('shows each notice with its way out, the most pressing first, two at a time until "Ver mais"', async () => {
    // The server's order is not trusted: a blocked tag comes before a low balance, then a waiting Pix.
    const { user } = openDashboard(attention([pendingPurchase, lowBalance, tagBlocked('ABC1D23', '1234567812345678')]));
    await screen.findByRole('region', { name: 'Avisos' });

    let lines = noticeLines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toHaveTextContent(messages.attention.tagBlockedShort('ABC1D23'));
    expect(within(lines[0]!).getByRole('link', { name: 'Liberar tag ABC1D23' })).toHaveAttribute('href', '/tags/detalhes/ABC1D23');
    expect(lines[1]).toHaveTextContent('Saldo abaixo do alerta de R$ 50,00');
    expect(within(lines[1]!).getByRole('link', { name: 'Comprar saldo' })).toHaveAttribute('href', '/saldo/comprar');
    expect(screen.queryByText('Compra de R$ 150,00 aguardando o Pix')).not.toBeInTheDocument();

    const more = screen.getByRole('button', { name: 'Ver mais (1)' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await user.click(more);
    lines = noticeLines();
    expect(lines).toHaveLength(3);
    expect(lines[2]).toHaveTextContent('Compra de R$ 150,00 aguardando o Pix');
    expect(within(lines[2]!).getByRole('link', { name: `Ver Pix da compra de ${formatBrl(15_000)}` })).toHaveAttribute(
      'href',
      '/saldo/comprar',
    );
    expect(screen.getByRole('button', { name: 'Ver menos' })).toHaveAttribute('aria-expanded', 'true');

    await user.click(screen.getByRole('button', { name: 'Ver menos' }));
    expect(noticeLines()).toHaveLength(2);
  });

  it('two notices need no "Ver mais"; several blocked tags each have their own link', async () => {
    openDashboard(attention([tagBlocked('ABC1D23', '1111111111111111'), tagBlocked('XYZ9K88', '2222222222222222')]));
    expect(await screen.findByRole('link', { name: 'Liberar tag XYZ9K88' })).toHaveAttribute('href', '/tags/detalhes/XYZ9K88');
    expect(screen.getByRole('link', { name: 'Liberar tag ABC1D23' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Ver mais/ })).not.toBeInTheDocument();
  });

  it('says nothing at all when there is nothing to say', async () => {
    openDashboard(attention([]));
    expect(await screen.findByRole('heading', { name: messages.attention.lastMovements })).toBeInTheDocument();
    expect(noticesRegion()).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /aviso/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Carregando avisos...')).not.toBeInTheDocument();
    expect(await screen.findByText('R$ 1.234,56')).toBeInTheDocument();
  });

  it('a failed call is only logged: the balance and the tiles stay, no notices, no movements box', async () => {
    openDashboard({ status: 500, body: { Sucesso: false, Mensagem: 'falhou' } });
    expect(await screen.findByText('R$ 1.234,56')).toBeInTheDocument();
    await waitFor(() => expect(queryClient.getQueryState(attentionQueryKey)?.status).toBe('error'), { timeout: 10_000 });
    expect(noticesRegion()).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: messages.attention.lastMovements })).not.toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Serviços' })).toBeInTheDocument();
  }, 15_000);

  it('issue 25: the notices come after the tiles, before the last movements; the title says how many, a tap away', async () => {
    const { user } = openDashboard(attention([tagBlocked('ABC1D23', '1234567812345678'), lowBalance, pendingPurchase]));
    const region = await screen.findByRole('region', { name: 'Avisos' });
    await screen.findByText('R$ 1.234,56');

    const headings = screen.getAllByRole('heading');
    expect(headings.map((h) => h.textContent)).toEqual([
      'Painel',
      'Saldo de pedágio',
      'Saldo em outras plataformas',
      messages.attention.lastMovements,
    ]);
    expect(within(region).queryByRole('heading')).not.toBeInTheDocument();

    const balance = screen.getByRole('heading', { name: 'Saldo de pedágio' });
    const after = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    const moneyAction = screen.getByRole('link', { name: 'Comprar créditos de pedágio' });
    const tiles = screen.getByRole('navigation', { name: 'Serviços' });
    expect(after(balance, moneyAction)).toBe(true);
    expect(after(moneyAction, tiles)).toBe(true);
    expect(after(tiles, region)).toBe(true);
    expect(after(region, screen.getByRole('region', { name: messages.attention.lastMovements }))).toBe(true);
    // Three notices, two lines until 'Ver mais'.
    expect(within(region).getAllByRole('listitem')).toHaveLength(2);

    // In the title's row: how many, in the tone of the most pressing (a blocked tag); it leads to them.
    const summary = screen.getByRole('button', { name: '3 avisos' });
    expect(after(screen.getByRole('heading', { name: 'Painel' }), summary)).toBe(true);
    expect(after(summary, balance)).toBe(true);
    expect(summary).toHaveAttribute('aria-controls', region.id);
    await user.click(summary);
    expect(region).toHaveFocus();
  });

  it("issue 25: the title's row says the notices are loading, then how many", async () => {
    signInStorage({ terms: 'aceito' });
    // Another driver: nothing kept on the phone by an earlier test (its last save may land after it ended).
    window.localStorage.setItem('user_data', JSON.stringify({ ...demoUser, id: 8 }));
    const { fetchMock } = mockApi({
      'GET /api/motorista/saldo': ok({ Saldo: 1234.56, SaldoTerceiro: 80 }),
      'GET /api/motorista/avisos': attention([lowBalance]),
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/api/motorista/avisos')) await held;
      return answer(input, init);
    });
    renderRoute('/dashboard');
    expect(await screen.findByText('Carregando avisos...')).toBeInTheDocument();
    release();
    expect(await screen.findByRole('button', { name: '1 aviso' })).toBeInTheDocument();
    expect(screen.queryByText('Carregando avisos...')).not.toBeInTheDocument();
  });
});

describe('/dashboard: a VPO that ran short (decision 52)', () => {
  it("says it in the server's words after the balance, before a waiting Pix, with the way to the VPOs", async () => {
    const { user } = openDashboard(attention([pendingPurchase, shortVpo, lowBalance]));
    await screen.findByRole('region', { name: 'Avisos' });
    await user.click(screen.getByRole('button', { name: 'Ver mais (1)' }));
    const lines = noticeLines();
    expect(lines.map((line) => line.getAttribute('data-tipo'))).toEqual(['saldo-baixo', 'vpo-41', 'pix-chg_0123456789abcdef0123']);
    expect(lines[1]).toHaveTextContent('VPO de Transportes Andrade insuficiente: R$ 7,84 pagos do seu saldo');
    const link = within(lines[1]!).getByRole('link', { name: 'Ver VPOs (VPO de Transportes Andrade)' });
    expect(link).toHaveAttribute('href', '/vpos/listar');
    expect(link).toHaveTextContent(messages.vpo.noticeAction);
  });

  it('offline the way to the VPOs stays (they are kept on the phone)', async () => {
    openDashboard(attention([shortVpo]));
    await screen.findByRole('link', { name: 'Ver VPOs (VPO de Transportes Andrade)' });
    connection.set(false);
    await screen.findByTestId('aviso-sem-conexao');
    expect(screen.getByRole('link', { name: 'Ver VPOs (VPO de Transportes Andrade)' })).toHaveAttribute('href', '/vpos/listar');
  });

  it('a last movement of a VPO carries its mark: whose VPO paid it, or that Saldo did', async () => {
    const vpoOf = (pagoPor: 'VPO' | 'SALDO') => ({ IdTransacao: '41', Embarcador: 'Transportes Andrade', pagoPor });
    openDashboard(
      attention(
        [],
        [
          statementRow({ transactionId: 40, origin: 'passagem', placeName: 'Praça Guararema', value: -7.84, vpo: vpoOf('SALDO') }),
          statementRow({
            transactionId: 39,
            origin: 'passagem-vpo',
            placeName: 'Praça Guararema',
            value: -22.16,
            kind: 'vpo',
            vpo: vpoOf('VPO'),
          }),
        ],
      ),
    );
    const section = await screen.findByRole('region', { name: messages.attention.lastMovements });
    // The rows, not the placeholders shown while the call runs.
    await within(section).findByText('Passagem por: Praça Guararema (paga pelo VPO)');
    const items = within(section).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Passagem por: Praça Guararema');
    expect(within(items[0]!).getByText(messages.vpo.paidBySaldo)).toBeInTheDocument();
    expect(items[1]).toHaveTextContent('Passagem por: Praça Guararema (paga pelo VPO)');
    expect(within(items[1]!).getByText('VPO de Transportes Andrade')).toBeInTheDocument();
  });
});

describe('/dashboard: what was done with the money (decision 44)', () => {
  it("says every key saved and every payout in the server's words, after the other notices, each with its way", async () => {
    const { user } = openDashboard(attention([payout, keySaved, lowBalance]));
    await screen.findByRole('region', { name: 'Avisos' });
    await user.click(screen.getByRole('button', { name: 'Ver mais (1)' }));
    const lines = noticeLines();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toHaveTextContent('Saldo abaixo do alerta de R$ 50,00');
    expect(lines[1]).toHaveTextContent(keySaved.Mensagem);
    expect(within(lines[1]!).getByRole('link', { name: 'Ver chaves Pix salvas' })).toHaveAttribute('href', '/configuracoes#chaves-pix');
    expect(within(lines[1]!).getByRole('link', { name: 'Ver chaves Pix salvas' })).toHaveTextContent('Ver chaves');
    expect(lines[2]).toHaveTextContent(payout.Mensagem);
    const receipt = within(lines[2]!).getByRole('link', { name: `Comprovante do saque de ${formatBrl(50_000)}` });
    expect(receipt).toHaveAttribute('href', '/comprovantes/saque/wd_0123456789abcdef');
    expect(receipt).toHaveTextContent('Comprovante');
  });

  it("the way to the keys opens Configurações at 'Minhas chaves Pix'", async () => {
    await import('../../../src/features/settings/SettingsPage');
    const { user, router } = openDashboard(attention([keySaved]));
    await user.click(await screen.findByRole('link', { name: 'Ver chaves Pix salvas' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/configuracoes'));
    expect(router.state.location.hash).toBe('#chaves-pix');
    expect(await screen.findByRole('heading', { name: 'Minhas chaves Pix' })).toBeInTheDocument();
  });
});

describe('/dashboard: last movements', () => {
  it('lists the three newest with the statement description, date and value, and links to the whole statement', async () => {
    openDashboard(attention([]));
    const section = await screen.findByRole('region', { name: messages.attention.lastMovements });
    const items = await within(section).findAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Passagem por: Praça Jacareí');
    expect(items[0]).toHaveTextContent('21/11/2026 12:04:05');
    expect(items[0]).toHaveTextContent('-R$ 12,40');
    expect(items[1]).toHaveTextContent('Compra de saldo via Pix');
    expect(items[1]).toHaveTextContent('R$ 150,00');
    expect(within(items[2]!).getByRole('button', { name: 'Passagem de Terceiro' })).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: messages.attention.seeStatement })).toHaveAttribute('href', '/extrato/listar');
  });

  it('says when there is none yet, still with the link', async () => {
    openDashboard(attention([], []));
    const section = await screen.findByRole('region', { name: messages.attention.lastMovements });
    expect(await within(section).findByText('Nenhuma movimentação ainda.')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: messages.attention.seeStatement })).toBeInTheDocument();
  });
});

describe('/dashboard offline', () => {
  it('keeps the notices and movements on the phone and shows them; actions needing the network are disabled, saying why', async () => {
    openDashboard(attention([tagBlocked('ABC1D23', '1234567812345678'), pendingPurchase]));
    await screen.findByRole('link', { name: 'Liberar tag ABC1D23' });
    await waitFor(async () => {
      const raw = await get<string>(OFFLINE_STORE_KEY);
      expect(raw ?? '').toContain(JSON.stringify(attentionQueryKey));
    });

    connection.set(false);
    await screen.findByTestId('aviso-sem-conexao');
    const release = screen.getByRole('button', { name: 'Liberar tag ABC1D23' });
    expect(release).toBeDisabled();
    expect(release).toHaveAccessibleDescription(expect.stringContaining(OFFLINE_ACTIONS_DISABLED));
    // Seeing the Pix already made needs no connection (it is kept on the phone by the purchase screen).
    expect(screen.getByRole('link', { name: `Ver Pix da compra de ${formatBrl(15_000)}` })).toHaveAttribute('href', '/saldo/comprar');
    expect(screen.getByText('Passagem por: Praça Jacareí')).toBeInTheDocument();

    connection.set(true);
    expect(await screen.findByRole('link', { name: 'Liberar tag ABC1D23' })).toBeInTheDocument();
  });
});

describe('/dashboard: the money actions', () => {
  function openWithBalance(Saldo: number) {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/motorista/saldo': ok({ Saldo, SaldoTerceiro: 0 }), 'GET /api/motorista/avisos': attention([], []) });
    return renderRoute('/dashboard');
  }

  it("with a negative balance 'Sacar saldo via Pix' is disabled, saying why as its form does; buying stays open", async () => {
    openWithBalance(-15.9);
    const sacar = await screen.findByRole('button', { name: 'Sacar saldo via Pix' });
    expect(sacar).toBeDisabled();
    expect(sacar).toHaveAccessibleDescription(messages.withdrawal.insufficientBalance);
    expect(screen.queryByRole('link', { name: 'Sacar saldo via Pix' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Comprar créditos de pedágio' })).toHaveAttribute('href', '/saldo/comprar');
  });

  it('at zero or above it is the way to the form', async () => {
    openWithBalance(0);
    expect(await screen.findByRole('link', { name: 'Sacar saldo via Pix' })).toHaveAttribute('href', '/saldo/retirar');
    expect(screen.queryByText(messages.withdrawal.insufficientBalance)).not.toBeInTheDocument();
  });
});
