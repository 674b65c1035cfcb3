import type { Browser, Page, TestInfo } from '@playwright/test';
import { cpf } from 'cpf-cnpj-validator';
import { formatCpfCnpj } from '@portal/domain';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bearer,
  buyBalanceViaPix,
  closeToast,
  driverWithTermsAccepted,
  expect,
  expectAccessible,
  reloadLive,
  screenshot,
  settled,
  signIn,
  test,
  type CliTarget,
} from '../support/fixtures.js';
import { brl } from '../support/values.js';

/**
 * Issue 21, point 3: a stolen phone cannot empty the account. The driver's own phone is one browser
 * context; a second one (the thief, who saw the password) signs in, saves a stranger's Pix key in
 * Configurações and tries to send the whole balance to it at 23h. The new key receives at most
 * R$ 500,00 in its first 24 hours; the driver's phone then shows the key and the payout on the
 * dashboard and removes the key.
 *
 * The night needs the server's payout clock at 23h: this file starts its own server (as
 * playwright.config.ts starts the shared one) with CLOCK_START, on a port of its own per worker.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const port = Number(process.env.E2E_PORT ?? 3100) + 40 + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const serverUrl = `http://127.0.0.1:${port}`;

test.use({ baseURL: serverUrl });

/** 23h today in São Paulo (UTC-3 all year since 2019): inside the night period (20h to 6h). */
function tonightAt23(): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
  return `${day}T23:00:00-03:00`;
}

/** The same instant 24 hours later as the screens write it ('DD/MM/AAAA 23:00'): when the new key's cap ends. */
function tomorrowAt23(): string {
  const next = new Date(Date.parse(tonightAt23()) + 24 * 3_600_000);
  const day = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric' }).format(
    next,
  );
  return `${day} 23:00`;
}

let server: ChildProcess | undefined;
let dataDir = '';
let cli: CliTarget;

test.beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-stolen-phone-'));
  const database = path.join(dataDir, 'portal.sqlite');
  cli = { url: serverUrl, database };
  server = spawn('node', ['apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database,
      NODE_ENV: 'development',
      DEMO_SEED: 'false',
      LOG_LEVEL: 'warn',
      CLOCK_START: tonightAt23(),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server for this journey exited with ${server.exitCode}`);
    const up = await fetch(`${serverUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`${serverUrl} did not answer within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Another phone: the same screen size as the project's, its own storage and session. */
async function anotherPhone(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const { viewport, isMobile, hasTouch, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ baseURL: serverUrl, viewport, isMobile, hasTouch, locale, timezoneId });
  return context.newPage();
}

/** No sideways scrolling at this width: nothing is wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(client);
}

/** Back to the top before a full-page screenshot: the sticky header is drawn where the page was scrolled to. */
const toTop = (page: Page) => page.evaluate(() => window.scrollTo(0, 0));

async function balanceOf(page: Page, token: string): Promise<number> {
  const answer = (await (await page.request.get('/api/motorista/saldo', { headers: bearer(token) })).json()) as { Saldo: number };
  return answer.Saldo;
}

test('a stolen phone: a key saved with the password receives at most R$ 500,00 at night, and the driver sees it and removes it', async ({
  page,
  browser,
  request,
  look,
}, testInfo) => {
  test.setTimeout(300_000);
  const { driver, token: Token } = await driverWithTermsAccepted(request);
  await buyBalanceViaPix(request, Token, driver.cpfCnpj, 1500, cli);
  await expect.poll(() => balanceOf(page, Token)).toBe(1500);

  // The driver's own phone, signed in.
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(brl(1500)).first()).toBeVisible();

  // The thief: another phone, the password seen over the driver's shoulder.
  const thief = await anotherPhone(browser, testInfo);
  await signIn(thief, driver.cpfCnpj, driver.password);
  await expect(thief).toHaveURL(/\/dashboard$/);

  // Configurações: a stranger's CPF saved as a key, with the password.
  const stranger = cpf.generate();
  await thief.getByRole('link', { name: 'Configurações' }).click();
  await expect(thief.getByRole('heading', { name: 'Minhas chaves Pix' })).toBeVisible();
  const keyForm = thief.getByRole('form', { name: 'Salvar uma chave Pix' });
  await expect(keyForm.getByText(/uma chave nova pede sua senha e, nas primeiras 24 horas, recebe no máximo R\$\s500,00/)).toBeVisible();
  await keyForm.getByLabel('Tipo da Chave Pix').selectOption('CPF');
  await keyForm.getByLabel('Chave Pix', { exact: true }).pressSequentially(stranger);
  await keyForm.getByLabel('Senha', { exact: true }).fill(driver.password);
  await keyForm.getByRole('button', { name: 'Salvar chave' }).click();
  await expect(thief.getByText('Chave Pix salva. Nas primeiras 24 horas ela pode receber até R$ 500,00.')).toBeVisible();
  const keys = thief.getByRole('list', { name: 'Minhas chaves Pix' });
  await expect(keys.getByText(formatCpfCnpj(stranger))).toBeVisible();
  await closeToast(thief, 'Sucesso!');

  // Sacar: the whole balance to that key, at 23h. The key is saved (no password asked), and capped.
  await thief.goto('/saldo/retirar');
  await expect(thief.getByTestId('saldo-saque')).toHaveText(brl(1500));
  await expect(thief.getByTestId('limites-saque')).toContainText(/À noite \(20h às 6h\)\s*R\$\s1\.000,00/);
  const valor = thief.getByLabel('Valor', { exact: true });
  await valor.pressSequentially('150000');
  await thief
    .getByRole('group', { name: 'Minhas chaves Pix' })
    .getByRole('button', { name: `CPF ${formatCpfCnpj(stranger)}` })
    .click();
  await expect(thief.getByLabel('Chave Pix', { exact: true })).toHaveValue(formatCpfCnpj(stranger));
  await expect(thief.getByLabel('Senha', { exact: true })).toHaveCount(0);
  await thief.getByRole('button', { name: 'Sacar', exact: true }).click();
  // Refused, saying which limit and when it frees.
  const refusal = thief.getByText(/Esta chave Pix foi salva há menos de 24 horas e pode receber no máximo R\$\s500,00 até/);
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText(tomorrowAt23());
  await expect(valor).toHaveAttribute('aria-invalid', 'true');
  await expect(thief.getByTestId('saldo-saque')).toHaveText(brl(1500));
  await expectNoSidewaysScroll(thief);
  await thief.waitForLoadState('networkidle');
  await toTop(thief);
  await screenshot(thief, 'roubo-saque-recusado');
  await expectAccessible(thief);

  // R$ 500,00 goes: no more. The rest of the night the key receives nothing.
  await valor.fill('');
  await valor.pressSequentially('50000');
  await thief.getByRole('button', { name: 'Sacar', exact: true }).click();
  await expect(thief.getByText('Sucesso!', { exact: true })).toBeVisible();
  await expect(thief.getByTestId('saldo-saque')).toHaveText(brl(1000));
  await closeToast(thief, 'Sucesso!');
  await valor.pressSequentially('100');
  await thief
    .getByRole('group', { name: 'Minhas chaves Pix' })
    .getByRole('button', { name: `CPF ${formatCpfCnpj(stranger)}` })
    .click();
  await thief.getByRole('button', { name: 'Sacar', exact: true }).click();
  await expect(thief.getByText(/pode receber no máximo R\$\s500,00 até .* \(ainda R\$\s0,00\)/)).toBeVisible();
  expect(await balanceOf(page, Token)).toBe(1000);

  // The driver's own phone: the dashboard says what happened.
  await reloadLive(page);
  const notices = page.getByRole('region', { name: 'Avisos' });
  const keyNotice = notices.getByRole('listitem').filter({ hasText: /Chave Pix CPF \*\*\*\.\d{3}\.\d{3}-\*\* salva em/ });
  await expect(keyNotice).toContainText('Não foi você? Remova a chave em Configurações e troque sua senha.');
  const payoutNotice = notices.getByRole('listitem').filter({ hasText: /Saque de R\$\s500,00 para a chave Pix CPF/ });
  await expect(payoutNotice).toBeVisible();
  await expect(payoutNotice.getByRole('link', { name: /^Comprovante do saque de R\$\s500,00$/ })).toHaveAttribute(
    'href',
    /\/comprovantes\/saque\//,
  );
  await expect(page.getByText(brl(1000)).first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await look('roubo-painel-avisos');

  // 'Ver chaves': Configurações, at the keys. The stranger's key, capped, and the night's use.
  await keyNotice.getByRole('link', { name: 'Ver chaves Pix salvas' }).click();
  await expect(page).toHaveURL(/\/configuracoes#chaves-pix$/);
  const driverKeys = page.getByRole('list', { name: 'Minhas chaves Pix' });
  const strangerKey = driverKeys.getByRole('listitem').filter({ hasText: formatCpfCnpj(stranger) });
  await expect(strangerKey).toContainText(/Até \d{2}\/\d{2} 23:00 não pode receber mais nada \(já recebeu R\$\s500,00\)/);
  await expect(driverKeys.getByRole('listitem').first()).toContainText('Seu CPF/CNPJ');
  await expect(driverKeys.getByRole('listitem').first()).toContainText(driver.maskedCpfCnpj);
  const limits = page.getByRole('form', { name: 'Limites de saque Pix' });
  await expect(limits.getByLabel('Limite diário')).toHaveAccessibleDescription(/Usado hoje: R\$\s500,00\./);
  await expect(limits.getByLabel('Limite noturno (20h às 6h)')).toHaveAccessibleDescription(/Usado nesta noite: R\$\s500,00\./);
  await expectNoSidewaysScroll(page);
  await toTop(page);
  await look('roubo-configuracoes-chaves-limites');

  // Removed, after a confirmation.
  await strangerKey.getByRole('button', { name: `Remover chave CPF ${formatCpfCnpj(stranger)}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Remover chave Pix' });
  await expect(dialog).toContainText('Um saque para ela vai pedir sua senha de novo.');
  await settled(page);
  // The screen as the driver sees it (a full-page picture would draw the dialog's backdrop over one screenful only).
  await page.screenshot({ path: path.join(repoRoot, 'e2e', 'screenshots', testInfo.project.name, 'roubo-remover-chave.png') });
  await dialog.getByRole('button', { name: 'Remover', exact: true }).click();
  await expect(page.getByText('Chave Pix removida.')).toBeVisible();
  await expect(driverKeys.getByText(formatCpfCnpj(stranger))).toHaveCount(0);

  // On the thief's phone the key is no longer saved: sending to it asks for the password again.
  await reloadLive(thief);
  await expect(thief.getByTestId('saldo-saque')).toHaveText(brl(1000));
  await expect(thief.getByRole('group', { name: 'Minhas chaves Pix' }).getByRole('button')).toHaveCount(1);
  await thief.getByLabel('Tipo da Chave Pix').selectOption('CPF');
  await thief.getByLabel('Chave Pix', { exact: true }).pressSequentially(stranger);
  await expect(thief.getByLabel('Senha', { exact: true })).toBeVisible();
  await thief.context().close();
});
