import 'fake-indexeddb/auto';
import { fleetScreens, vehicleBudgetMessages } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok, renderRoute, type RecordedCall } from '../../support/utils';
import { asRole, COMPANY_ID, onScreen } from './fixtures';
import { forgetKeptData } from '../../support/keptData';

beforeAll(async () => {
  await Promise.all([
    import('../../../src/app/AuthenticatedShell'),
    import('../../../src/app/routes/DashboardRoute'),
    import('../../../src/features/fleet/BudgetsPage'),
    import('../../../src/features/settings/SettingsPage'),
  ]);
});

afterEach(forgetKeptData);

const budget = (over: Record<string, unknown>) => ({
  veiculoId: 1,
  placa: 'FRT1A11',
  orcamento: null,
  gasto: 0,
  percentual: 0,
  bloquearNoLimite: false,
  bloqueadaPeloOrcamento: false,
  ...over,
});

const list = (Orcamentos: unknown[]) => ok({ mes: '2026-11', Orcamentos, Paginacao: { TotalPaginas: 1 } });

describe('decision 78 /empresa/orcamentos', () => {
  it("shows each vehicle's month against its budget, a blocked tag, and a vehicle without one", async () => {
    asRole('financeiro', {
      'GET /api/empresa/orcamentos': list([
        budget({ placa: 'FRT1A11', orcamento: 1000, gasto: 850, percentual: 85, bloquearNoLimite: true }),
        budget({ veiculoId: 2, placa: 'FRT2B22', orcamento: 500, gasto: 520, percentual: 104, bloqueadaPeloOrcamento: true }),
        budget({ veiculoId: 3, placa: 'FRT3C33', gasto: 42.6 }),
      ]),
    });
    renderRoute('/empresa/orcamentos');
    const first = await screen.findByRole('article', { name: 'FRT1A11' });
    expect(first).toHaveTextContent(onScreen('R$ 850,00 de R$ 1.000,00 (85%)'));
    expect(first).toHaveTextContent('Gasto em 11/2026');
    expect(first).toHaveTextContent('Bloqueia aos 100%');
    expect(within(first).getByRole('progressbar', { name: 'Orçamento do mês usado pelo veículo FRT1A11' })).toHaveAttribute(
      'aria-valuenow',
      '85',
    );
    expect(within(first).getByLabelText('Orçamento mensal')).toHaveValue('1.000,00');
    expect(within(first).getByLabelText('Bloquear a tag ao chegar a 100%')).toBeChecked();
    const blocked = screen.getByRole('article', { name: 'FRT2B22' });
    expect(blocked).toHaveTextContent('Tag bloqueada pelo orçamento');
    expect(within(blocked).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    const none = screen.getByRole('article', { name: 'FRT3C33' });
    expect(none).toHaveTextContent(onScreen('R$ 42,60 gastos no mês, sem orçamento'));
    expect(within(none).queryByRole('button', { name: /Tirar o orçamento/ })).not.toBeInTheDocument();
  });

  it('saves a value typed as money with the block, says a wrong value under the field, and takes a budget off', async () => {
    const user = userEvent.setup();
    let saved: VehicleSaved = { orcamento: 1000, bloquearNoLimite: false };
    const api = asRole('gestor', {
      'GET /api/empresa/orcamentos': () => list([budget({ orcamento: saved.orcamento, bloquearNoLimite: saved.bloquearNoLimite })]),
      'POST /api/empresa/veiculos/1/orcamento': (call: RecordedCall) => {
        const body = call.body as { valor: number | null; bloquearNoLimite: boolean };
        saved = { orcamento: body.valor, bloquearNoLimite: body.bloquearNoLimite };
        return ok({
          Mensagem:
            body.valor === null ? vehicleBudgetMessages.removed('FRT1A11') : vehicleBudgetMessages.setWithBlock('FRT1A11', 'R$ 1.500,50'),
          Orcamento: budget({ orcamento: body.valor, bloquearNoLimite: body.bloquearNoLimite }),
        });
      },
    });
    renderRoute('/empresa/orcamentos');
    const card = await screen.findByRole('article', { name: 'FRT1A11' });
    const value = within(card).getByLabelText('Orçamento mensal');
    await user.clear(value);
    await user.type(value, '0');
    await user.click(within(card).getByRole('button', { name: 'Salvar o orçamento do veículo FRT1A11' }));
    expect(await within(card).findByText(vehicleBudgetMessages.invalid)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([]);

    await user.clear(value);
    await user.type(value, '150050');
    await user.click(within(card).getByLabelText('Bloquear a tag ao chegar a 100%'));
    await user.click(within(card).getByRole('button', { name: 'Salvar o orçamento do veículo FRT1A11' }));
    expect(await screen.findByText(onScreen(vehicleBudgetMessages.setWithBlock('FRT1A11', 'R$ 1.500,50')))).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ valor: 1500.5, bloquearNoLimite: true });

    const again = await screen.findByRole('article', { name: 'FRT1A11' });
    await waitFor(() => expect(within(again).getByText('Bloqueia aos 100%')).toBeInTheDocument());
    await user.click(within(again).getByRole('button', { name: 'Tirar o orçamento do veículo FRT1A11' }));
    expect(await screen.findByText(vehicleBudgetMessages.removed('FRT1A11'))).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ valor: null, bloquearNoLimite: false });
    expect(api.calls.filter((c) => c.method === 'POST').every((c) => c.headers['x-conta'] === String(COMPANY_ID))).toBe(true);
  });

  it('a Motorista reads why the page is not theirs, and nothing is asked', async () => {
    const api = asRole('motorista', {});
    renderRoute('/empresa/orcamentos');
    expect(await screen.findByRole('heading', { name: 'Orçamentos dos veículos' })).toBeInTheDocument();
    expect(await screen.findByText(fleetScreens.companyOnlyTitle)).toBeInTheDocument();
    expect(api.calls.some((c) => c.path.startsWith('/api/empresa/orcamentos'))).toBe(false);
  });
});

interface VehicleSaved {
  orcamento: number | null;
  bloquearNoLimite: boolean;
}

describe("decision 78: the Financeiro's limits in Configurações", () => {
  it('a Financeiro sets the withdrawal limits, and does not see the Pix keys (the Gestor’s)', async () => {
    asRole('financeiro', {
      'GET /api/motorista/limites-saque': ok({
        Limites: {
          porSaque: { valor: 5000, pendente: null },
          diario: { valor: 10000, pendente: null },
          noturno: { valor: 1000, pendente: null },
          usadoHoje: 0,
          usadoNestaNoite: 0,
        },
      }),
      'GET /api/motorista/perfil': ok({ nome: 'Maria da Silva', telefone: '11987654321', cpfCnpj: '***.982.247-**' }),
    });
    renderRoute('/configuracoes');
    expect(await screen.findByRole('heading', { name: 'Limites de saque Pix' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Minhas chaves Pix' })).not.toBeInTheDocument();
  });
});
