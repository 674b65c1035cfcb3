import 'fake-indexeddb/auto';
import { dualControlMessages, formatBrl } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok, renderRoute, type RecordedCall } from '../../support/utils';
import { asRole, COMPANY_ID, onScreen } from './fixtures';
import { forgetKeptData } from '../../support/keptData';

beforeAll(async () => {
  await Promise.all([
    import('../../../src/app/AuthenticatedShell'),
    import('../../../src/app/routes/DashboardRoute'),
    import('../../../src/features/fleet/DualControlPage'),
  ]);
});

afterEach(forgetKeptData);

/** An amount as the app writes it in an accessible name (formatBrl's no-break space kept). */
const brl = (reais: number) => formatBrl(Math.round(reais * 100));

const withdrawal = (over: Record<string, unknown>) => ({
  id: 1,
  valor: 8000,
  chave: 'E-mail f***@transportes.com.br',
  descricao: 'Saque Portal do Motorista',
  pedidoPor: 'Ana Lima',
  pedidoEm: '2026-11-20T13:00:00.000Z',
  expiraEm: '2026-11-21T13:00:00.000Z',
  estado: 'PENDENTE',
  decididoPor: null,
  decididoEm: null,
  podeAprovar: true,
  ...over,
});

const card = (name: RegExp) => screen.findByRole('article', { name });

describe('decision 77 /empresa/dupla-aprovacao', () => {
  it('shows the value in force and the change waiting, and the withdrawals, the pending ones first, with who asked and until when', async () => {
    asRole('gestor', {
      'GET /api/empresa/aprovacao-saques': ok({
        limite: 5000,
        pendente: { valor: 10000, aPartirDe: '2026-11-21T13:00:00.000Z' },
        Saques: [
          withdrawal({
            id: 3,
            valor: 6000,
            estado: 'APROVADO',
            decididoPor: 'Carlos Dias',
            decididoEm: '2026-11-20T14:00:00.000Z',
            podeAprovar: false,
          }),
          withdrawal({ id: 2, valor: 7000, podeAprovar: false }),
          withdrawal({ id: 1, valor: 9000, estado: 'EXPIRADO', expiraEm: '2026-11-19T13:00:00.000Z', podeAprovar: false }),
        ],
      }),
    });
    renderRoute('/empresa/dupla-aprovacao');
    expect(await screen.findByText(onScreen('Saques acima de R$ 5.000,00 esperam a aprovação de outro Gestor.'))).toBeInTheDocument();
    expect(screen.getByText(onScreen('A partir de 21/11/2026 10:00:00 passa a R$ 10.000,00.'))).toBeInTheDocument();
    // The field starts from the value asked last (the raise waiting).
    expect(screen.getByLabelText('Saques acima de')).toHaveValue('10.000,00');

    const [pending, approved, expired] = screen.getAllByRole('article');
    expect(pending).toHaveAccessibleName(brl(7000));
    expect(pending).toHaveTextContent('Aguardando aprovação');
    expect(pending).toHaveTextContent('E-mail f***@transportes.com.br');
    expect(pending).toHaveTextContent('Ana Lima · 20/11/2026 10:00:00');
    expect(pending).toHaveTextContent('Expira em21/11/2026 10:00:00');
    // Asked by the signed-in Gestor: why they may not approve it, and no buttons.
    expect(pending).toHaveTextContent('Quem pediu o saque não pode aprová-lo.');
    expect(within(pending!).queryByRole('button')).not.toBeInTheDocument();

    expect(approved).toHaveTextContent('Aprovado');
    expect(approved).toHaveTextContent('Carlos Dias · 20/11/2026 11:00:00');
    expect(approved).not.toHaveTextContent('Quem pediu o saque não pode aprová-lo.');
    expect(within(approved!).queryByRole('button')).not.toBeInTheDocument();
    expect(approved).not.toHaveTextContent('Expira em');

    expect(expired).toHaveTextContent('Expirado sem aprovação');
    expect(expired).toHaveTextContent('Expirou em19/11/2026 10:00:00');
    expect(within(expired!).queryByRole('button')).not.toBeInTheDocument();
  });

  it("approves another Gestor's withdrawal only after the confirmation, and says the server's Mensagem", async () => {
    let estado = 'PENDENTE';
    const api = asRole('gestor', {
      'GET /api/empresa/aprovacao-saques': () =>
        ok({ limite: 5000, pendente: null, Saques: [withdrawal({ estado, podeAprovar: estado === 'PENDENTE' })] }),
      'POST /api/empresa/aprovacao-saques/1/aprovar': () => {
        estado = 'APROVADO';
        return ok({ Mensagem: dualControlMessages.approved, withdrawalId: 'wd_9', status: 'DONE' });
      },
    });
    const { user } = renderRoute('/empresa/dupla-aprovacao');
    const pending = within(await card(/8\.000,00/));
    await user.click(pending.getByRole('button', { name: `Aprovar o saque de ${brl(8000)}` }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      onScreen('Aprovar o saque de R$ 8.000,00 para E-mail f***@transportes.com.br? O dinheiro sai da conta da empresa na hora.'),
    );
    expect(api.callsTo('POST', '/api/empresa/aprovacao-saques/1/aprovar')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Aprovar' }));

    expect(await screen.findByText(dualControlMessages.approved)).toBeInTheDocument();
    const [sent] = api.callsTo('POST', '/api/empresa/aprovacao-saques/1/aprovar');
    expect(sent?.headers['x-conta']).toBe(String(COMPANY_ID));
    expect(sent?.headers['idempotency-key']).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('article')).toHaveTextContent('Aprovado'));
    expect(screen.queryByRole('button', { name: /Aprovar o saque/ })).not.toBeInTheDocument();
  });

  it('declines a pending withdrawal: nothing leaves the account, and the server says so', async () => {
    let estado = 'PENDENTE';
    const api = asRole('gestor', {
      'GET /api/empresa/aprovacao-saques': () =>
        ok({ limite: 5000, pendente: null, Saques: [withdrawal({ estado, podeAprovar: estado === 'PENDENTE' })] }),
      'POST /api/empresa/aprovacao-saques/1/recusar': () => {
        estado = 'RECUSADO';
        return ok({ Mensagem: dualControlMessages.declined });
      },
    });
    const { user } = renderRoute('/empresa/dupla-aprovacao');
    await user.click(within(await card(/8\.000,00/)).getByRole('button', { name: `Recusar o saque de ${brl(8000)}` }));
    expect(await screen.findByText(dualControlMessages.declined)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/empresa/aprovacao-saques/1/recusar')).toHaveLength(1);
    expect(api.callsTo('POST', '/api/empresa/aprovacao-saques/1/aprovar')).toHaveLength(0);
    await waitFor(() => expect(screen.getByRole('article')).toHaveTextContent('Recusado'));
  });

  it('sets the value (the contract refusing what it would refuse) and turns it off', async () => {
    let limite: number | null = null;
    const api = asRole('gestor', {
      'GET /api/empresa/aprovacao-saques': () => ok({ limite, pendente: null, Saques: [] }),
      'POST /api/empresa/aprovacao-saques': (call: RecordedCall) => {
        limite = (call.body as { valor: number | null }).valor;
        const Mensagem = limite === null ? dualControlMessages.thresholdOff : dualControlMessages.thresholdSet('R$ 2.500,00');
        return ok({ Mensagem, limite, pendente: null, Saques: [] });
      },
    });
    const { user } = renderRoute('/empresa/dupla-aprovacao');
    expect(await screen.findByText('Desligada: os saques saem sem a aprovação de outro Gestor.')).toBeInTheDocument();
    expect(screen.getByText('Nenhum saque da empresa esperou a aprovação de outro Gestor até agora.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Desligar' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Salvar valor' }));
    expect(await screen.findByText(dualControlMessages.thresholdInvalid)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/empresa/aprovacao-saques')).toHaveLength(0);

    await user.type(screen.getByLabelText('Saques acima de'), '250000');
    await user.click(screen.getByRole('button', { name: 'Salvar valor' }));
    expect(await screen.findByText(onScreen(dualControlMessages.thresholdSet('R$ 2.500,00')))).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/empresa/aprovacao-saques')[0]?.body).toEqual({ valor: 2500 });
    expect(await screen.findByText(onScreen('Saques acima de R$ 2.500,00 esperam a aprovação de outro Gestor.'))).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Desligar' }));
    expect(await screen.findByText(dualControlMessages.thresholdOff)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/empresa/aprovacao-saques')[1]?.body).toEqual({ valor: null });
    expect(await screen.findByText('Desligada: os saques saem sem a aprovação de outro Gestor.')).toBeInTheDocument();
  });

  it('a Financeiro is told the page is not theirs, and nothing is asked', async () => {
    const api = asRole('financeiro', {});
    renderRoute('/empresa/dupla-aprovacao');
    expect(await screen.findByText('Página do Gestor da empresa')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(api.callsTo('GET', '/api/empresa/aprovacao-saques')).toHaveLength(0);
  });
});

// A Financeiro's menu (only Centros de custo) is dashboard.test.tsx's.
describe("decision 77: the company's menu offers the new pages to the roles allowed", () => {
  const dashboardReads = {
    'GET /api/motorista/saldo': ok({ Saldo: 1234.56, SaldoTerceiro: 80 }),
    'GET /api/motorista/avisos': ok({ Avisos: [], UltimasMovimentacoes: [] }),
  };
  it('a Gestor: Centros de custo and Dupla aprovação, beside the other pages', async () => {
    asRole('gestor', dashboardReads);
    renderRoute('/dashboard');
    const menu = within(await screen.findByRole('navigation', { name: 'Empresa' }));
    expect(menu.getByRole('link', { name: /Centros de custo/ })).toHaveAttribute('href', '/empresa/centros-de-custo');
    expect(menu.getByRole('link', { name: /Dupla aprovação/ })).toHaveAttribute('href', '/empresa/dupla-aprovacao');
  });
});
