import 'fake-indexeddb/auto';
import { costCentreMessages, saoPauloWallClock } from '@portal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureDownloads, mockFile } from '../../support/files';
import { ok, renderRoute, type RecordedCall } from '../../support/utils';
import { asRole, COMPANY_ID } from './fixtures';
import { forgetKeptData } from '../../support/keptData';

beforeAll(async () => {
  await Promise.all([
    import('../../../src/app/AuthenticatedShell'),
    import('../../../src/app/routes/DashboardRoute'),
    import('../../../src/features/fleet/CostCentresPage'),
    import('../../../src/features/fleet/FleetVehiclesPage'),
  ]);
});

afterEach(forgetKeptData);

interface Centre {
  id: number;
  nome: string;
  codigo: string;
  veiculos: number;
}

const SOUTH: Centre = { id: 1, nome: 'Operação Sul', codigo: 'SUL', veiculos: 3 };
const NORTH: Centre = { id: 2, nome: 'Frota Norte', codigo: 'NOR-01', veiculos: 1 };

/** The month before this one in São Paulo, 'AAAA-MM' (what the report's field starts with). */
function lastMonth(): string {
  const { year, month } = saoPauloWallClock(new Date());
  const previous = new Date(Date.UTC(year, month - 2, 1));
  return `${previous.getUTCFullYear()}-${String(previous.getUTCMonth() + 1).padStart(2, '0')}`;
}

const centreCard = (name: string) => screen.findByRole('article', { name });

describe('decision 77 /empresa/centros-de-custo', () => {
  it('a Gestor creates a centre (its code in capitals) and the list shows it', async () => {
    let centres: Centre[] = [SOUTH];
    const api = asRole('gestor', {
      'GET /api/empresa/centros-de-custo': () => ok({ Centros: centres }),
      'POST /api/empresa/centros-de-custo': (call: RecordedCall) => {
        const body = call.body as { nome: string; codigo: string };
        const Centro = { id: 2, ...body, veiculos: 0 };
        centres = [...centres, Centro];
        return { status: 201, body: { Sucesso: true, Mensagem: costCentreMessages.created, Centro } };
      },
    });
    const { user } = renderRoute('/empresa/centros-de-custo');
    const south = await centreCard('Operação Sul');
    expect(south).toHaveTextContent('SUL');
    expect(south).toHaveTextContent('3 veículos');

    const form = within(screen.getByRole('form', { name: 'Novo centro de custo' }));
    await user.type(form.getByLabelText('Nome'), '  Frota Norte ');
    await user.type(form.getByLabelText('Código'), 'nor-01');
    await user.click(form.getByRole('button', { name: 'Criar centro de custo' }));

    expect(await screen.findByText(costCentreMessages.created)).toBeInTheDocument();
    const [sent] = api.callsTo('POST', '/api/empresa/centros-de-custo');
    expect(sent?.body).toEqual({ nome: 'Frota Norte', codigo: 'NOR-01' });
    expect(sent?.headers['x-conta']).toBe(String(COMPANY_ID));
    expect(sent?.headers['idempotency-key']).toBeTruthy();
    const north = await centreCard('Frota Norte');
    expect(north).toHaveTextContent('NOR-01');
    expect(north).toHaveTextContent('0 veículos');
    expect(form.getByLabelText('Nome')).toHaveValue('');
  });

  it("says the contract's rules under each field before sending, and a code already taken under Código", async () => {
    const api = asRole('gestor', {
      'GET /api/empresa/centros-de-custo': ok({ Centros: [SOUTH] }),
      'POST /api/empresa/centros-de-custo': {
        status: 422,
        body: { Sucesso: false, Mensagem: costCentreMessages.codeTaken, errors: { codigo: [costCentreMessages.codeTaken] } },
      },
    });
    const { user } = renderRoute('/empresa/centros-de-custo');
    await centreCard('Operação Sul');
    const form = within(screen.getByRole('form', { name: 'Novo centro de custo' }));
    await user.click(form.getByRole('button', { name: 'Criar centro de custo' }));
    expect(await form.findByText(costCentreMessages.nameRequired)).toBeInTheDocument();
    expect(form.getByText(costCentreMessages.codeRequired)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/empresa/centros-de-custo')).toHaveLength(0);

    await user.type(form.getByLabelText('Nome'), 'Outra');
    await user.type(form.getByLabelText('Código'), 'sul');
    await user.click(form.getByRole('button', { name: 'Criar centro de custo' }));
    await waitFor(() => expect(form.getByLabelText('Código')).toHaveAccessibleDescription(costCentreMessages.codeTaken));
    expect(api.callsTo('POST', '/api/empresa/centros-de-custo')[0]?.body).toEqual({ nome: 'Outra', codigo: 'SUL' });
  });

  it('a Gestor edits a centre in place, and removes one only after the confirmation', async () => {
    let centres: Centre[] = [SOUTH, NORTH];
    const api = asRole('gestor', {
      'GET /api/empresa/centros-de-custo': () => ok({ Centros: centres }),
      'POST /api/empresa/centros-de-custo/1': (call: RecordedCall) => {
        centres = centres.map((centre) => (centre.id === 1 ? { ...centre, ...(call.body as object) } : centre));
        return ok({ Mensagem: costCentreMessages.updated, Centro: centres[0] });
      },
      'DELETE /api/empresa/centros-de-custo/2': () => {
        centres = centres.filter((centre) => centre.id !== 2);
        return ok({ Mensagem: costCentreMessages.removed });
      },
    });
    const { user } = renderRoute('/empresa/centros-de-custo');
    await user.click(within(await centreCard('Operação Sul')).getByRole('button', { name: 'Editar o centro de custo Operação Sul' }));
    const edit = within(screen.getByRole('form', { name: 'Editar Operação Sul' }));
    expect(edit.getByLabelText('Código')).toHaveValue('SUL');
    await user.clear(edit.getByLabelText('Nome'));
    await user.type(edit.getByLabelText('Nome'), 'Operação Sul e Sudeste');
    await user.click(edit.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(costCentreMessages.updated)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/empresa/centros-de-custo/1')[0]?.body).toEqual({ nome: 'Operação Sul e Sudeste', codigo: 'SUL' });
    expect(await centreCard('Operação Sul e Sudeste')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: /^Editar/ })).not.toBeInTheDocument();

    await user.click(within(await centreCard('Frota Norte')).getByRole('button', { name: 'Excluir o centro de custo Frota Norte' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Excluir o centro de custo Frota Norte? O veículo dele fica sem centro de custo.');
    expect(api.callsTo('DELETE', '/api/empresa/centros-de-custo/2')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText(costCentreMessages.removed)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Frota Norte' })).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', '/api/empresa/centros-de-custo/2')).toHaveLength(1);
  });

  it("a Financeiro reads the list and downloads a month's report as CSV and as PDF, and changes nothing", async () => {
    const api = asRole('financeiro', { 'GET /api/empresa/centros-de-custo': ok({ Centros: [SOUTH] }) });
    const saved = captureDownloads();
    const asked = mockFile(api.fetchMock, '/api/empresa/centros-de-custo/1/relatorio', {
      body: 'Placa;Total (R$)\n',
      contentType: 'text/csv; charset=utf-8',
      fileName: 'centro-de-custo-SUL-2026-10.csv',
    });
    const { user } = renderRoute('/empresa/centros-de-custo');
    const report = within(await screen.findByRole('form', { name: 'Relatório do mês de Operação Sul' }));
    const month = report.getByLabelText('Mês');
    expect(month).toHaveValue(lastMonth());

    await user.click(report.getByRole('button', { name: 'Baixar CSV do relatório de Operação Sul' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('centro-de-custo-SUL-2026-10.csv');
    expect(asked[0]?.url.search).toBe(`?mes=${lastMonth()}&formato=csv`);
    expect(asked[0]?.headers.get('x-conta')).toBe(String(COMPANY_ID));

    fireEvent.change(month, { target: { value: '2026-10' } });
    await user.click(report.getByRole('button', { name: 'Baixar PDF do relatório de Operação Sul' }));
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]?.url.search).toBe('?mes=2026-10&formato=pdf');

    expect(screen.queryByRole('form', { name: 'Novo centro de custo' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Editar o centro de custo/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Excluir o centro de custo/ })).not.toBeInTheDocument();
  });

  it('a month the contract refuses is said under Mês and nothing is asked', async () => {
    const api = asRole('gestor', { 'GET /api/empresa/centros-de-custo': ok({ Centros: [SOUTH] }) });
    const asked = mockFile(api.fetchMock, '/api/empresa/centros-de-custo/1/relatorio', { body: '', contentType: 'application/pdf' });
    const { user } = renderRoute('/empresa/centros-de-custo');
    const report = within(await screen.findByRole('form', { name: 'Relatório do mês de Operação Sul' }));
    fireEvent.change(report.getByLabelText('Mês'), { target: { value: '' } });
    await user.click(report.getByRole('button', { name: 'Baixar PDF do relatório de Operação Sul' }));
    expect(await report.findByText(costCentreMessages.reportMonthInvalid)).toBeInTheDocument();
    expect(asked).toHaveLength(0);
  });

  it('a Motorista is told the page is not theirs, and nothing is asked', async () => {
    const api = asRole('motorista', {});
    renderRoute('/empresa/centros-de-custo');
    expect(await screen.findByText('Página do Gestor da empresa')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(api.callsTo('GET', '/api/empresa/centros-de-custo')).toHaveLength(0);
  });
});

describe("decision 77: a vehicle's cost centre on /empresa/veiculos", () => {
  it("offers 'Sem centro de custo' and each centre as 'CÓDIGO · Nome', and sends the one chosen", async () => {
    let centre: number | null = null;
    const vehicle = () => ({ id: 11, placa: 'ABC1D23', motoristas: [], centroDeCusto: centre });
    const api = asRole('gestor', {
      'GET /api/empresa/membros': ok({ Membros: [] }),
      'GET /api/empresa/centros-de-custo': ok({ Centros: [SOUTH, NORTH] }),
      'GET /api/empresa/veiculos': () => ok({ Veiculos: [vehicle()], Paginacao: { TotalPaginas: 1 } }),
      'POST /api/empresa/veiculos/11/centro-de-custo': (call: RecordedCall) => {
        centre = (call.body as { centroDeCusto: number | null }).centroDeCusto;
        return ok({ Mensagem: costCentreMessages.vehicleMoved('ABC1D23', 'NOR-01'), Veiculo: vehicle() });
      },
    });
    const { user } = renderRoute('/empresa/veiculos');
    const card = within(await screen.findByRole('article', { name: 'ABC1D23' }));
    const select = card.getByLabelText('Centro de custo');
    await waitFor(() => expect(select).toBeEnabled());
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Sem centro de custo', 'SUL · Operação Sul', 'NOR-01 · Frota Norte']);
    expect(select).toHaveValue('');

    await user.selectOptions(select, 'NOR-01 · Frota Norte');
    expect(await screen.findByText(costCentreMessages.vehicleMoved('ABC1D23', 'NOR-01'))).toBeInTheDocument();
    const [sent] = api.callsTo('POST', '/api/empresa/veiculos/11/centro-de-custo');
    expect(sent?.body).toEqual({ centroDeCusto: 2 });
    expect(sent?.headers['x-conta']).toBe(String(COMPANY_ID));
    await waitFor(() => expect(card.getByLabelText('Centro de custo')).toHaveValue('2'));
  });
});
