import { freeFlowMessages } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OFFLINE_REASON_ID } from '../../../src/lib/offline';
import { queryClient } from '../../../src/lib/queryClient';
import { connection, mockApi, ok, renderRoute, signInStorage, type RecordedCall } from '../../support/utils';

beforeAll(async () => {
  await Promise.all([
    import('../../../src/app/AuthenticatedShell'),
    import('../../../src/features/vehicles/VehiclesListPage'),
    import('../../../src/features/settings/SettingsPage'),
  ]);
});

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => {
  if (!connection.online) connection.set(true);
  queryClient.clear();
});

interface Choice {
  veiculoId: number;
  placa: string;
  ativo: boolean;
  automatico: boolean;
  desde: string | null;
}

/** GET/POST /api/livre-passagem/placas as a server would: the choice kept, all vehicles when no veiculoId. */
function platesServer(initial: Choice[]) {
  let plates = initial;
  const answer = () => ok({ Mensagem: 'Preferências de pedágio sem cancela salvas.', Placas: plates });
  return {
    get: answer,
    post: (call: RecordedCall) => {
      const body = call.body as { veiculoId?: number; ativo: boolean; automatico: boolean };
      plates = plates.map((plate) =>
        body.veiculoId === undefined || body.veiculoId === plate.veiculoId
          ? { ...plate, ativo: body.ativo, automatico: body.ativo && body.automatico, desde: body.ativo ? '2026-03-05T15:00:00Z' : null }
          : plate,
      );
      return answer();
    },
  };
}

const off = (veiculoId: number, placa: string): Choice => ({ veiculoId, placa, ativo: false, automatico: false, desde: null });

describe('Veículos: each plate\'s "Pedágio sem cancela" (decision 76)', () => {
  function openVehicles(plates: Choice[]) {
    signInStorage({ terms: 'aceito' });
    const server = platesServer(plates);
    const api = mockApi({
      'GET /api/veiculo/listar': ok({
        Veiculos: [
          { id: 1, LicensePlate: 'ABC1D23', Status: null, tag: null },
          { id: 2, LicensePlate: 'XYZ9K88', Status: null, tag: null },
        ],
        Paginacao: { TotalPaginas: 1 },
      }),
      'GET /api/livre-passagem/placas': server.get,
      'POST /api/livre-passagem/placas': server.post,
    });
    return { api, ...renderRoute('/veiculos/listar') };
  }

  it('turning it on shows the consent first: Voltar sends nothing; confirmed, the plate is on and offers "Pagar automaticamente"', async () => {
    const { api, user } = openVehicles([off(1, 'ABC1D23'), off(2, 'XYZ9K88')]);
    const toggle = await screen.findByRole('switch', { name: 'Pedágio sem cancela da placa ABC1D23' });
    expect(toggle).not.toBeChecked();
    expect(screen.queryByRole('switch', { name: /^Pagar automaticamente/ })).not.toBeInTheDocument();

    await user.click(toggle);
    let dialog = await screen.findByRole('dialog', { name: 'Ligar pedágio sem cancela' });
    expect(dialog).toHaveTextContent(freeFlowMessages.consent);
    expect(dialog).toHaveTextContent('Placa ABC1D23');
    await user.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 5_000 });
    expect(api.callsTo('POST', '/api/livre-passagem/placas')).toHaveLength(0);
    expect(toggle).not.toBeChecked();

    await user.click(toggle);
    dialog = await screen.findByRole('dialog', { name: 'Ligar pedágio sem cancela' });
    await user.click(within(dialog).getByRole('button', { name: 'Autorizar' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Pedágio sem cancela da placa ABC1D23' })).toBeChecked());
    const [sent] = api.callsTo('POST', '/api/livre-passagem/placas');
    expect(sent?.body).toEqual({ veiculoId: 1, ativo: true, automatico: false });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('Preferências de pedágio sem cancela salvas.')).toBeInTheDocument();
    // The other plate is untouched.
    expect(screen.getByRole('switch', { name: 'Pedágio sem cancela da placa XYZ9K88' })).not.toBeChecked();

    // 'Pagar automaticamente' needs no second consent.
    const auto = await screen.findByRole('switch', { name: 'Pagar automaticamente os pedágios sem cancela da placa ABC1D23' });
    await user.click(auto);
    await waitFor(() => expect(api.callsTo('POST', '/api/livre-passagem/placas')).toHaveLength(2));
    expect(api.callsTo('POST', '/api/livre-passagem/placas')[1]?.body).toEqual({ veiculoId: 1, ativo: true, automatico: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 5_000 });
    await waitFor(() => expect(auto).toBeChecked());
  });

  it('turning it off warns that the open tolls kept for the plate are erased, then turns it off', async () => {
    const { api, user } = openVehicles([
      { veiculoId: 1, placa: 'ABC1D23', ativo: true, automatico: true, desde: '2026-03-01T12:00:00Z' },
      off(2, 'XYZ9K88'),
    ]);
    const toggle = await screen.findByRole('switch', { name: 'Pedágio sem cancela da placa ABC1D23' });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Desligar pedágio sem cancela' });
    expect(dialog).toHaveTextContent('Os débitos em aberto guardados desta placa são apagados');
    await user.click(within(dialog).getByRole('button', { name: 'Desligar' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Pedágio sem cancela da placa ABC1D23' })).not.toBeChecked());
    expect(api.callsTo('POST', '/api/livre-passagem/placas')[0]?.body).toEqual({ veiculoId: 1, ativo: false, automatico: false });
    expect(screen.queryByRole('switch', { name: /^Pagar automaticamente/ })).not.toBeInTheDocument();
  });

  it('offline the switches are disabled, saying why', async () => {
    openVehicles([off(1, 'ABC1D23'), off(2, 'XYZ9K88')]);
    const toggle = await screen.findByRole('switch', { name: 'Pedágio sem cancela da placa ABC1D23' });
    connection.set(false);
    await waitFor(() => expect(toggle).toBeDisabled());
    expect(toggle).toHaveAttribute('aria-describedby', OFFLINE_REASON_ID);
  });
});

describe('Configurações: "Pedágio sem cancela" (decision 76)', () => {
  it('lists the plates with both switches, and turns every plate on at once after the consent', async () => {
    signInStorage({ terms: 'aceito' });
    const server = platesServer([
      off(1, 'ABC1D23'),
      { veiculoId: 2, placa: 'XYZ9K88', ativo: true, automatico: true, desde: '2026-03-01T12:00:00Z' },
      off(3, 'QWE4R56'),
    ]);
    const api = mockApi({
      'GET /api/motorista/preferencias': ok({ Preferencias: { nivelAlertaSaldo: 50 } }),
      'GET /api/livre-passagem/placas': server.get,
      'POST /api/livre-passagem/placas': server.post,
    });
    const { user } = renderRoute('/configuracoes');
    const section = await screen.findByRole('region', { name: 'Pedágio sem cancela' });
    await within(section).findByRole('switch', { name: 'Pedágio sem cancela da placa ABC1D23' });
    expect(within(section).getByRole('switch', { name: 'Pedágio sem cancela da placa XYZ9K88' })).toBeChecked();
    expect(within(section).getByRole('switch', { name: 'Pagar automaticamente os pedágios sem cancela da placa XYZ9K88' })).toBeChecked();
    expect(section).toHaveTextContent(freeFlowMessages.autoPayHelp);
    expect(section).toHaveTextContent('Ligado desde 01/03/2026 09:00:00');

    await user.click(within(section).getByRole('button', { name: 'Ligar em todas as placas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ligar pedágio sem cancela em todas as placas' });
    expect(dialog).toHaveTextContent('Placa ABC1D23, Placa QWE4R56');
    expect(dialog).toHaveTextContent(freeFlowMessages.consent);
    await user.click(within(dialog).getByRole('button', { name: 'Autorizar' }));
    await waitFor(() => expect(within(section).getByRole('switch', { name: 'Pedágio sem cancela da placa QWE4R56' })).toBeChecked());
    const sent = api.callsTo('POST', '/api/livre-passagem/placas');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ ativo: true, automatico: false });
    expect(within(section).getByRole('button', { name: 'Ligado em todas as placas' })).toBeDisabled();
  });

  it('a failed read says so, and "Tentar novamente" reads the plates again', async () => {
    signInStorage({ terms: 'aceito' });
    let calls = 0;
    mockApi({
      'GET /api/motorista/preferencias': ok({ Preferencias: { nivelAlertaSaldo: 50 } }),
      'GET /api/livre-passagem/placas': () => {
        calls += 1;
        return calls === 1 ? { status: 400, body: { Sucesso: false, Mensagem: 'Falhou' } } : ok({ Placas: [off(1, 'ABC1D23')] });
      },
    });
    const { user } = renderRoute('/configuracoes');
    const section = await screen.findByRole('region', { name: 'Pedágio sem cancela' });
    expect(await within(section).findByText('Não foi possível carregar suas placas')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Tentar novamente' }));
    expect(await within(section).findByRole('switch', { name: 'Pedágio sem cancela da placa ABC1D23' })).toBeInTheDocument();
  });
});
