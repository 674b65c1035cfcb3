import { readFile } from 'node:fs/promises';
import { demoDriver, expect, newDriver, openLive, registerViaApi, reloadLive, signIn, test } from '../support/fixtures.js';
import { brl } from '../support/values.js';

test('a visitor without a session is sent to /login', async ({ page, look }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page).toHaveTitle(/Entrar/);
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  await look('login');
});

test('sign-in explains what is missing or wrong', async ({ page, look }) => {
  await openLive(page, '/login');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Por favor digite seu CPF/CNPJ')).toBeVisible();
  await expect(page.getByText('Por favor digite sua senha')).toBeVisible();

  await signIn(page, demoDriver.cpfCnpj, 'senha-errada');
  await expect(page.getByRole('alert').filter({ hasText: 'Usuário ou senha incorretos' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await look('login-erro');
});

test('a new driver registers, sees the balance, accepts the terms and signs out', async ({ page, look }) => {
  const driver = newDriver();
  await page.goto('/login');
  await page
    .getByRole('link', { name: 'Criar conta' })
    .or(page.getByRole('button', { name: 'Criar conta' }))
    .click();
  await expect(page).toHaveURL(/\/registrar$/);

  await page.getByRole('button', { name: 'Criar conta' }).click();
  for (const message of [
    'Por favor digite seu nome completo',
    'Por favor insira seu CPF ou CNPJ',
    'Por favor insira seu telefone',
    'Digite uma senha de pelo menos 8 caracteres',
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await look('registrar-erros');

  await page.getByLabel('Nome completo').fill(driver.name);
  await page.getByLabel('CPF/CNPJ').pressSequentially(driver.cpfCnpj);
  await expect(page.getByLabel('CPF/CNPJ')).toHaveValue(driver.maskedCpfCnpj);
  await page.getByLabel('Telefone').pressSequentially(driver.phone);
  await expect(page.getByLabel('Telefone')).toHaveValue('(11) 98765-4321');
  await page.getByLabel('Senha', { exact: true }).fill(driver.password);
  await page.getByLabel('Confirmação de senha', { exact: true }).fill('outra-senha');
  await page.getByRole('button', { name: 'Criar conta' }).click();
  await expect(page.getByText('As senhas não coincidem')).toBeVisible();
  await page.getByLabel('Confirmação de senha', { exact: true }).fill(driver.password);
  await look('registrar');
  await page.getByRole('button', { name: 'Criar conta' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Olá, Joana')).toBeVisible();
  await expect(page.getByText('Saldo de pedágio')).toBeVisible();
  await expect(page.getByText(brl(0)).first()).toBeVisible();
  for (const [tile, route] of [
    ['Veículos', '/veiculos/listar'],
    ['Tags', '/tags/listar'],
    ['VPOs', '/vpos/listar'],
    ['Extrato', '/extrato/listar'],
  ]) {
    await expect(page.getByRole('link', { name: new RegExp(`^${tile}\\b`) })).toHaveAttribute('href', route!);
  }
  await expect(page.getByRole('link', { name: 'Sacar saldo via Pix' })).toHaveAttribute('href', '/saldo/retirar');
  await expect(page.getByRole('link', { name: 'Comprar créditos de pedágio' })).toHaveAttribute('href', '/saldo/comprar');
  const accept = page.getByRole('button', { name: 'Aceitar', exact: true });
  await expect(accept).toBeDisabled();
  await look('dashboard-termos');

  await page.getByLabel('Li e aceito os Termos de Uso').check();
  await expect(accept).toBeEnabled();
  await accept.click();
  await expect(accept).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('aceite_termo'))).toBe('aceito');
  await look('dashboard');

  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  await signIn(page, driver.maskedCpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Olá, Joana')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Aceitar', exact: true })).toBeHidden();
});

test('a driver who rejects the terms is blocked until accepting them', async ({ page, request, look }) => {
  const driver = newDriver();
  await registerViaApi(request, driver);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.getByRole('button', { name: 'Rejeitar' }).click();
  await expect(page.getByRole('dialog')).toContainText('Rejeitar os Termos de Uso?');
  await page.getByRole('dialog').getByRole('button', { name: 'Rejeitar' }).click();
  await expect(page).toHaveURL(/\/blocked-access$/);
  await expect(page.getByRole('heading', { name: 'Acesso Bloqueado' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // Signing in again while the rejection stands leads back here.
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/blocked-access$/);
  await expect(page.getByRole('heading', { name: 'Acesso Bloqueado' })).toBeVisible();
  await look('acesso-bloqueado');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('button', { name: 'Baixar Termos de Uso' })
      .or(page.getByRole('link', { name: 'Baixar Termos de Uso' }))
      .click(),
  ]);
  expect(download.suggestedFilename()).toBe('Termos-de-Uso.pdf');
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

  await page.getByLabel('Aceito os termos').check();
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();
  await expect(page.getByRole('button', { name: 'Aceitar', exact: true })).toBeHidden();
});

test('the demo driver signs in', async ({ page }) => {
  await signIn(page, '529.982.247-25', demoDriver.password);
  await expect(page).toHaveURL(/\/(dashboard|blocked-access)$/);
});

test("São Paulo's zone data is checked in a worker once the page is live, never on the page's own thread, and kept for a week", async ({
  page,
}) => {
  // Counts the São Paulo formatters the page itself builds (the first one loads the zone data: 62–140 ms on a slowed phone).
  await page.addInitScript(() => {
    const Native = Intl.DateTimeFormat;
    const seen = window as unknown as { saoPauloFormatters: number };
    seen.saoPauloFormatters = 0;
    class Counted extends Native {
      constructor(locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
        if (options?.timeZone === 'America/Sao_Paulo') seen.saoPauloFormatters += 1;
        super(locales, options);
      }
    }
    Object.defineProperty(Intl, 'DateTimeFormat', { value: Counted, configurable: true, writable: true });
  });
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto('/login');
  const today = Math.floor(Date.now() / 86_400_000);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('fuso_sp_verificado')), { timeout: 20_000 }).toBe(`${today}:0`);
  expect(workers.some((url) => /\/assets\/zoneCheck\.worker-[\w-]+\.js$/.test(url))).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { saoPauloFormatters: number }).saoPauloFormatters)).toBe(0);

  // Checked today: the next visit does not check again.
  workers.length = 0;
  await reloadLive(page);
  // Past the moment the check would start: the page's idle callbacks run in the order asked, the app's first.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 500))));
  expect(workers).toEqual([]);
});
