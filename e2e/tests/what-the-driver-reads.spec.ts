import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { viewports, type ViewportName } from '../chromium.js';
import {
  bearer,
  driverWithActiveTag,
  driverWithNegativeBalance,
  expect,
  newDriver,
  registerViaApi,
  settled,
  signIn,
  test,
  untilLive,
} from '../support/fixtures.js';
import { layoutShiftSoFar } from '../support/layoutShift.js';
import { brl, randomDigits } from '../support/values.js';

/**
 * Issue 25, "no silent moment" (second half): a dialog's way back is never the word of a tag action,
 * a toast never covers the header, the terms are accepted where the driver is stopped, a negative
 * balance says what it means, and a tag's page asks for its vehicle once.
 */

const screenshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/** What the driver sees on screen (not the whole page: a toast sits under the sticky header). */
function viewportShot(page: Page, width: ViewportName, name: string) {
  return page.screenshot({ path: path.join(screenshotDir, width, `${name}.png`) });
}

/** Whether two boxes share any pixel. */
async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = await Promise.all([a.boundingBox(), b.boundingBox()]);
  if (!x || !y) throw new Error('element not on screen');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

/** The toast titled or saying `text`, and the header with 'Sair' and 'Configurações' never under it. */
async function expectToastBesideHeader(page: Page, text: string) {
  const toast = page.getByRole('alert').filter({ hasText: text });
  await expect(toast).toBeVisible();
  await settled(page);
  const header = page.getByRole('banner');
  expect(await overlaps(toast, header), 'the toast covers the header').toBe(false);
  expect(await overlaps(toast, page.getByRole('button', { name: 'Sair' })), "the toast covers 'Sair'").toBe(false);
  // A tap on 'Sair' would reach 'Sair' (nothing above it).
  const sair = await page.getByRole('button', { name: 'Sair' }).boundingBox();
  const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null, {
    x: sair!.x + sair!.width / 2,
    y: sair!.y + sair!.height / 2,
  });
  expect(hit).toContain('Sair');
  return toast;
}

test("a tag's page asks for its vehicle once, its dialogs go back with 'Voltar', and a toast leaves the header free", async ({
  page,
  request,
  look,
}) => {
  test.setTimeout(180_000);
  const serial = `6${randomDigits(15)}`;
  const plate = `NSM${randomDigits(1)}B${randomDigits(2)}`;
  const { driver } = await driverWithActiveTag(request, serial, plate);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Item 9: the page is opened as a driver opens it (a full load: its first script reads the vehicle).
  const reads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/veiculo/detail/')) reads.push(r.url());
  });
  await page.goto(`/tags/detalhes/${plate}`);
  await untilLive(page);
  await expect(page.getByRole('region', { name: 'Tag' })).toContainText('SemParar');
  // At rest: no request for 500 ms once the app is live and has drawn the tag (a second read would be in flight).
  await page.waitForLoadState('networkidle');
  expect(reads, 'the vehicle is asked for once').toHaveLength(1);

  // Item 5: every confirmation goes back with 'Voltar', never 'Cancelar' (the tag action's word).
  const actions = page.getByRole('region', { name: 'O que você pode fazer' });
  for (const [action, title] of [
    ['Bloquear', 'Bloquear tag'],
    ['Cancelar', 'Cancelar tag'],
  ] as const) {
    await actions.getByRole('button', { name: action, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog.getByRole('button', { name: 'Voltar' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancelar', exact: true })).toHaveCount(0);
    if (action === 'Bloquear') await look('tag-bloquear-voltar');
    await dialog.getByRole('button', { name: 'Voltar' }).click();
    await expect(dialog).toHaveCount(0);
  }
  await expect(page.getByRole('region', { name: 'Tag' })).toContainText('Ativa');

  // Item 6: the toast of an action, at 360 px and at 1280 px, leaves the header ('Sair') free.
  await page.setViewportSize(viewports.phone);
  await actions.getByRole('button', { name: 'Bloquear', exact: true }).click();
  await page.getByRole('dialog', { name: 'Bloquear tag' }).getByRole('button', { name: 'Bloquear' }).click();
  const blocked = await expectToastBesideHeader(page, 'Tag bloqueada com sucesso!');
  await viewportShot(page, 'phone', 'toast-fora-do-cabecalho');
  await blocked.getByRole('button', { name: 'Fechar aviso' }).click();
  await expect(blocked).toHaveCount(0);

  await page.setViewportSize(viewports.desktop);
  await actions.getByRole('button', { name: 'Liberar', exact: true }).click();
  await expectToastBesideHeader(page, 'Tag liberada com sucesso!');
  await viewportShot(page, 'desktop', 'toast-fora-do-cabecalho');
});

test('the terms are read and accepted where the driver is stopped, and the page goes on', async ({ page, request, look }) => {
  test.setTimeout(180_000);
  const driver = newDriver();
  const { Token } = await registerViaApi(request, driver);
  await page.setViewportSize(viewports.phone);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Item 7: on the dashboard the terms are the first thing, seen without scrolling at 360 px.
  const terms = page.getByRole('region', { name: 'Termos de Uso' });
  await expect(terms).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const box = await terms.boundingBox();
  expect(box!.y + box!.height, 'the terms bar is in view at 360 px').toBeLessThanOrEqual(viewports.phone.height);
  await expect(terms.getByRole('button', { name: 'Ler os Termos de Uso' })).toBeVisible();
  await look('termos-no-painel');

  // On a reload the prerendered dashboard paints first and the bar comes with the app: it is held
  // over the page, so nothing the driver may be reaching for moves (in the flow it pushed it all down).
  await page.reload();
  await expect(terms).toBeVisible();
  const shifted = await layoutShiftSoFar(page, { ms: 500 });
  expect(shifted, 'layout shift of the reloaded dashboard as the terms bar appears').toBeLessThan(0.01);

  // The withdrawal page refuses for the terms: they are accepted right there, and the form follows.
  await page.getByRole('link', { name: 'Sacar saldo via Pix' }).click();
  await expect(page).toHaveURL(/\/saldo\/retirar$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Para sacar o saldo é preciso aceitar os Termos de Uso.' })).toBeVisible();
  const bar = page.getByRole('region', { name: 'Termos de Uso' });
  await expect(bar).toBeInViewport();
  await look('termos-no-saque');
  await bar.getByRole('checkbox', { name: 'Li e aceito os Termos de Uso' }).check();
  await bar.getByRole('button', { name: 'Aceitar' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Termo aceito com sucesso!' })).toBeVisible();
  await expect(page).toHaveURL(/\/saldo\/retirar$/);
  await expect(page.getByRole('button', { name: 'Sacar', exact: true })).toBeVisible();
  await expect(bar).toHaveCount(0);

  // Refused on another device meanwhile: buying credit is refused for the terms, accepted on the spot, and bought.
  await request.post('/api/termos/rejeitar', { headers: bearer(Token), data: {} });
  await page.getByRole('link', { name: 'Portal do Motorista' }).click();
  await page.getByRole('link', { name: 'Comprar créditos de pedágio' }).click();
  await expect(page).toHaveURL(/\/saldo\/comprar$/);
  await page.getByLabel('Valor Saldo').fill('150,00');
  await page.getByRole('button', { name: 'Comprar' }).click();
  const again = page.getByRole('region', { name: 'Termos de Uso' });
  await expect(again).toBeInViewport();
  await expect(page).toHaveURL(/\/saldo\/comprar$/);
  await expect(page.getByLabel('Valor Saldo')).toHaveValue(/150,00/);
  await expect(page.getByRole('alert').filter({ hasText: 'Aceite os Termos de Uso vigentes para continuar' })).toBeVisible();
  await viewportShot(page, 'phone', 'termos-na-compra');
  const agree = again.getByRole('checkbox', { name: 'Li e aceito os Termos de Uso' });
  await expect(agree).not.toBeChecked();
  await agree.check();
  await again.getByRole('button', { name: 'Aceitar' }).click();
  await expect(again).toHaveCount(0);
  // Back at what was refused, to press it again.
  await expect(page.getByRole('button', { name: 'Comprar' })).toBeFocused();
  await page.getByRole('button', { name: 'Comprar' }).click();
  await expect(page.getByText(brl(150)).first()).toBeVisible();
  await expect(page.getByRole('button', { name: /Copiar/ }).first()).toBeVisible();
});

test('a negative balance says so, and what it means for the next passage', async ({ page, request, look }) => {
  test.setTimeout(180_000);
  const driver = await driverWithNegativeBalance(request, 'NEG');

  await page.setViewportSize(viewports.phone);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const panel = page.locator('[data-early-balance]');
  await expect(panel.getByText(brl(-15.9))).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Saldo de pedágio negativo' })).toBeVisible();
  const notices = page.getByRole('region', { name: 'Avisos' });
  const negative = notices.locator('li').filter({ hasText: 'Saldo negativo' });
  await expect(negative).toContainText(brl(-15.9));
  await expect(negative).toContainText('a próxima passagem ainda é debitada');
  await expect(notices.getByText(/Saldo abaixo do alerta/)).toHaveCount(0);
  await expect(negative.getByRole('link', { name: 'Comprar saldo' })).toHaveAttribute('href', '/saldo/comprar');
  await look('painel-saldo-negativo');
});
