// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../src/app/AppProviders';
import { routes } from '../../../src/app/routes';
import { adoptEarlyVehicle } from '../../../src/early-paint/adoptEarlyVehicle';
import { VEHICLE_ANSWER_ATTRIBUTE } from '../../../src/early-paint/vehicleMarkup';
import { queryClient } from '../../../src/lib/queryClient';
import { mockApi, ok, renderRoute, signInStorage } from '../../support/utils';
import { catalogue, vehicle } from '../../support/vehicle';
import { forgetKeptData } from '../../support/keptData';

/** /tags/detalhes/:licensePlate reads its vehicle once, adopting the one its first script painted (issue 25). */

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/features/tags/TagDetailPage')]);
});

afterEach(forgetKeptData);

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
    // No read is running or waiting to: a second one would have started as the page mounted.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(api.callsTo('GET', '/api/veiculo/detail/ABC1D23')).toHaveLength(0);
  });

  it('without an early read, the page asks once', async () => {
    signInStorage({ terms: 'aceito' });
    const api = mockApi({ ...catalogue, 'GET /api/veiculo/detail/ABC1D23': ok({ Dados: vehicle }) });
    renderRoute('/tags/detalhes/ABC1D23');
    expect(await within(await screen.findByRole('region', { name: 'Tag' })).findByText('SemParar')).toBeInTheDocument();
    // No read is running or waiting to: a second one would have started as the page mounted.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(api.callsTo('GET', '/api/veiculo/detail/ABC1D23')).toHaveLength(1);
  });
});
