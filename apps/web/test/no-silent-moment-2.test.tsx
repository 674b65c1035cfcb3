// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { formatBrl, messages, serverMessages, TAG_MONTHLY_FEE_CENTS } from '@portal/domain';
import { del } from 'idb-keyval';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppProviders } from '../src/app/AppProviders';
import { routes } from '../src/app/routes';
import { confirmAction } from '../src/components/ui/confirm';
import { adoptEarlyVehicle } from '../src/early-paint/adoptEarlyVehicle';
import { VEHICLE_ANSWER_ATTRIBUTE } from '../src/early-paint/vehicleMarkup';
import { OFFLINE_STORE_KEY } from '../src/lib/persist';
import { queryClient } from '../src/lib/queryClient';
import { mockApi, ok, renderRoute, signInStorage } from './utils';

/** Issue 25, "no silent moment" (second half): what a driver reads in a dialog, a notice, the balance; what a page asks for. */

beforeAll(async () => {
  await Promise.all([
    import('../src/app/AuthenticatedShell'),
    import('../src/app/routes/DashboardRoute'),
    import('../src/features/tags/TagDetailPage'),
    import('../src/features/vehicles/VehiclesListPage'),
  ]);
});

afterEach(async () => {
  queryClient.clear();
  await del(OFFLINE_STORE_KEY);
});

/** A text as the testing library reads it (formatBrl writes a no-break space after R$). */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

const SEMPARAR = '22222222000122';
const vehicle = {
  id: 9,
  LicensePlate: 'ABC1D23',
  CpfCnpjAntt: '52998224725',
  RntrcAntt: '123456789',
  Axles: 3,
  vehicleType: 2,
  modelo: 'volvo-fh540',
  tag: { serialNumber: '1234567812345678', Operadora: SEMPARAR, statusCode: 100, ownershipType: 'own' },
};
const catalogue = {
  'GET /api/operadoras': ok({ Operadoras: [{ Nome: 'SemParar', Cnpj: SEMPARAR }] }),
  'GET /api/veiculo/modelos': ok({ Data: [{ brand: 'Volvo', modelos: [{ modelId: 'volvo-fh540', modelName: 'FH 540' }] }] }),
};

describe("item 5: a dialog goes back with 'Voltar', never 'Cancelar' (a tag action's word)", () => {
  it('every confirmation, by default', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ 'GET /api/motorista/saldo': ok({ Saldo: 1, SaldoTerceiro: 0 }) });
    const { user } = renderRoute('/dashboard');
    await screen.findByRole('heading', { name: 'Painel' });
    let answer: Promise<boolean> | undefined;
    act(() => {
      answer = confirmAction({ title: 'Excluir veículo', message: 'Excluir o veículo ABC1D23?', confirmLabel: 'Excluir', danger: true });
    });
    const dialog = await screen.findByRole('dialog', { name: 'Excluir veículo' });
    expect(within(dialog).queryByRole('button', { name: 'Cancelar' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await expect(answer).resolves.toBe(false);
  });

  it("the tag's delete dialog", async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({ ...catalogue, 'GET /api/veiculo/detail/ABC1D23': ok({ Dados: { ...vehicle, tag: { ...vehicle.tag, statusCode: 201 } } }) });
    const { user } = renderRoute('/tags/detalhes/ABC1D23');
    await user.click(await screen.findByRole('button', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir tag' });
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).not.toContain('Cancelar');
    expect(within(dialog).getByRole('button', { name: 'Voltar' })).toBeInTheDocument();
  });
});

describe('item 8: a negative balance says that it is negative, and what it means for the next passage', () => {
  const negative = { tipo: 'saldo-negativo', Mensagem: serverMessages.attention.negativeBalance('-R$ 12,30', 'R$ 15,90'), saldo: -12.3 };

  function openDashboard(Saldo: number, Avisos: unknown[]) {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/motorista/saldo': ok({ Saldo, SaldoTerceiro: 0 }),
      'GET /api/motorista/avisos': ok({ Avisos, UltimasMovimentacoes: [] }),
    });
    return renderRoute('/dashboard');
  }

  it('a notice of its own, in words, with Comprar saldo; the balance is marked negativo', async () => {
    openDashboard(-12.3, [negative]);
    const region = await screen.findByRole('region', { name: 'Avisos' });
    const [line] = within(region).getAllByRole('listitem');
    expect(line).toHaveTextContent(plain(`Saldo negativo: ${formatBrl(-1230)}`));
    expect(line).toHaveTextContent(plain(messages.attention.negativeBalanceMeaning(formatBrl(TAG_MONTHLY_FEE_CENTS))));
    expect(line).toHaveTextContent('a próxima passagem ainda é debitada');
    expect(line).not.toHaveTextContent('Saldo abaixo do alerta');
    expect(within(line!).getByRole('link', { name: 'Comprar saldo' })).toHaveAttribute('href', '/saldo/comprar');

    const balance = screen.getByRole('heading', { name: /Saldo de pedágio/ });
    await waitFor(() => expect(balance).toHaveTextContent('Saldo de pedágionegativo'));
    expect(screen.getByText(plain(formatBrl(-1230)))).toBeInTheDocument();
  });

  it('a balance at zero or above carries no mark', async () => {
    openDashboard(0, []);
    expect(await screen.findAllByText(plain(formatBrl(0)))).toHaveLength(2);
    expect(screen.getByRole('heading', { name: /Saldo de pedágio/ })).toHaveTextContent(/^Saldo de pedágio$/);
  });
});

describe("item 9: a tag's page asks for its vehicle once", () => {
  it('the vehicle its first script read and painted is adopted, and not asked for again as the app comes alive', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ ...catalogue, 'GET /api/veiculo/detail/ABC1D23': ok({ Dados: vehicle }) });
    // What boot.ts leaves on <html> once it read and painted the vehicle (early-paint/scripts/boot.ts).
    document.documentElement.setAttribute(
      VEHICLE_ANSWER_ATTRIBUTE,
      JSON.stringify({ data: { Sucesso: true, Mensagem: 'OK', Dados: vehicle }, at: Date.now(), plate: 'ABC1D23' }),
    );
    queryClient.clear();
    adoptEarlyVehicle();
    // As main.tsx: the answer is adopted, then the app starts (renderRoute would clear the cache first).
    const router = createMemoryRouter(routes, { initialEntries: ['/tags/detalhes/ABC1D23'] });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(await screen.findByText('1234 5678 1234 5678')).toBeInTheDocument();
    // The catalogues arrive (the operator's name), the kept data is restored: the page is at rest.
    expect(await within(screen.getByRole('region', { name: 'Tag' })).findByText('SemParar')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(api.callsTo('GET', '/api/veiculo/detail/ABC1D23')).toHaveLength(0);
  });

  it('without an early read, the page asks once', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ ...catalogue, 'GET /api/veiculo/detail/ABC1D23': ok({ Dados: vehicle }) });
    renderRoute('/tags/detalhes/ABC1D23');
    expect(await within(await screen.findByRole('region', { name: 'Tag' })).findByText('SemParar')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(api.callsTo('GET', '/api/veiculo/detail/ABC1D23')).toHaveLength(1);
  });
});
