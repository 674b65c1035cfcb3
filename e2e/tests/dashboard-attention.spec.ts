import type { Page } from '@playwright/test';
import { createPixChargeViaApi, driverWithTermsAccepted, expect, payPixWithCli, reloadLive, signIn, test } from '../support/fixtures.js';
import { brl } from '../support/values.js';

/** The balance tile's value: the first thing a driver must see, above the fold of the device. */
async function expectBalanceAboveFold(page: Page) {
  const value = page.getByRole('heading', { name: 'Saldo de pedágio' }).locator('xpath=following-sibling::*[1]');
  await expect(value).toHaveText(/R\$/);
  const box = await value.boundingBox();
  const height = page.viewportSize()!.height;
  expect(box, 'the balance value is on the page').not.toBeNull();
  expect(box!.y + box!.height, 'the balance value is above the fold').toBeLessThan(height);
}

test('the dashboard says what needs attention, and the alert level is the driver’s choice', async ({ page, request, look }) => {
  test.setTimeout(240_000);
  const { driver, token: Token } = await driverWithTermsAccepted(request);
  // A purchase waiting for its Pix, and a balance of R$ 0,00: below the default alert level of R$ 50,00.
  const charge = await createPixChargeViaApi(request, Token, driver.cpfCnpj, 100);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  const notices = page.getByRole('region', { name: 'Avisos' });
  await expect(notices.getByText('Saldo abaixo do alerta de R$ 50,00')).toBeVisible();
  await expect(notices.getByText(/Compra de R\$\s100,00 aguardando o Pix/)).toBeVisible();
  await expect(notices.getByRole('link', { name: 'Comprar saldo' })).toHaveAttribute('href', '/saldo/comprar');
  await expectBalanceAboveFold(page);
  await look('dashboard-avisos');

  // The Pix is paid: the pending purchase and the low balance (R$ 100,00 >= R$ 50,00) go away, the movement shows.
  await payPixWithCli(charge.id);
  await reloadLive(page);
  const lastMovements = page.getByRole('region', { name: 'Últimas movimentações' });
  await expect(lastMovements.getByText('Compra de saldo via Pix')).toBeVisible();
  await expect(lastMovements.getByText(brl(100))).toBeVisible();
  await expect(page.getByRole('region', { name: 'Avisos' })).toHaveCount(0);
  await look('dashboard-sem-avisos');
  await lastMovements.getByRole('link', { name: 'Ver extrato completo' }).click();
  await expect(page).toHaveURL(/\/extrato\/listar/);

  // The driver raises the alert level to R$ 200,00: the dashboard warns again.
  await page.getByRole('link', { name: 'Configurações' }).click();
  await expect(page).toHaveURL(/\/configuracoes$/);
  const level = page.getByLabel('Nível de alerta do saldo');
  await expect(level).toHaveValue(/50,00/);
  await level.fill('60000,00');
  await page.getByRole('button', { name: 'Salvar', exact: true }).click();
  await expect(page.getByText('Informe um valor entre R$ 0,00 e R$ 50.000,00')).toBeVisible();
  await look('configuracoes-erro');
  await level.fill('200,00');
  await page.getByRole('button', { name: 'Salvar', exact: true }).click();
  await expect(page.getByText('Preferências salvas com sucesso')).toBeVisible();
  await look('configuracoes');

  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Avisos' }).getByText('Saldo abaixo do alerta de R$ 200,00')).toBeVisible();
  await expectBalanceAboveFold(page);
});
