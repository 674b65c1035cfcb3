import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { cnpj, cpf } from 'cpf-cnpj-validator';
import { formatCpfCnpj, INVOICE_GROUP_CODE } from '@portal/domain';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { viewports, type ViewportName } from '../chromium.js';
import { axeViolations } from './axe.js';
import { randomDigits } from './values.js';

const screenshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');
/** The repository root and the e2e server's address and database (as playwright.config.ts sets them). */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const e2eServerUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100)}`;
const e2ePort = Number(process.env.E2E_PORT ?? 3100);
const e2eDatabase = path.join(repoRoot, 'e2e', e2ePort === 3100 ? '.data' : `.data-${e2ePort}`, 'portal.sqlite');

interface TestDriver {
  name: string;
  cpfCnpj: string;
  maskedCpfCnpj: string;
  phone: string;
  password: string;
}

export function newDriver(): TestDriver {
  const document = cpf.generate();
  return {
    name: 'Joana Caminhoneira Teste',
    cpfCnpj: document,
    maskedCpfCnpj: formatCpfCnpj(document),
    phone: '11987654321',
    password: 'estrada2026',
  };
}

export const demoDriver = { cpfCnpj: '52998224725', password: 'motorista123' };

export async function registerViaApi(request: APIRequestContext, driver: TestDriver) {
  const response = await request.post('/api/user/create-user', {
    data: {
      name: driver.name,
      cpfCnpj: driver.cpfCnpj,
      phoneNumber: `+55${driver.phone}`,
      password: driver.password,
      password_confirmation: driver.password,
      type: 'driver',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { Token: string; User: { id: number; name: string } };
}

/** Bearer header for API calls made by the test itself. */
export function bearer(token: string) {
  return { Authorization: `Bearer ${token}` };
}

async function acceptTermsViaApi(request: APIRequestContext, token: string) {
  const response = await request.post('/api/termos/aceitar', { headers: bearer(token), data: {} });
  expect(response.ok(), await response.text()).toBe(true);
}

/** POST /api/transacoes/gerar-qrcode as the web app does; answers the charge. */
/**
 * A vehicle with an inactive tag for the driver, through the same API the web app uses (POST
 * /api/tag/cadastrar-tag): SemParar's (the operator list's first when absent), the catalogue's first
 * model, 3 axles.
 */
export async function registerTagViaApi(request: APIRequestContext, token: string, driverDocument: string, serial: string, plate: string) {
  const operators = (await (await request.get('/api/operadoras', { headers: bearer(token) })).json()) as {
    Operadoras: { Nome: string; Cnpj: string }[];
  };
  const operator = operators.Operadoras.find((o) => o.Nome === 'SemParar') ?? operators.Operadoras[0]!;
  const models = (await (await request.get('/api/veiculo/modelos', { headers: bearer(token) })).json()) as {
    Data: { modelos: { modelId: string }[] }[];
  };
  const response = await request.post('/api/tag/cadastrar-tag', {
    headers: bearer(token),
    data: {
      serialNumber: serial,
      Operadora: operator.Cnpj,
      licensePlate: plate,
      cnpj: driverDocument,
      invoiceGroupCode: INVOICE_GROUP_CODE,
      axles: '3',
      CpfCnpjAntt: cpf.generate(),
      RntrcAntt: '123456789',
      modelo: models.Data[0]!.modelos[0]!.modelId,
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

export async function createPixChargeViaApi(request: APIRequestContext, token: string, cpfCnpj: string, valor: number) {
  const response = await request.post('/api/transacoes/gerar-qrcode', {
    headers: bearer(token),
    data: { valor, cpfCnpj, project: 'VPO' },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { qrCode: { id: string; payload: string; valor: number } }).qrCode;
}

/** A server the CLI works on: its address and its database (the e2e server's unless a journey starts its own). */
export interface CliTarget {
  url: string;
  database: string;
}

/** Balance bought by Pix and paid through the operator CLI, as a driver's bank would; answers the charge. */
export async function buyBalanceViaPix(request: APIRequestContext, token: string, cpfCnpj: string, valor: number, server?: CliTarget) {
  const charge = await createPixChargeViaApi(request, token, cpfCnpj, valor);
  await payPixWithCli(charge.id, server);
  return charge;
}

/**
 * Runs an operator command against the e2e server and its database; answers its output. The CLI
 * as built (`dist/cli.js`, which the journeys' server is built beside): `npx tsx` compiled the
 * sources on every call, seconds each (decision 51).
 */
async function runCli(args: readonly string[], server: CliTarget = { url: e2eServerUrl, database: e2eDatabase }): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['apps/server/dist/cli.js', ...args], {
    cwd: repoRoot,
    env: { ...process.env, SERVER_URL: server.url, DATABASE_URL: server.database, NODE_ENV: 'development' },
    timeout: 60_000,
  });
  return stdout;
}

/**
 * Pays a charge of the local Pix provider exactly as a person would: the operator CLI
 * (`npm run cli -- pix:pay <id>`), which sends the signed webhook to the running e2e server.
 */
export function payPixWithCli(chargeId: string, server?: CliTarget): Promise<string> {
  return runCli(['pix:pay', chargeId], server);
}

/**
 * Decision 58: the local Pix provider's bank, played by the operator CLI against the running e2e
 * server: `pix:auto:activate` (the QR Code's first Pix paid), `pix:auto:cycle` (the next debit made),
 * `pix:auto:refuse` (the next debit refused), `pix:auto:cancel` (cancelled in the bank app).
 */
export function automaticBankWithCli(
  command: 'activate' | 'cycle' | 'refuse' | 'cancel',
  cpfCnpj: string,
  server?: CliTarget,
): Promise<string> {
  return runCli([`pix:auto:${command}`, '--driver', cpfCnpj], server);
}

/**
 * Creates a partner the way an operator does (`npm run cli -- partner:create`) on the e2e
 * server's database; answers the API key, printed alone on the last line. An operator key
 * belongs to one operator (`operator`: its name or CNPJ) and charges only that operator's tags.
 */
export async function createPartnerKeyWithCli(
  kind: 'shipper' | 'operator' | 'platform' | 'concessionaria',
  name: string,
  operator?: string,
): Promise<string> {
  const stdout = await runCli(['partner:create', '--kind', kind, '--name', name, ...(operator ? ['--operator', operator] : [])]);
  const key = stdout.trim().split('\n').at(-1)?.trim() ?? '';
  expect(key, stdout).toMatch(/^\S{16,}$/);
  return key;
}

/**
 * A new driver, signed up with the terms accepted (where most journeys start), and with `credit`
 * reais bought by Pix when it is given.
 */
export async function driverWithTermsAccepted(request: APIRequestContext, { credit }: { credit?: number } = {}) {
  const driver = newDriver();
  const { Token: token } = await registerViaApi(request, driver);
  await acceptTermsViaApi(request, token);
  if (credit !== undefined) await buyBalanceViaPix(request, token, driver.cpfCnpj, credit);
  return { driver, token };
}

/**
 * A new driver, signed up and with the terms accepted, R$ 100,00 bought by Pix and one active tag
 * of SemParar on `plate` (Saldo R$ 84,10 after the tag's month): where the partner journeys start.
 */
export async function driverWithActiveTag(request: APIRequestContext, serial: string, plate: string) {
  const { driver, token } = await driverWithTermsAccepted(request, { credit: 100 });
  await registerTagViaApi(request, token, driver.cpfCnpj, serial, plate);
  const activated = await request.post('/api/tag/ativar-tag-motorista', {
    headers: bearer(token),
    data: { serialNumber: serial, licensePlate: plate, cnpj: driver.cpfCnpj },
  });
  expect(activated.ok(), await activated.text()).toBe(true);
  return { driver, token };
}

/** A partner's call with its X-Api-Key, expecting `status`; the answer's JSON. */
export async function partnerPost(request: APIRequestContext, url: string, key: string, data: Record<string, unknown>, status = 200) {
  const response = await request.post(url, { headers: { 'X-Api-Key': key }, data });
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as Record<string, unknown>;
}

/** A shipper's VPO for `serial` on `plate`, Campinas (SP) to Santos (SP), worth `value` reais: answered 201. */
export function issueVpoViaApi(
  request: APIRequestContext,
  shipperKey: string,
  vpo: { run: string; serial: string; plate: string; value: number },
) {
  return partnerPost(
    request,
    '/api/parceiro/vpos',
    shipperKey,
    {
      externalId: `vpo-${vpo.run}`,
      serialNumber: vpo.serial,
      PlacaVeiculo: vpo.plate,
      CpfCnpjEmbarcador: cnpj.generate(),
      ValorTotalVP: vpo.value,
      origem: 'Campinas (SP)',
      destino: 'Santos (SP)',
      idVpoAntt: `ANTT-${vpo.run}`,
      rntrc: '123456789',
      eixos: 3,
    },
    201,
  );
}

/**
 * Holds the app's code, as a weak connection does: the page and its first script arrive and paint,
 * the app is not live until the answer's `release` is called.
 */
export async function holdTheApp(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * A driver whose Saldo is -R$ 15,90: R$ 100,00 bought, a tag activated (R$ 84,10 left), then a passage
 * of R$ 100,00 on it (the truck already passed: never refused). Answers the driver.
 */
export async function driverWithNegativeBalance(request: APIRequestContext, platePrefix: string) {
  const digits = randomDigits;
  const serial = `6${digits(15)}`;
  const { driver } = await driverWithActiveTag(request, serial, `${platePrefix}${digits(1)}C${digits(2)}`);
  const operatorKey = await createPartnerKeyWithCli('operator', `Operadora ${digits(8)}`, 'SemParar');
  await partnerPost(request, '/api/parceiro/passagens', operatorKey, {
    externalId: `neg-${digits(10)}`,
    serialNumber: serial,
    placeName: 'Praça Registro',
    value: 100,
    occurredAt: new Date(Date.now() - 60_000).toISOString(),
    is_third: false,
  });
  return driver;
}

/**
 * Waits until the app has taken over the page (the prerendered markup is drawn before it). How long a
 * cold start takes is the slow-phone journeys' business: here only the test's own timeout bounds it,
 * so a busy machine never fails the check that follows.
 */
export async function untilLive(page: Page, options: { timeout?: number } = {}) {
  await page.locator('html[data-live="true"]').waitFor({ state: 'attached', ...options });
}

/** Opens a page and waits until the app is live (the prerendered /login hydrated), as a driver sees it. */
export async function openLive(page: Page, url: string) {
  await page.goto(url);
  await untilLive(page);
}

/** A reload, and the app live again before the test reads what it draws from the server. */
export async function reloadLive(page: Page) {
  await page.reload();
  await untilLive(page);
}

export async function signIn(page: Page, cpfCnpj: string, password: string) {
  await openLive(page, '/login');
  await page.getByLabel('CPF/CNPJ').fill(cpfCnpj);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/**
 * Closes the toast titled `title` so the next check reads a fresh one. A toast slides in, and moves
 * when another one closes: the click waits for the animations to end, and is tried again when the
 * toast moved under it. A toast also closes itself after TOAST_MS (5 s): on a slow machine it can be
 * gone before the click, which ends the same way; a toast still there after three clicks fails the test.
 */
export async function closeToast(page: Page, title: string) {
  const toast = page.getByRole('alert').filter({ has: page.getByText(title, { exact: true }) });
  const close = toast.getByRole('button', { name: 'Fechar aviso' }).first();
  for (let attempt = 1; ; attempt += 1) {
    await settled(page);
    const clicked = await close.click({ timeout: 3_000 }).then(
      () => true,
      async (error: unknown) => {
        if ((await toast.count()) === 0) return true;
        if (attempt === 3) throw error;
        return false;
      },
    );
    if (clicked) break;
  }
  await expect(toast).toHaveCount(0);
}

/** Lets running animations (a dialog's open transition) finish, so a screenshot shows the result, not a fade. */
export async function settled(page: Page) {
  // Only the animations that end: a spinner or a pulsing 'aguardando' runs forever.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Fails when the page is wider than the screen (WCAG 1.4.10 Reflow): the driver would scroll it
 * sideways, and a phone lays it out wider than itself. Names what reaches past the edge.
 */
async function expectNoSidewaysScroll(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  const past = await page.evaluate((screenWidth) => {
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth <= screenWidth) return [];
    const named = Array.from(document.querySelectorAll('body *'))
      .filter(
        (el) =>
          el.getBoundingClientRect().right > screenWidth + 0.5 && getComputedStyle(el).position !== 'fixed' && !el.closest('[data-portal]'),
      )
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 50)}" reaches ${Math.round(el.getBoundingClientRect().right)} px`,
      );
    return named.length > 0 ? named : [`the page is ${pageWidth} px wide`];
  }, width);
  expect(past, `the page is wider than the ${width} px screen`).toEqual([]);
}

/** Fails on serious or critical axe findings (WCAG 2 A/AA). */
export async function expectAccessible(page: Page) {
  const blocking = (await axeViolations(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking, blocking.join('\n')).toEqual([]);
}

/** A screenshot for a human to look at: e2e/screenshots/<width>/<name>.png. */
export function screenshot(page: Page, name: string, project: string = base.info().project.name) {
  return page.screenshot({ path: path.join(screenshotDir, project, `${name}.png`), fullPage: true });
}

/** Waits two frames after a resize, so the layout (and any media query's re-render) has settled. */
async function relaid(page: Page) {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await settled(page);
}

export const test = base.extend<{ look: (name: string) => Promise<void> }>({
  /**
   * Screenshot for a human to look at (e2e/screenshots/<width>/<name>.png) and the axe check, at
   * both widths: at the project's own, then resized to the other and back (decision 51: each journey
   * runs once, at one width, and every screen it passes is still seen and checked at both).
   */
  look: async ({ page }, use, testInfo) => {
    await use((name: string) =>
      // A step of its own: the report and the trace show each look and its time.
      base.step(`look: ${name}`, async () => {
        await page.waitForLoadState('networkidle');
        const own = testInfo.project.name as ViewportName;
        const other: ViewportName = own === 'phone' ? 'desktop' : 'phone';
        await screenshot(page, name, own);
        await expectAccessible(page);
        await expectNoSidewaysScroll(page);
        await page.setViewportSize(viewports[other]);
        await relaid(page);
        await screenshot(page, name, other);
        await expectAccessible(page);
        await expectNoSidewaysScroll(page);
        await page.setViewportSize(viewports[own]);
        await relaid(page);
      }),
    );
  },
});

export { expect };
