import type { Page } from '@playwright/test';
import { formatBrl, messages, NEW_PIX_KEY_CAP_CENTS, payoutMessages, TAG_MONTHLY_FEE_CENTS } from '@portal/domain';
import {
  bearer,
  driverWithNegativeBalance,
  driverWithTermsAccepted,
  expect,
  holdTheApp,
  newDriver,
  registerTagViaApi,
  registerViaApi,
  signIn,
  test,
  untilLive,
} from '../support/fixtures.js';
import { brl, grouped, randomDigits } from '../support/values.js';

/**
 * Safe to touch on a phone: nothing a driver taps by mistake costs money, nothing is offered that
 * cannot be done, and what a screen says is its one true state. At 360 px (the phone project).
 */

/** What the screen reads as text (the matchers keep Intl's no-break space after R$ as it is). */
const plain = (text: string) => text.replace(/\s/g, ' ');

/** The driver's Saldo, as the API answers it. */
async function saldo(page: Page, token: string): Promise<number> {
  const answer = await page.request.get('/api/motorista/saldo', { headers: bearer(token) });
  return ((await answer.json()) as { Saldo: number }).Saldo;
}

test.describe('on a tag page', () => {
  // The first visit, as a phone on a weak link makes it: no service worker answering from its cache.
  test.use({ serviceWorkers: 'block' });

  test("'Ativar' asks first, with the price and what it is; a tap made before the app is live opens the question, never charges", async ({
    page,
    request,
    look,
  }) => {
    test.setTimeout(240_000);
    const { driver, token: Token } = await driverWithTermsAccepted(request, { credit: 100 });
    const serial = `5${randomDigits(15)}`;
    const plate = `ATV${randomDigits(1)}B${randomDigits(2)}`;
    await registerTagViaApi(request, Token, driver.cpfCnpj, serial, plate);
    await signIn(page, driver.cpfCnpj, driver.password);
    await expect(page).toHaveURL(/\/dashboard$/);

    // Pressed before the app is live: once it is, the question opens; nothing is charged.
    const release = await holdTheApp(page);
    await page.goto(`/tags/detalhes/${plate}`);
    const actions = page.getByRole('region', { name: 'O que você pode fazer' });
    await actions.getByRole('button', { name: 'Ativar', exact: true }).click();
    release();
    await untilLive(page);
    const question = page.getByRole('dialog', { name: 'Ativar tag' });
    await expect(question).toContainText(plain(`Ativar a tag ${grouped(serial)} por ${formatBrl(TAG_MONTHLY_FEE_CENTS)} por mês?`));
    await look('tag-ativar-pergunta');
    expect(await saldo(page, Token)).toBe(100);

    // 'Voltar': nothing happens.
    await question.getByRole('button', { name: 'Voltar' }).click();
    await expect(question).toHaveCount(0);
    // At rest (no request for 500 ms): an activation sent by 'Voltar' would have reached the server.
    await page.waitForLoadState('networkidle');
    expect(await saldo(page, Token)).toBe(100);
    await expect(page.getByRole('region', { name: 'Tag' })).toContainText('A tag ainda não foi ativada');

    // Asked and confirmed: the month is charged once.
    await actions.getByRole('button', { name: 'Ativar', exact: true }).click();
    await question.getByRole('button', { name: 'Ativar', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: messages.tag.activated }).first()).toBeVisible();
    await expect.poll(() => saldo(page, Token)).toBe(84.1);
  });
});

test('Sacar says a new key’s cap before the password, and refuses R$ 600,00 for a new key in the form', async ({ page, request, look }) => {
  test.setTimeout(240_000);
  const { driver, token: Token } = await driverWithTermsAccepted(request, { credit: 800 });
  await signIn(page, driver.cpfCnpj, driver.password);
  await page.getByRole('link', { name: 'Sacar saldo via Pix' }).click();
  await expect(page.getByTestId('saldo-saque')).toHaveText(brl(800));

  await page.getByLabel('Valor', { exact: true }).pressSequentially('60000');
  await page.getByLabel('Tipo da Chave Pix').selectOption('EMAIL');
  await page.getByLabel('Chave Pix', { exact: true }).fill(`nova.${randomDigits(6)}@example.com`);
  const cap = page.getByText(plain(payoutMessages.newKeyCap(formatBrl(NEW_PIX_KEY_CAP_CENTS))));
  const refusal = page.getByText(plain(payoutMessages.newKeyCapExceeded(formatBrl(NEW_PIX_KEY_CAP_CENTS))));
  await expect(cap).toBeVisible();
  await expect(refusal).toBeVisible();
  // Said above the password field.
  const password = page.getByLabel('Senha', { exact: true });
  expect((await cap.boundingBox())!.y).toBeLessThan((await password.boundingBox())!.y);
  await look('sacar-chave-nova-limite');
  await page.getByRole('button', { name: 'Sacar', exact: true }).click();
  await expect(page.getByText(payoutMessages.passwordRequired)).toHaveCount(0);
  expect(await saldo(page, Token)).toBe(800);
});

test("with a negative balance the dashboard's 'Sacar saldo via Pix' is disabled, saying why", async ({ page, request, look }) => {
  test.setTimeout(240_000);
  const driver = await driverWithNegativeBalance(request, 'NSQ');
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator('[data-early-balance]').getByText(brl(-15.9))).toBeVisible();
  const sacar = page.getByRole('button', { name: 'Sacar saldo via Pix' });
  await expect(sacar).toBeDisabled();
  await expect(sacar).toHaveAccessibleDescription(messages.withdrawal.insufficientBalance);
  await expect(page.getByRole('link', { name: 'Sacar saldo via Pix' })).toHaveCount(0);
  // Buying credit stays the way out.
  await expect(page.getByRole('link', { name: 'Comprar créditos de pedágio' })).toBeVisible();
  await look('painel-saldo-negativo-sacar');
});

test('offline, a list never read on this phone says so, once: not loading, not empty; it appears when the signal returns', async ({
  page,
  context,
  request,
  look,
}) => {
  test.setTimeout(240_000);
  const { driver, token: Token } = await driverWithTermsAccepted(request);
  const plate = `OFF${randomDigits(1)}D${randomDigits(2)}`;
  await registerTagViaApi(request, Token, driver.cpfCnpj, `4${randomDigits(15)}`, plate);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The portal is on the phone (its service worker), the tags were never read on it.
  const worker = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? '');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toBe(worker);

  await context.setOffline(true);
  await page.goto('/tags/listar');
  await expect(page.getByRole('heading', { name: 'Tags', level: 1 })).toBeVisible();
  await expect(page.getByTestId('aviso-sem-conexao')).toContainText('ainda não foram carregados');
  await expect(page.getByText('Sem conexão: a lista aparece aqui quando o sinal voltar.')).toBeVisible();
  // One state, and it stays the true one: never 'Carregando' beside it, nor 'Nenhum item.'.
  for (let second = 0; second < 3; second += 1) {
    await expect(page.getByText(/Carregando/)).toHaveCount(0);
    await expect(page.getByText('Nenhum item.')).toHaveCount(0);
    // A fixed wait on purpose: what is proven is that no other state shows up over these seconds.
    await page.waitForTimeout(1_000);
  }
  await look('offline-tags-nunca-lidas');

  await context.setOffline(false);
  await expect(page.getByRole('link', { name: new RegExp(`veículo ${plate}: ver detalhes`) })).toBeVisible();
  await expect(page.getByTestId('aviso-sem-conexao')).toHaveCount(0);
});

test('the terms bar takes at most about 120 px of a 360 × 740 phone, and what it covers is reached by scrolling', async ({
  page,
  request,
  look,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 360, height: 740 });
  const driver = newDriver();
  await registerViaApi(request, driver);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const bar = page.getByRole('region', { name: 'Termos de Uso' });
  await expect(bar).toBeVisible();
  await page.waitForLoadState('networkidle');
  const height = (await bar.boundingBox())!.height;
  expect(height, `the terms bar is ${height} px tall`).toBeLessThanOrEqual(122);

  // Every tile scrolled as far as it goes is above the bar, whole.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const barTop = (await bar.boundingBox())!.y;
  const tiles = page.getByRole('navigation', { name: 'Serviços' }).getByRole('link');
  for (const tile of await tiles.all()) {
    await tile.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const box = (await tile.boundingBox())!;
    expect(box.y + box.height, `${await tile.textContent()} is under the bar`).toBeLessThanOrEqual(barTop);
  }
  await look('barra-termos-compacta');
  // Still accepted from it, the box ticked first.
  await bar.getByRole('checkbox', { name: 'Li e aceito os Termos de Uso' }).check();
  await bar.getByRole('button', { name: 'Aceitar' }).click();
  await expect(bar).toHaveCount(0);
});
