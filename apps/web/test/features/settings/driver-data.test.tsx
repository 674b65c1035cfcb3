import { screen, waitFor, within } from '@testing-library/react';
import { driverDataMessages } from '@portal/domain';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_REASON_ID } from '../../../src/lib/offline';
import { queryClient } from '../../../src/lib/queryClient';
import { captureDownloads, mockFile } from '../../support/files';
import { connection, demoUser, mockApi, ok, renderRoute, signInStorage, type MockReply } from '../../support/utils';

beforeAll(async () => {
  await Promise.all([import('../../../src/app/AuthenticatedShell'), import('../../../src/features/settings/SettingsPage')]);
});

afterEach(() => {
  queryClient.clear();
  if (!connection.online) connection.set(true);
});

const URL = '/api/motorista/dados/exportar';
const T = driverDataMessages.section;

function openSettings(handlers: Record<string, MockReply> = {}) {
  signInStorage({ terms: 'aceito' });
  const mock = mockApi({
    'GET /api/motorista/preferencias': ok({ Preferencias: { nivelAlertaSaldo: 50 } }),
    'GET /api/motorista/chaves-pix': ok({ Chaves: [] }),
    'GET /api/motorista/dados': ok({
      Dados: { nome: 'Maria da Silva', cpfCnpj: demoUser.cpfCnpj, telefone: '11987654321', alteradoEm: null },
    }),
    ...handlers,
  });
  return { mock, ...renderRoute('/configuracoes') };
}

const section = async () => within((await screen.findByRole('heading', { name: T.heading })).closest('section') as HTMLElement);

describe("/configuracoes: 'Meus dados' (issue 35)", () => {
  it('says what the ZIP holds and saves it under the server’s name with one tap, with the token', async () => {
    const saved = captureDownloads();
    const { mock, user } = openSettings();
    const asked = mockFile(mock.fetchMock, URL, {
      body: 'PK\u0003\u0004',
      contentType: 'application/zip',
      fileName: 'meus-dados-2026-11-29.zip',
    });
    const box = await section();
    expect(box.getByText(T.text)).toBeInTheDocument();
    expect(box.getByText(`${T.format} ${T.limit}`)).toBeInTheDocument();
    await user.click(box.getByRole('button', { name: T.button }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('meus-dados-2026-11-29.zip');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.headers.get('authorization')).toBe('Bearer token-de-teste');
    expect(await screen.findByText(T.downloaded('meus-dados-2026-11-29.zip'))).toBeInTheDocument();
  });

  it('a refusal (the daily limit) is told in Portuguese and nothing is saved', async () => {
    const saved = captureDownloads();
    const { user } = openSettings({ [`GET ${URL}`]: { status: 429, body: { Sucesso: false, Mensagem: driverDataMessages.dailyLimit } } });
    await user.click((await section()).getByRole('button', { name: T.button }));
    expect(await screen.findByText(driverDataMessages.dailyLimit)).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it('no connection: the button is disabled, pointing at the reason', async () => {
    openSettings();
    await section();
    // The browser's own signal (navigator.onLine and its event), which the app's onlineManager follows:
    // setting onlineManager alone is undone by any later 'online' reading of navigator.onLine.
    connection.set(false);
    // Read again at each try: the page may draw the section anew once its data arrives.
    await waitFor(() => {
      const button = screen.getByRole('button', { name: T.button });
      expect(button).toBeDisabled();
      expect(button).toHaveAttribute('aria-describedby', OFFLINE_REASON_ID);
    });
  });
});
