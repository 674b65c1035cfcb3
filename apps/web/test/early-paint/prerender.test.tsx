// IndexedDB for the data kept offline (jsdom has none), installed before the app's modules load.
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { api } from '@portal/contract';
import { formatBrl, formatCpfCnpj, formatSerial, NEW_PIX_KEY_CAP_CENTS, OWNERSHIP_TYPES, TAG_STATUS } from '@portal/domain';
import { act, screen, waitFor } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppRoot } from '../../src/app/AppRoot';
import { createRoutes, loadScreens } from '../../src/app/routes';
import { adoptEarlyBalance } from '../../src/early-paint/adoptEarlyBalance';
import { adoptEarlyVehicle } from '../../src/early-paint/adoptEarlyVehicle';
import { renderPage } from '../../src/early-paint/build/renderPage';
import * as balanceMarkup from '../../src/early-paint/balanceMarkup';
import { PLATE_PLACEHOLDER, PRERENDERED_PAGES, type PrerenderedPage } from '../../src/early-paint/pages';
import * as pageMarkup from '../../src/early-paint/pageMarkup';
import { paintVehicle } from '../../src/early-paint/scripts/paintVehicle';
import { clickHeldBeforeHydration, forgetHeldClick, rememberTypedBeforeHydration } from '../../src/early-paint/typedBeforeHydration';
import * as vehicleMarkup from '../../src/early-paint/vehicleMarkup';
import { LoginPage } from '../../src/features/auth/LoginPage';
import { queryClient } from '../../src/lib/queryClient';
import { getBuyValue, setBuyPix, setBuyValue } from '../../src/lib/storage';
import { mockApi, ok, signInStorage } from '../support/utils';

/** The names the page, its scripts and the app agree on. */
const markup = { ...pageMarkup, ...balanceMarkup, ...vehicleMarkup };

afterEach(() => {
  queryClient.clear();
  window.localStorage.clear();
  document.documentElement.removeAttribute(markup.ANSWER_ATTRIBUTE);
  document.documentElement.removeAttribute(markup.VEHICLE_ANSWER_ATTRIBUTE);
  for (const template of document.querySelectorAll('template')) template.remove();
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

describe('every prerendered form (PrerenderedForm)', () => {
  it.each(PRERENDERED_PAGES.map((page) => page.path))(
    '%s: posts, so a submit before any script never puts a field in the address',
    (path) => {
      const forms = [...renderPage(path).html.matchAll(/<form[^>]*>/g)].map((match) => match[0]);
      for (const form of forms) expect(form).toContain('method="post"');
    },
  );
});

const signedInPages = PRERENDERED_PAGES.filter((page) => page.signedIn);
/** A plate page is served for every plate, the server writing the plate upper-cased where the build put PLATE_PLACEHOLDER. */
const PLATE = 'RIO2A18';
const addressOf = (page: PrerenderedPage) => page.path.replace(':licensePlate', PLATE.toLowerCase());
const servedHtml = (page: PrerenderedPage) => renderPage(page.path).html.replaceAll(PLATE_PLACEHOLDER, PLATE);

describe('prerendered signed-in pages (issue 11: the first response paints the screen)', () => {
  it.each(signedInPages.map((page) => page.path))(
    '%s: the header and the screen, skeletons for the data, never an amount or a name',
    (path) => {
      const { html, title } = renderPage(path);
      expect(title).toMatch(/^.+ \| Portal do Motorista$/);
      expect(html).toContain('Portal do Motorista');
      expect(html).toContain('Sair');
      expect(html).toContain('<h1');
      // The rules of a screen are the only amounts a page may show: the purchase's minimum (spec §5),
      // what a new Pix key may receive at first (decision 44) and the highest alert level (issue 12).
      const rules = ['Mínimo R$ 100,00', `recebe no máximo ${formatBrl(NEW_PIX_KEY_CAP_CENTS)}`, 'Até R$ 50.000,00.'];
      expect(rules.reduce((rest, rule) => rest.replace(rule, ''), html)).not.toMatch(/R\$\s?\d/);
      expect(html).not.toContain('Olá,');
    },
  );

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

  it('/saldo/comprar is drawn from scratch when the phone keeps a value typed or a Pix to pay (founding decision 6)', () => {
    const page = PRERENDERED_PAGES.find((p) => p.path === '/saldo/comprar')!;
    expect(page.adoptable?.()).toBe(true);
    setBuyValue('150,00');
    expect(page.adoptable?.()).toBe(false);
    window.localStorage.clear();
    setBuyPix({ IdCobranca: 'x' });
    expect(page.adoptable?.()).toBe(false);
  });

  it('/saldo/comprar keeps a value typed before hydration: shaped by the field, kept on the phone (founding decision 6)', async () => {
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
    // What scripts/boot.ts does with the answer, before the app's code arrives.
    const slots = [...container.querySelectorAll(`[${markup.SLOT_ATTRIBUTE}]`)];
    expect(slots).toHaveLength(2);
    for (const [slot, hero, reais] of [
      [slots[0], true, -12.5],
      [slots[1], false, 80],
    ] as const) {
      const template = document.querySelector<HTMLTemplateElement>(
        `template[${markup.FIGURE_TEMPLATE_ATTRIBUTE}="${markup.figureTemplateKey(hero, reais * 100)}"]`,
      );
      const figure = template!.content.firstElementChild!.cloneNode(true) as Element;
      figure.textContent = formatBrl(reais * 100);
      slot!.replaceWith(figure);
    }
    container.querySelector(`[${markup.EARLY_BALANCE_ATTRIBUTE}]`)!.setAttribute('aria-busy', 'false');
    const painted = container.querySelector('[data-negative]');
    document.documentElement.setAttribute(
      markup.ANSWER_ATTRIBUTE,
      JSON.stringify({ data: { Sucesso: true, Mensagem: 'OK', Saldo: -12.5, SaldoTerceiro: 80 }, at: Date.now() }),
    );

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

  it("the first script's reads are the contract's calls", () => {
    expect(markup.BALANCE_PATH).toBe(api.balance.path);
    expect(`${markup.VEHICLE_DETAIL_PATH}:licensePlate`).toBe(api.vehicleDetail.path);
    for (const cents of [-1, 0, 1]) expect(markup.figureTemplateKey(true, cents)).toMatch(/^hero:(negative|zero|positive)$/);
  });
});

/** The vehicles of the detail page's test: every status code and owner, with and without its optional values. */
const vehicleArbitrary = fc.record({
  id: fc.integer({ min: 1, max: 10_000 }),
  LicensePlate: fc.stringMatching(/^[A-Z]{3}[0-9][A-Z0-9][0-9]{2}$/),
  CpfCnpjAntt: fc.constantFrom('', '52998224725', '11222333000181', '12ABC34501DE35'),
  RntrcAntt: fc.constantFrom('', '12345678', '000123456'),
  Axles: fc.integer({ min: 2, max: 9 }),
  vehicleType: fc.constantFrom(1, 2),
  modelo: fc.constantFrom('', 'volvo-fh540'),
  tag: fc.option(
    fc.record({
      serialNumber: fc.stringMatching(/^[0-9]{8,16}$/),
      Operadora: fc.constantFrom('', '11111111000191'),
      statusCode: fc.constantFrom(null, ...Object.values(TAG_STATUS)),
      ownershipType: fc.constantFrom(...OWNERSHIP_TYPES),
    }),
    { nil: null },
  ),
});

describe('prerendered tag detail page: the vehicle painted before the app arrives (issue 11)', () => {
  const page = PRERENDERED_PAGES.find((p) => p.path === '/tags/detalhes/:licensePlate')!;

  it('asks boot.ts for the vehicle of the address, and carries a template for every status code and owner', () => {
    const { early, templates, bootScript } = renderPage(page.path);
    expect(early).toBe(`${markup.EARLY_VEHICLE_ATTRIBUTE}="${PLATE_PLACEHOLDER}"`);
    expect(bootScript).toEqual({ attribute: markup.VEHICLE_PAINTER_ATTRIBUTE, script: 'paintVehicle' });
    const holder = document.createElement('div');
    holder.innerHTML = templates;
    const keys = (part: string) =>
      [...holder.querySelectorAll(`template[${markup.VEHICLE_PART_ATTRIBUTE}="${part}"]`)].flatMap((t) =>
        (t.getAttribute(markup.VEHICLE_KEYS_ATTRIBUTE) ?? '').split(' '),
      );
    const codes = [null, ...Object.values(TAG_STATUS)];
    expect(keys('tag').sort()).toEqual(codes.map((code) => markup.tagCardKey(code)).sort());
    expect(keys('actions').sort()).toEqual(
      codes.flatMap((code) => OWNERSHIP_TYPES.map((owner) => markup.tagActionsKey(code, owner))).sort(),
    );
    for (const part of ['frame', 'vehicle', 'no-tag'])
      expect(holder.querySelectorAll(`template[${markup.VEHICLE_PART_ATTRIBUTE}="${part}"]`)).toHaveLength(1);
    // Never a driver's value: only the tokens boot.ts writes over.
    expect(templates).toContain(markup.SERIAL_TOKEN);
    expect(templates).not.toMatch(/\d{3}\.\d{3}/);
  });

  it('what boot.ts paints is what the app hydrates, for any vehicle: no mismatch, the same elements, the data on screen', async () => {
    signInStorage({ terms: 'aceito' });
    const { html, templates } = renderPage(page.path);
    const preloaded = await loadScreens(page.screens);
    await fc.assert(
      fc.asyncProperty(vehicleArbitrary, async (vehicle) => {
        const plate = vehicle.LicensePlate;
        const answer = { Sucesso: true, Mensagem: 'OK', Dados: vehicle };
        const mock = mockApi({ [`GET /api/veiculo/detail/${plate}`]: ok({ Dados: vehicle }) });
        const errors = vi.spyOn(console, 'error');
        const container = mount(html.replaceAll(PLATE_PLACEHOLDER, plate), templates.replaceAll(PLATE_PLACEHOLDER, plate));
        // What boot.ts does with the answer, before the app's code arrives.
        const slot = container.querySelector(`[${markup.VEHICLE_SLOT_ATTRIBUTE}]`)!;
        expect(paintVehicle(slot, answer)).toBe(true);
        document.documentElement.setAttribute(markup.VEHICLE_ANSWER_ATTRIBUTE, JSON.stringify({ data: answer, at: Date.now(), plate }));
        const painted = container.querySelector(`[${markup.VEHICLE_VIEW_ATTRIBUTE}]`);
        expect(painted).toHaveTextContent(plate);
        expect(container.querySelector(`[${markup.VEHICLE_SLOT_ATTRIBUTE}]`)).toBeNull();

        // What main.tsx does: the screen's module adopts the answer, then the page is hydrated.
        adoptEarlyVehicle();
        const router = createMemoryRouter(createRoutes(preloaded), { initialEntries: [`/tags/detalhes/${plate.toLowerCase()}`] });
        const root = await act(async () => hydrateRoot(container, <AppRoot router={router} />));
        try {
          await screen.findByText('Olá, Maria');
          expect(hydrationErrors(errors)).toEqual([]);
          // The very elements boot.ts painted are the app's now (hydrated, not redrawn).
          expect(container.querySelector(`[${markup.VEHICLE_VIEW_ATTRIBUTE}]`)).toBe(painted);
          expect(screen.getByText(vehicle.tag ? formatSerial(vehicle.tag.serialNumber) : /Este veículo está sem tag/)).toBeInTheDocument();
          expect(screen.getAllByText(vehicle.CpfCnpjAntt ? formatCpfCnpj(vehicle.CpfCnpjAntt) : '—').length).toBeGreaterThan(0);
          expect(document.documentElement.hasAttribute(markup.VEHICLE_ANSWER_ATTRIBUTE)).toBe(false);
          expect(mock.callsTo('GET', `/api/veiculo/detail/${plate}`).length).toBeLessThanOrEqual(1);
        } finally {
          act(() => root.unmount());
          container.remove();
          for (const template of document.querySelectorAll('template')) template.remove();
          errors.mockRestore();
          queryClient.clear();
        }
      }),
      { numRuns: 24 },
    );
    // 24 hydrations: about 3 s alone, more beside the rest of the suite on two cores.
  }, 30_000);

  it('paints nothing for a status code the build did not draw, or an answer that is not a vehicle: the app draws it', () => {
    const { html, templates } = renderPage(page.path);
    const container = mount(html, templates);
    const slot = container.querySelector(`[${markup.VEHICLE_SLOT_ATTRIBUTE}]`)!;
    const vehicle = { id: 1, LicensePlate: 'RIO2A18', CpfCnpjAntt: '', RntrcAntt: '', Axles: 3, vehicleType: 2, modelo: '', tag: null };
    const unknownCode = { ...vehicle, tag: { serialNumber: '12345678', Operadora: '', statusCode: 999, ownershipType: 'own' } };
    expect(paintVehicle(slot, { Sucesso: true, Dados: unknownCode })).toBe(false);
    // Decision 78: a tag its budget blocked has no template of its own: the app draws what it says.
    const budgetBlocked = { ...vehicle, tag: { ...unknownCode.tag, statusCode: 200, bloqueioOrcamento: true } };
    expect(paintVehicle(slot, { Sucesso: true, Dados: budgetBlocked })).toBe(false);
    expect(paintVehicle(slot, { Sucesso: false, Mensagem: 'Veículo não encontrado' })).toBe(false);
    expect(paintVehicle(slot, { Sucesso: true, Dados: { ...vehicle, Axles: '3' } })).toBe(false);
    expect(container.querySelector(`[${markup.VEHICLE_SLOT_ATTRIBUTE}]`)).toBe(slot);
    // A value is written as text, never as markup.
    expect(paintVehicle(slot, { Sucesso: true, Dados: { ...vehicle, RntrcAntt: '<img src=x onerror=alert(1)>' } })).toBe(true);
    expect(container.querySelector('img')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)>');
    container.remove();
  });

  it('a button pressed before the app was live is pressed once live, only on the page hydrated and only if it still says the same', () => {
    const container = mount(
      '<div id="root"><button type="button">Sair</button><button type="button">Cancelar</button><button type="submit">Comprar</button></div>',
    );
    const pressed: string[] = [];
    container.addEventListener('click', (event) => pressed.push((event.target as Element).textContent ?? ''));
    const held = (value: unknown) => document.documentElement.setAttribute(markup.HELD_CLICK_ATTRIBUTE, JSON.stringify(value));
    held({ index: 1, text: 'Cancelar' });
    clickHeldBeforeHydration();
    expect(pressed).toEqual(['Cancelar']);
    expect(document.documentElement.hasAttribute(markup.HELD_CLICK_ATTRIBUTE)).toBe(false);
    clickHeldBeforeHydration();
    held({ index: 1, text: 'Ativar' });
    clickHeldBeforeHydration();
    held({ index: 2, text: 'Comprar' });
    clickHeldBeforeHydration();
    // A page drawn anew (main.tsx) forgets the press: its buttons are not the ones pressed.
    held({ index: 0, text: 'Sair' });
    forgetHeldClick();
    clickHeldBeforeHydration();
    expect(pressed).toEqual(['Cancelar']);
    container.remove();
  });
});
