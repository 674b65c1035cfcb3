// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { api } from '@portal/contract';
import { formatBrl } from '@portal/domain';
import { act, screen, waitFor } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppRoot } from '../src/app/AppRoot';
import { createRoutes, loadScreens } from '../src/app/routes';
import * as markup from '../src/boot/earlyBalanceMarkup';
import { formatCents } from '../src/boot/formatCents';
import { LoginPage } from '../src/features/auth/LoginPage';
import { adoptEarlyBalance } from '../src/lib/earlyBalance';
import { queryClient } from '../src/lib/queryClient';
import { getBuyValue, setBuyPix, setBuyValue } from '../src/lib/storage';
import { rememberTypedBeforeHydration } from '../src/lib/typedBeforeHydration';
import { PLATE_PLACEHOLDER, PRERENDERED_PAGES, type PrerenderedPage } from '../src/prerender/pages';
import { renderPage } from '../src/prerender/renderPage';
import { mockApi, ok, signInStorage } from './utils';

afterEach(() => {
  queryClient.clear();
  window.localStorage.clear();
  document.documentElement.removeAttribute(markup.ANSWER_ATTRIBUTE);
  vi.unstubAllGlobals();
});

/** React's hydration complaints among console.error's calls (a screen's failed read is logged too). */
const hydrationErrors = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter((args) => /hydrat|did not match|server rendered|#418|#423|#425/i.test(args.map(String).join(' ')));

/** The page's markup in the document, as the browser has it before the app's code runs. */
function mount(html: string, templates = ''): HTMLDivElement {
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.appendChild(container);
  if (templates) document.body.insertAdjacentHTML('beforeend', templates);
  return container;
}

describe('prerendered /login (login.html)', () => {
  it('is the real login screen', () => {
    const { html, title } = renderPage('/login');
    expect(title).toBe('Entrar | Portal do Motorista');
    expect(html).toContain('Bem-vindo ao Portal do Motorista');
    expect(html).toContain('autoComplete="username"');
    expect(html).toContain('href="/registrar"');
  });

  it('hydrates without a mismatch and keeps both fields typed before hydration', async () => {
    const errors = vi.spyOn(console, 'error');
    const container = mount(renderPage('/login').html);
    const cpfCnpj = container.querySelector<HTMLInputElement>('input[name="cpfCnpj"]');
    const password = container.querySelector<HTMLInputElement>('input[name="password"]');
    if (!cpfCnpj || !password) throw new Error('a field is missing from the prerendered markup');
    cpfCnpj.value = '52998224725';
    password.value = 'motorista123';

    // What main.tsx does before hydrating a prerendered page.
    rememberTypedBeforeHydration(container);
    const router = createMemoryRouter(createRoutes({ login: LoginPage }), { initialEntries: ['/login'] });
    const root = await act(async () => hydrateRoot(container, <AppRoot router={router} />));

    expect(errors).not.toHaveBeenCalled();
    expect(container.querySelector('input[name="cpfCnpj"]')).toBe(cpfCnpj);
    expect(cpfCnpj.value).toBe('529.982.247-25');
    expect(container.querySelector('input[name="password"]')).toBe(password);
    expect(password.value).toBe('motorista123');
    act(() => root.unmount());
    container.remove();
  });
});

describe('prerendered /registrar (registrar.html)', () => {
  it('is the real sign-up screen and hydrates without a mismatch', async () => {
    const { html, title } = renderPage('/registrar');
    expect(title).toBe('Criar conta | Portal do Motorista');
    expect(html).toContain('href="/login"');
    const errors = vi.spyOn(console, 'error');
    const container = mount(html);
    const heading = container.querySelector('h1');
    const router = createMemoryRouter(createRoutes(await loadScreens(['registrar'])), { initialEntries: ['/registrar'] });
    const root = await act(async () => hydrateRoot(container, <AppRoot router={router} />));
    expect(errors).not.toHaveBeenCalled();
    expect(container.querySelector('h1')).toBe(heading);
    act(() => root.unmount());
    container.remove();
  });
});

const signedInPages = PRERENDERED_PAGES.filter((page) => page.signedIn);
/** A plate page is served for every plate, the server writing the plate upper-cased where the build put PLATE_PLACEHOLDER. */
const PLATE = 'RIO2A18';
const addressOf = (page: PrerenderedPage) => page.path.replace(':licensePlate', PLATE.toLowerCase());
const servedHtml = (page: PrerenderedPage) => renderPage(page.path).html.replaceAll(PLATE_PLACEHOLDER, PLATE);

describe('prerendered signed-in pages (issue 11: the first response paints the screen)', () => {
  it.each(signedInPages.map((page) => page.path))('%s: the header and the screen, skeletons for the data, never an amount or a name', (path) => {
    const { html, title } = renderPage(path);
    expect(title).toMatch(/^.+ \| Portal do Motorista$/);
    expect(html).toContain('Portal do Motorista');
    expect(html).toContain('Sair');
    expect(html).toContain('<h1');
    // The purchase's minimum (a rule of the screen, SPEC 5) is the one amount a page may show.
    expect(html.replace('Mínimo R$ 100,00', '')).not.toMatch(/R\$\s?\d/);
    expect(html).not.toContain('Olá,');
  });

  it.each(signedInPages.map((page) => page.path))('%s hydrates without a mismatch, then shows the driver and the data', async (path) => {
    signInStorage({ terms: 'aceito' });
    mockApi({
      'GET /api/motorista/saldo': ok({ Saldo: 1234.56, SaldoTerceiro: 80 }),
      'GET /api/motorista/avisos': ok({ Avisos: [], UltimasMovimentacoes: [] }),
    });
    const errors = vi.spyOn(console, 'error');
    const page = PRERENDERED_PAGES.find((p) => p.path === path)!;
    const container = mount(servedHtml(page));
    const heading = container.querySelector('h1');
    const router = createMemoryRouter(createRoutes(await loadScreens(page.screens)), { initialEntries: [addressOf(page)] });
    const root = await act(async () => hydrateRoot(container, <AppRoot router={router} />));
    try {
      expect(await screen.findByText('Olá, Maria')).toBeInTheDocument();
      expect(hydrationErrors(errors)).toEqual([]);
      expect(container.querySelector('h1')).toBe(heading);
    } finally {
      act(() => root.unmount());
      container.remove();
    }
  });

  it.each(signedInPages.filter((page) => page.path.includes(':licensePlate')).map((page) => page.path))(
    '%s: the page the server fills in with the plate is the page drawn at that address',
    (path) => {
      const page = PRERENDERED_PAGES.find((p) => p.path === path)!;
      const template = renderPage(path);
      expect(template.html).toContain(PLATE_PLACEHOLDER);
      expect(template.title).toContain(PLATE_PLACEHOLDER);
      const atAddress = renderPage(addressOf(page));
      expect(atAddress.html).toContain(PLATE);
      expect(atAddress.html).toBe(servedHtml(page));
      expect(atAddress.title).toBe(template.title.replaceAll(PLATE_PLACEHOLDER, PLATE));
    },
  );

  it('/saldo/comprar is drawn from scratch when the phone keeps a value typed or a Pix to pay (decision 6)', () => {
    const page = PRERENDERED_PAGES.find((p) => p.path === '/saldo/comprar')!;
    expect(page.adoptable?.()).toBe(true);
    setBuyValue('150,00');
    expect(page.adoptable?.()).toBe(false);
    window.localStorage.clear();
    setBuyPix({ IdCobranca: 'x' });
    expect(page.adoptable?.()).toBe(false);
  });

  it('/saldo/comprar keeps a value typed before hydration: shaped by the field, kept on the phone (decision 6)', async () => {
    signInStorage({ terms: 'aceito' });
    mockApi({});
    const errors = vi.spyOn(console, 'error');
    const page = PRERENDERED_PAGES.find((p) => p.path === '/saldo/comprar')!;
    const container = mount(renderPage(page.path).html);
    const field = container.querySelector<HTMLInputElement>('input[name="valor"]')!;
    field.value = '10000';
    rememberTypedBeforeHydration(container);
    const router = createMemoryRouter(createRoutes(await loadScreens(page.screens)), { initialEntries: [page.path] });
    const root = await act(async () => hydrateRoot(container, <AppRoot router={router} />));
    onTestFinished(() => {
      act(() => root.unmount());
      container.remove();
    });
    await waitFor(() => expect(container.querySelector('input[name="valor"]')).toHaveValue('100,00'));
    expect(container.querySelector('input[name="valor"]')).toBe(field);
    expect(getBuyValue()).toBe('100,00');
    expect(hydrationErrors(errors)).toEqual([]);
  });

  it('the dashboard adopts the balance its first script painted: same markup, no second request', async () => {
    signInStorage({ terms: 'aceito' });
    const mock = mockApi({
      'GET /api/motorista/saldo': ok({ Saldo: -12.5, SaldoTerceiro: 80 }),
      'GET /api/motorista/avisos': ok({ Avisos: [], UltimasMovimentacoes: [] }),
    });
    const errors = vi.spyOn(console, 'error');
    const { html, templates } = renderPage('/dashboard');
    const container = mount(html, templates);
    // What boot/boot.ts does with the answer, before the app's code arrives.
    const slots = [...container.querySelectorAll(`[${markup.SLOT_ATTRIBUTE}]`)];
    expect(slots).toHaveLength(2);
    for (const [slot, hero, reais] of [[slots[0], true, -12.5], [slots[1], false, 80]] as const) {
      const template = document.querySelector<HTMLTemplateElement>(`template[${markup.FIGURE_TEMPLATE_ATTRIBUTE}="${markup.figureTemplateKey(hero, reais * 100)}"]`);
      const figure = template!.content.firstElementChild!.cloneNode(true) as Element;
      figure.textContent = formatCents(reais * 100);
      slot!.replaceWith(figure);
    }
    container.querySelector(`[${markup.EARLY_BALANCE_ATTRIBUTE}]`)!.setAttribute('aria-busy', 'false');
    const painted = container.querySelector('[data-negative]');
    document.documentElement.setAttribute(markup.ANSWER_ATTRIBUTE, JSON.stringify({ data: { Sucesso: true, Mensagem: 'OK', Saldo: -12.5, SaldoTerceiro: 80 }, at: Date.now() }));

    const preloaded = await loadScreens(['shell', 'dashboard']);
    adoptEarlyBalance();
    const router = createMemoryRouter(createRoutes(preloaded), { initialEntries: ['/dashboard'] });
    const root = await act(async () => hydrateRoot(container, <AppRoot router={router} />));
    onTestFinished(() => {
      act(() => root.unmount());
      container.remove();
      for (const template of document.querySelectorAll(`template[${markup.FIGURE_TEMPLATE_ATTRIBUTE}]`)) template.remove();
    });
    await screen.findByText('Olá, Maria');
    await waitFor(() => expect(mock.callsTo('GET', '/api/motorista/avisos')).toHaveLength(1));

    expect(errors).not.toHaveBeenCalled();
    // The very element boot.ts painted is the app's now (hydrated, not redrawn).
    expect(container.querySelector('[data-negative]')).toBe(painted);
    expect(painted).toHaveTextContent('-R$ 12,50');
    expect(screen.getByText('R$ 80,00')).toBeInTheDocument();
    expect(mock.callsTo('GET', '/api/motorista/saldo')).toHaveLength(0);
    expect(document.documentElement.hasAttribute(markup.ANSWER_ATTRIBUTE)).toBe(false);
  });

  it('boot.ts uses the same names and path as the app (it imports nothing the app imports)', () => {
    const boot = readFileSync(path.join(import.meta.dirname, '../src/boot/boot.ts'), 'utf8');
    expect(markup.BALANCE_PATH).toBe(api.balance.path);
    for (const [name, value] of Object.entries(markup)) {
      if (typeof value === 'string') expect(boot, name).toContain(`const ${name} = '${value}';`);
    }
    expect(boot.match(/^import .*$/gm)).toEqual(["import { formatCents } from './formatCents';"]);
    const importers = readdirSync(path.join(import.meta.dirname, '../src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .filter((file) => readFileSync(path.join(import.meta.dirname, '../src', file), 'utf8').includes('/formatCents'));
    expect(importers).toEqual([path.join('boot', 'boot.ts')]);
    for (const cents of [-1, 0, 1]) expect(markup.figureTemplateKey(true, cents)).toMatch(/^hero:(negative|zero|positive)$/);
  });

  it("boot.ts writes a figure as the app does (the domain's formatBrl)", () => {
    fc.assert(fc.property(fc.integer({ min: -(10 ** 13), max: 10 ** 13 }), (cents) => formatCents(cents) === formatBrl(cents)));
  });
});
