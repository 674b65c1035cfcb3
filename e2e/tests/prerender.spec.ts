import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  driverWithTermsAccepted,
  expect,
  holdTheApp,
  registerTagViaApi,
  screenshot,
  signIn,
  test,
  untilLive,
} from '../support/fixtures.js';
import { keptQueries } from '../support/offlineStore.js';
import { grouped, randomDigits } from '../support/values.js';

/**
 * Issue 11, fast on a weak connection: every page the build prerenders (apps/web/dist/prerendered.json)
 * paints its screen from the first response, and the app adopts that markup instead of drawing it
 * again. A plate page is one template the server fills in with the plate of the address.
 */

const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'apps', 'web', 'dist');

// The first visit, as Lighthouse measures it: a service worker would answer later visits from its cache.
test.use({ serviceWorkers: 'block' });

/** Runs in every page before its scripts: keeps the first <h1> the HTML parser puts in the page. */
function keepFirstHeading() {
  const seen = window as unknown as { firstHeading?: Element };
  new MutationObserver((_records, observer) => {
    const heading = document.querySelector('h1');
    if (!heading) return;
    seen.firstHeading = heading;
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}

/** Console errors that are React's hydration complaints, and the page's uncaught errors. */
function hydrationComplaints(page: Page): string[] {
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat|did not match|server rendered|#418|#423|#425/i.test(message.text()))
      complaints.push(message.text());
  });
  page.on('pageerror', (error) => complaints.push(error.message));
  return complaints;
}

/** Opens the address; once the app is live, the heading on screen is still the one the page arrived with. */
async function expectAdopted(page: Page, address: string, heading: string | RegExp) {
  await page.goto(address);
  await untilLive(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  const adopted = await page.evaluate(() => {
    const first = (window as unknown as { firstHeading?: Element }).firstHeading;
    return first !== undefined && first === document.querySelector('h1') && first.isConnected;
  });
  expect(adopted, `${address}: the prerendered heading was replaced`).toBe(true);
}

const listed = Object.keys(JSON.parse(readFileSync(path.join(webDist, 'prerendered.json'), 'utf8')) as Record<string, string>);
const signedOut = ['/login', '/registrar'];
const signedIn = listed.filter((route) => !signedOut.includes(route) && route !== '/configuracoes');
/**
 * The signed-in pages in groups of at most five, one test each: every page is a cold load that waits
 * for the app to go live, and the whole list in one test crossed the limit on a slow CI machine.
 */
const groups = Array.from({ length: Math.ceil(signedIn.length / 5) }, (_, index) => signedIn.slice(index * 5, index * 5 + 5));

/** A page that records its first heading and its hydration complaints, signed in as a new driver. */
async function signedInWatched(page: Page, request: APIRequestContext) {
  const complaints = hydrationComplaints(page);
  await page.addInitScript(keepFirstHeading);
  const { driver } = await driverWithTermsAccepted(request);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  return { complaints, driver };
}

test('the signed-out pages are prerendered and adopted as they arrived: no redraw, no hydration complaint', async ({ page }) => {
  expect(listed).toEqual(
    expect.arrayContaining([
      ...signedOut,
      '/saldo/comprar',
      '/tags/detalhes/:licensePlate',
      '/tags/editar/:licensePlate',
      '/configuracoes',
    ]),
  );
  const complaints = hydrationComplaints(page);
  await page.addInitScript(keepFirstHeading);
  for (const address of signedOut) await expectAdopted(page, address, /\S/);
  expect(complaints).toEqual([]);
});

for (const group of groups) {
  test(`signed in, ${group.join(', ')}: each prerendered page is adopted as it arrived, no redraw, no hydration complaint`, async ({
    page,
    request,
    look,
  }) => {
    const { complaints } = await signedInWatched(page, request);
    for (const route of group) {
      // A plate typed in lower case: the server writes it as the screen does, upper-cased.
      const address = route.replace(':licensePlate', 'abc1d23');
      await expectAdopted(page, address, route.includes(':licensePlate') ? /ABC1D23|Editar Tag/ : /\S/);
      if (route.startsWith('/tags/detalhes/')) {
        await expect(page).toHaveTitle('Tag do veículo ABC1D23 | Portal do Motorista');
        // The driver has no such vehicle: the screen says so once its read answers.
        await expect(page.getByText('Veículo não encontrado')).toBeVisible();
        await look('prerendered-tag-detail-unknown-plate');
      }
    }
    expect(complaints).toEqual([]);
  });
}

test('/configuracoes is adopted as it arrived, and on a repeat visit first draws what was prerendered, then the kept answer', async ({
  page,
  request,
}) => {
  const { complaints, driver } = await signedInWatched(page, request);
  await expectAdopted(page, '/configuracoes', 'Configurações');
  // A repeat visit, the phone holding /configuracoes' reads: each section hydrates in a pass of its
  // own and first draws what the prerendered page drew, then the kept answer (one that drew the kept
  // answer while hydrating left 'Alerta de saldo' disabled with the value in it).
  const level = page.getByLabel('Nível de alerta do saldo');
  await expect(level).toBeEnabled();
  await expect.poll(() => keptQueries(page)).toEqual(expect.arrayContaining(['["motorista","preferencias"]', '["motorista","dados"]']));
  await expectAdopted(page, '/configuracoes', 'Configurações');
  await expect(level).toBeEnabled();
  await expect(level).toHaveValue(/\d,\d{2}$/);
  await expect(page.getByRole('button', { name: 'Salvar', exact: true })).toBeEnabled();
  const profile = page.getByRole('region', { name: 'Seus dados' });
  await expect(profile.getByText(driver.name)).toBeVisible();
  await expect(profile.getByRole('button', { name: 'Corrigir nome ou telefone' })).toBeEnabled();
  await screenshot(page, 'configuracoes-repeat-visit', 'phone');
  expect(complaints).toEqual([]);
});

test('a purchase typed and sent before the app is live is made once it is, once', async ({ page, request }) => {
  const { driver, token: Token } = await driverWithTermsAccepted(request);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The app's entry held back: the page is on screen, the app is not live yet (a weak connection).
  const release = await holdTheApp(page);
  await page.goto('/saldo/comprar');
  await page.getByLabel('Valor Saldo').pressSequentially('15000');
  await page.getByRole('button', { name: 'Comprar', exact: true }).click();
  expect(await page.evaluate(() => document.documentElement.dataset.live)).toBeUndefined();
  // The browser did not send the form away: same address, nothing in it.
  await expect(page).toHaveURL(/\/saldo\/comprar$/);
  release();
  await expect(page.getByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeVisible();
  await expect(page.getByText('R$ 150,00').first()).toBeVisible();
  const charges = await request.get('/api/motorista/avisos', { headers: { authorization: `Bearer ${Token}` } });
  const pending = ((await charges.json()) as { Avisos: { tipo: string }[] }).Avisos.filter((notice) => notice.tipo === 'compra-pendente');
  expect(pending).toHaveLength(1);
});

test("a tag's detail page shows the vehicle and its tag before the app is live, a press then is made once live, and the app adopts them as painted", async ({
  page,
  request,
  look,
}) => {
  const { driver, token: Token } = await driverWithTermsAccepted(request);
  const serial = `8${randomDigits(15)}`;
  const plate = `ERL${randomDigits(1)}A${randomDigits(2)}`;
  await registerTagViaApi(request, Token, driver.cpfCnpj, serial, plate);
  const complaints = hydrationComplaints(page);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // A weak connection: the page and its first script arrive, the app's code does not (yet).
  const release = await holdTheApp(page);
  await page.goto(`/tags/detalhes/${plate.toLowerCase()}`);
  const tagCard = page.getByRole('region', { name: 'Tag' });
  await expect(tagCard.getByText('A tag ainda não foi ativada. Ative para começar a usar nas praças de pedágio.')).toBeVisible();
  await expect(page.getByTestId('tag-serial')).toHaveText(grouped(serial));
  await expect(page.getByRole('region', { name: 'Veículo' })).toContainText(plate);
  await expect(page.getByRole('region', { name: 'O que você pode fazer' }).getByRole('button', { name: 'Ativar' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.dataset.live)).toBeUndefined();
  await screenshot(page, 'tag-detalhes-pintada-pelo-primeiro-script');
  await page.evaluate(() => {
    (window as unknown as { painted?: Element | null }).painted = document.querySelector('[data-vehicle-view]');
  });

  // Pressed before the app is live: nothing happens yet, and the app presses it once live.
  await page.getByRole('button', { name: 'Cancelar', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  release();
  await untilLive(page);
  const confirm = page.getByRole('dialog', { name: 'Cancelar tag' });
  await expect(confirm).toContainText(`Cancelar a tag ${grouped(serial)}?`);
  await confirm.getByRole('button', { name: 'Voltar' }).click();
  await expect(confirm).toHaveCount(0);
  // The app hydrated the very cards the first script painted, then read the catalogues' names.
  const adopted = await page.evaluate(() => {
    const painted = (window as unknown as { painted?: Element | null }).painted;
    return painted !== null && painted !== undefined && painted === document.querySelector('[data-vehicle-view]') && painted.isConnected;
  });
  expect(adopted, 'the cards the first script painted were drawn again').toBe(true);
  await expect(tagCard).toContainText('SemParar');
  await look('tag-detalhes-adotada');
  expect(complaints).toEqual([]);
});
