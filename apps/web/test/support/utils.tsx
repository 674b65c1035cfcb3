import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { routes } from '../../src/app/routes';
import { setTermsRefusedHandler, setUnauthorizedHandler } from '../../src/lib/http';
import { queryClient } from '../../src/lib/queryClient';
import { markTermsRefused } from '../../src/lib/terms';

export interface MockReply {
  status?: number;
  body?: unknown;
}

export interface RecordedCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = MockReply | ((call: RecordedCall) => MockReply);

/**
 * Replaces fetch with a fake API: handlers keyed 'METHOD /path' (query string ignored).
 * Unknown calls answer 404 so a test never reaches a real server.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call: RecordedCall = { method, path: url.pathname, headers, body };
    calls.push(call);
    const handler = handlers[`${method} ${url.pathname}`];
    const reply =
      typeof handler === 'function'
        ? handler(call)
        : (handler ?? { status: 404, body: { Sucesso: false, Mensagem: 'Recurso não encontrado' } });
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) };
}

/**
 * Decision 77: what the signed-in frame itself reads on every screen (the accounts of the header's
 * switch), apart from the screen's own reads.
 */
const SHELL_READ_PATHS = ['/api/contas'];

/** The URLs a screen asked for, in order, without the frame's own reads (SHELL_READ_PATHS). */
export function pageUrls(fetchMock: ReturnType<typeof mockApi>['fetchMock']): string[] {
  return fetchMock.mock.calls
    .map(([input]) => String(input))
    .filter((url) => !SHELL_READ_PATHS.includes(new URL(url, 'http://localhost').pathname));
}

export const demoUser = { id: 7, name: 'maria da silva', cpfCnpj: '52998224725' };

export function signInStorage(options: { terms?: 'aceito' | 'inexistente' | null } = {}) {
  window.localStorage.setItem('token', 'token-de-teste');
  window.localStorage.setItem('user_data', JSON.stringify(demoUser));
  if (options.terms) window.localStorage.setItem('aceite_termo', options.terms);
}

/** Renders the real route table at a path, as the app does (memory history instead of the URL bar). */
export function renderRoute(path: string) {
  queryClient.clear();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  setUnauthorizedHandler(() => {
    void router.navigate('/login', { replace: true });
  });
  // As app/router.ts: the terms bar where the driver is (issue 25).
  setTermsRefusedHandler(markTermsRefused);
  const user = userEvent.setup();
  const utils = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router, user };
}

export function renderWithProviders(ui: ReactNode) {
  const user = userEvent.setup();
  return { ...render(<AppProviders>{ui}</AppProviders>), user };
}

export const ok = (body: Record<string, unknown> = {}) => ({ status: 200, body: { Sucesso: true, Mensagem: 'OK', ...body } });

/** A Pix charge as GET/POST of the purchase answer it, waiting to be paid (R$ 150,00). */
export const pendingCharge = {
  id: 'chg_0123456789abcdef0123',
  payload: '00020126690014br.gov.bcb.pix0128pix@portaldomotorista.com.br5204000053039865406150.005802BR6304ABCD',
  valor: 150,
  status: 'PENDING',
  expiresAt: '2026-03-05T16:04:05.000Z',
  createdAt: '2026-03-05T15:04:05.000Z',
};

/**
 * The phone's connection as the browser reports it (navigator.onLine and the online/offline
 * events): online until a test says otherwise.
 */
export const connection = (() => {
  let online = true;
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
  return {
    get online(): boolean {
      return online;
    },
    /** Before a render: the page opens with no signal (no event: nothing was listening yet). */
    startOffline(): void {
      online = false;
    },
    /** While the page is open: the signal goes or comes back, with its event. */
    set(next: boolean): void {
      online = next;
      act(() => {
        window.dispatchEvent(new Event(next ? 'online' : 'offline'));
      });
    },
  };
})();

/** One row of GET /api/extrato/listar as the server answers it: a passage, unless `over` says otherwise. */
/** The account a fixture row moved (issue 33): a third-party row SaldoTerceiro, a VPO-money row its VPO, else Saldo. */
function accountOfRow(over: Record<string, unknown>) {
  const vpo = over.vpo as { IdTransacao: string; Embarcador: string; pagoPor: string } | null | undefined;
  if (over.is_third === true || String(over.origin ?? '').includes('terceiro'))
    return { tipo: 'SALDO_TERCEIRO', vpoId: null, embarcador: null, rota: null };
  if (vpo && vpo.pagoPor === 'VPO') return { tipo: 'VPO', vpoId: vpo.IdTransacao, embarcador: vpo.Embarcador, rota: null };
  return { tipo: 'SALDO', vpoId: null, embarcador: null, rota: null };
}

/** Decision 77: a row of GET /api/empresa/membros: an active Gestor unless told otherwise. */
export const memberRow = (over: Record<string, unknown>) => ({
  id: 1,
  nome: 'Maria da Silva',
  cpf: '***.982.247-**',
  papel: 'gestor',
  estado: 'ativo',
  convidadoEm: '2026-11-01T12:00:00.000Z',
  desde: '2026-11-01T12:30:00.000Z',
  placas: [],
  voce: false,
  ...over,
});

export const statementRow = (over: Record<string, unknown>) => ({
  conta: accountOfRow(over),
  saldoApos: 100,
  transactionId: 1,
  placeName: 'Praça Jacareí',
  value: -12.4,
  created_at: '2026-03-05T15:04:05Z',
  event: null,
  origin: 'passagem',
  is_third: false,
  user_transaction: false,
  kind: 'passagens',
  receipt: null,
  vpo: null,
  passagem: null,
  // Decision 79: the vehicle the entry was for (and its cost centre); none unless `over` says so.
  veiculo: null,
  ...over,
});
