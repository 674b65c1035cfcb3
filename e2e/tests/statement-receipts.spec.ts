import type { APIRequestContext, Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import {
  bearer,
  buyBalanceViaPix,
  driverWithTermsAccepted,
  expect,
  newDriver,
  openLive,
  payPixWithCli,
  registerViaApi,
  reloadLive,
  signIn,
  test,
} from '../support/fixtures.js';
import { brl, todayInSaoPaulo } from '../support/values.js';

/** A withdrawal to the driver's own CPF key, as the web app asks it; answers its id. */
async function withdrawViaApi(request: APIRequestContext, token: string, cpf: string, amount: number): Promise<string> {
  const response = await request.post('/api/motorista/sacar', {
    headers: bearer(token),
    data: { description: 'Saque Portal do Motorista', receiver_document: cpf, amount, pix: { type: 'CPF', key: cpf } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const answer = (await response.json()) as { withdrawalId?: string };
  expect(answer.withdrawalId).toBeTruthy();
  return answer.withdrawalId!;
}

/** On a phone the filters fold under 'Filtros': open them (on a wide screen they are always shown). */
async function openFilters(page: Page) {
  const toggle = page.getByRole('button', { name: 'Filtros', exact: true });
  if (await toggle.isVisible()) {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }
}

async function closeFilters(page: Page) {
  const toggle = page.getByRole('button', { name: 'Filtros', exact: true });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'true') await toggle.click();
}

/** Prints the page as the browser would (print stylesheet), screenshots it, and back to the screen. */
async function lookPrinted(page: Page, look: (name: string) => Promise<void>, name: string) {
  await page.emulateMedia({ media: 'print' });
  // The printed page is the receipt only: no app header, no buttons.
  await expect(page.locator('header')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Imprimir' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Baixar PDF' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Voltar ao extrato' })).toBeHidden();
  await expect(page.getByRole('article')).toBeVisible();
  await look(name);
  await page.emulateMedia({ media: 'screen' });
}

test('a driver buys balance, opens its receipt, filters the statement to purchases, exports CSV and PDF, and sees a withdrawal receipt', async ({
  page,
  request,
  look,
}) => {
  test.setTimeout(360_000);
  const { driver, token: Token } = await driverWithTermsAccepted(request);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // The purchase, from the success screen to its receipt.
  // Typing before the app is live is prerender.spec.ts's subject; this journey types in the live form.
  await openLive(page, '/saldo/comprar');
  await page.getByLabel('Valor Saldo').pressSequentially('15000');
  await page.getByRole('button', { name: 'Comprar', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ver comprovante' })).toHaveCount(0);
  const charge = JSON.parse((await page.evaluate(() => localStorage.getItem('comprar_saldo_pix'))) ?? '{}') as { id: string };
  await payPixWithCli(charge.id);
  await expect(page.getByText('Pagamento recebido! Seu saldo foi atualizado.')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('link', { name: 'Ver comprovante' }).click();
  await expect(page).toHaveURL(new RegExp(`/comprovantes/compra/${charge.id}$`));
  await expect(page).toHaveTitle(/Comprovante/);
  const receipt = page.getByRole('article', { name: 'Comprovante de compra de saldo via Pix' });
  await expect(receipt).toBeVisible();
  await expect(receipt.getByTestId('valor-comprovante')).toHaveText(brl(150));
  await expect(receipt.getByTestId('situacao-comprovante')).toHaveText('Pagamento recebido');
  await expect(receipt).toContainText(driver.name);
  await expect(receipt).toContainText(charge.id);
  await expect(receipt).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
  // The driver's CPF is masked as banks do, never whole.
  await expect(receipt).not.toContainText(driver.maskedCpfCnpj);
  await expect(receipt).toContainText(`***.${driver.cpfCnpj.slice(3, 6)}.${driver.cpfCnpj.slice(6, 9)}-**`);
  await look('comprovante-compra');
  await lookPrinted(page, look, 'comprovante-compra-impresso');

  const [receiptPdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Baixar PDF' }).click()]);
  expect(receiptPdf.suggestedFilename()).toMatch(/\.pdf$/);
  expect((await readFile(await receiptPdf.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // A withdrawal, so the statement holds more than one kind.
  const withdrawalId = await withdrawViaApi(request, Token, driver.cpfCnpj, 40);

  // The statement, filtered to purchases of this month.
  await page.getByRole('link', { name: 'Voltar ao extrato' }).click();
  await expect(page).toHaveURL(/\/extrato\/listar$/);
  await expect(page.getByRole('row').filter({ hasText: 'Saque via Pix' })).toHaveCount(1);
  await openFilters(page);
  await page.getByLabel('Tipo', { exact: true }).selectOption({ label: 'Compras de saldo' });
  await expect(page).toHaveURL(/\/extrato\/listar\?tipo=compras$/);
  await page.getByLabel('Período', { exact: true }).selectOption({ label: 'Este mês' });
  await expect(page).toHaveURL(/\/extrato\/listar\?periodo=este-mes&tipo=compras$/);
  const purchaseRow = page.getByRole('row').filter({ hasText: 'Compra de saldo via Pix' });
  await expect(purchaseRow).toHaveCount(1);
  await expect(purchaseRow).toContainText(brl(150));
  await expect(page.getByRole('row').filter({ hasText: 'Saque via Pix' })).toHaveCount(0);
  await look('extrato-filtros-abertos');
  await closeFilters(page);
  await look('extrato-filtros');

  // Reload keeps the filters (they are the URL).
  await reloadLive(page);
  await expect(page.getByLabel('Tipo', { exact: true })).toHaveValue('compras');
  await expect(page.getByRole('row').filter({ hasText: 'Saque via Pix' })).toHaveCount(0);
  await expect(purchaseRow).toHaveCount(1);

  // CSV: UTF-8 with BOM, ';', comma decimals, accents; only the filtered kind.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const csvBytes = await readFile(await csv.path());
  expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = new TextDecoder('utf-8', { ignoreBOM: true }).decode(csvBytes.subarray(3)).split(/\r?\n/).filter(Boolean);
  expect(lines[0]?.split(';')).toEqual(['Data', 'Descrição', 'Tipo', 'Conta', 'Valor (R$)', 'Saldo após (R$)', 'Placa', 'Centro de custo']);
  // The purchase, then one total per account (only Saldo moved).
  expect(lines).toHaveLength(3);
  expect(lines[2]?.split(';')).toEqual(['', 'Total do período', '', 'Saldo', '150,00', '', '', '']);
  const fields = lines[1]!.split(';');
  expect(fields[0]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
  expect(fields[1]).toMatch(/compra de saldo via pix/i);
  expect(fields[2]).toBe('Compras de saldo');
  expect(fields[3]).toBe('Saldo');
  expect(fields[4]).toBe('150,00');
  expect(fields[5]).toBe('150,00');
  // A purchase is for no vehicle (decision 79).
  expect(fields.slice(6)).toEqual(['', '']);

  // PDF.
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar PDF' }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  expect((await readFile(await pdf.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The receipt from the row, and back.
  await purchaseRow.getByRole('link', { name: 'Ver comprovante' }).click();
  await expect(page).toHaveURL(new RegExp(`/comprovantes/compra/${charge.id}$`));
  await expect(receipt).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/extrato\/listar\?periodo=este-mes&tipo=compras$/);

  // A chosen range of São Paulo days: today only.
  const today = todayInSaoPaulo();
  await openFilters(page);
  await page.getByLabel('Período', { exact: true }).selectOption({ label: 'Escolher datas' });
  await page.getByLabel('De', { exact: true }).fill(today);
  await page.getByLabel('Até', { exact: true }).fill(today);
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await expect(page).toHaveURL(new RegExp(`/extrato/listar\\?periodo=intervalo&de=${today}&ate=${today}&tipo=compras$`));
  await expect(purchaseRow).toHaveCount(1);
  // Two date inputs side by side never widen the page (no sideways scrolling at 360 px).
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await look('extrato-datas');

  // The withdrawal's receipt from its row.
  await page.getByLabel('Tipo', { exact: true }).selectOption({ label: 'Saques' });
  await expect(page).toHaveURL(new RegExp(`/extrato/listar\\?periodo=intervalo&de=${today}&ate=${today}&tipo=saques$`));
  const withdrawalRow = page.getByRole('row').filter({ hasText: 'Saque via Pix' });
  await expect(withdrawalRow).toHaveCount(1);
  await withdrawalRow.getByRole('link', { name: 'Ver comprovante' }).click();
  await expect(page).toHaveURL(new RegExp(`/comprovantes/saque/${withdrawalId}$`));
  const withdrawalReceipt = page.getByRole('article', { name: 'Comprovante de saque via Pix' });
  await expect(withdrawalReceipt.getByTestId('valor-comprovante')).toHaveText(brl(40));
  await expect(withdrawalReceipt.getByRole('region', { name: 'Recebedor' })).toContainText('Chave Pix (CPF)');
  await expect(withdrawalReceipt.getByRole('region', { name: 'Pagador' })).toContainText('Portal do Motorista');
  await look('comprovante-saque');
  await lookPrinted(page, look, 'comprovante-saque-impresso');
});

test("another driver's receipt reads as not found, with the way back to the statement", async ({ page, request, look }) => {
  test.setTimeout(180_000);
  const { driver: other, token: otherToken } = await driverWithTermsAccepted(request);
  const otherCharge = await buyBalanceViaPix(request, otherToken, other.cpfCnpj, 120);

  // A name of their own: the header says whose account it is (decision 77), and it must not be taken for the other's.
  const driver = { ...newDriver(), name: 'Rita Estradeira Teste' };
  await registerViaApi(request, driver);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/comprovantes/compra/${otherCharge.id}`);
  const alert = page.getByRole('alert').filter({ hasText: 'Comprovante não encontrado' });
  await expect(alert).toBeVisible();
  await expect(page.getByText(other.name)).toHaveCount(0);
  await look('comprovante-nao-encontrado');
  await alert.getByRole('link', { name: 'Voltar ao extrato' }).click();
  await expect(page).toHaveURL(/\/extrato\/listar$/);
});
