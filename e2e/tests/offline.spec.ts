import type { APIRequestContext, Page, Route } from '@playwright/test';
import {
  bearer,
  buyBalanceViaPix,
  driverWithTermsAccepted,
  expect,
  payPixWithCli,
  registerTagViaApi,
  signIn,
  test,
} from '../support/fixtures.js';
import { keptQueries } from '../support/offlineStore.js';
import { brl, randomDigits } from '../support/values.js';

/**
 * Issue 11 on the road: the last data seen stays on screen with its date when the signal drops,
 * the actions that need the network are disabled, and a money action whose answer is lost is done
 * once however often the driver presses. Pages are opened online and the connection is cut after
 * (context.setOffline): opening the portal with no signal at all needs the service worker.
 */

const NO_ANSWER = 'A conexão caiu antes da resposta do servidor. Confira o sinal e toque de novo: o pedido não será feito duas vezes.';
/** The app's own attempts at a call with no answer: the first and three retries (1 + 2 + 4 s apart). */
const ATTEMPTS = 4;

/** 'DD/MM/YYYY HH:mm' in São Paulo for each of the last `minutes` minutes (the data was fetched in one of them). */
function recentMinutes(minutes: number): string[] {
  const format = new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return Array.from({ length: minutes + 1 }, (_, i) => {
    const p = Object.fromEntries(format.formatToParts(new Date(Date.now() - i * 60_000)).map((x) => [x.type, x.value]));
    return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
  });
}

/** The offline line is there, dated within the last few minutes (when the data was fetched). */
async function expectOfflineLine(page: Page) {
  const notice = page.getByTestId('aviso-sem-conexao');
  await expect(notice).toBeVisible();
  const text = (await notice.textContent()) ?? '';
  const date = /Sem conexão — dados de (\d{2}\/\d{2}\/\d{4} \d{2}:\d{2})/.exec(text)?.[1];
  expect(recentMinutes(5), text).toContain(date);
}

async function balanceOf(request: APIRequestContext, token: string): Promise<number> {
  const answer = (await (await request.get('/api/motorista/saldo', { headers: bearer(token) })).json()) as { Saldo: number };
  return answer.Saldo;
}

/** Every movement of the driver's statement (first page: a new driver has a handful). */
async function statement(request: APIRequestContext, token: string) {
  const answer = (await (await request.get('/api/extrato/listar?page=1', { headers: bearer(token) })).json()) as {
    Transacoes: { value: number; placeName: string }[];
  };
  return answer.Transacoes;
}

/**
 * The first `count` answers of a call are lost on the way back, after the server did the work
 * (the request reaches it; the answer is dropped). Records the Idempotency-Key of every attempt
 * and the body of every answer the server gave.
 */
async function loseAnswers(page: Page, path: string, count: number) {
  const keys: string[] = [];
  const answers: unknown[] = [];
  await page.route(`**${path}`, async (route: Route) => {
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    const response = await route.fetch();
    answers.push(await response.json());
    if (answers.length <= count) await route.abort('connectionreset');
    else await route.fulfill({ response });
  });
  return { keys, answers };
}

test('offline: the last balance with its date, actions disabled, refreshed when the signal returns, wiped by Sair', async ({
  page,
  context,
  request,
  look,
}) => {
  test.setTimeout(240_000);
  const { driver, token } = await driverWithTermsAccepted(request, { credit: 100 });
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(brl(100)).first()).toBeVisible();

  // The screens the driver looked at while there was signal: their code and data are on the phone.
  await page.getByRole('link', { name: /Extrato/ }).click();
  await expect(page.getByRole('heading', { name: 'Extrato' })).toBeVisible();
  await expect(page.getByText(brl(100)).first()).toBeVisible();
  await page.getByRole('link', { name: 'Portal do Motorista' }).click();
  await page.getByRole('link', { name: /^Tags/ }).click();
  await expect(page.getByText('Nenhum item.')).toBeVisible();
  await page.getByRole('link', { name: 'Portal do Motorista' }).click();
  await expect(page.getByText(brl(100)).first()).toBeVisible();
  await expect.poll(() => keptQueries(page)).toContain('["motorista","saldo"]');

  // The signal drops.
  await context.setOffline(true);
  await expectOfflineLine(page);
  await expect(page.getByText(brl(100)).first()).toBeVisible();
  for (const name of ['Sacar saldo via Pix', 'Comprar créditos de pedágio']) {
    const action = page.getByRole('button', { name });
    await expect(action).toBeDisabled();
    await expect(action).toHaveAccessibleDescription(/tente quando o sinal voltar/);
  }
  await look('offline-painel');

  await page.getByRole('link', { name: /Extrato/ }).click();
  await expectOfflineLine(page);
  await expect(page.getByText(brl(100)).first()).toBeVisible();
  await look('offline-extrato');

  await page.getByRole('link', { name: 'Portal do Motorista' }).click();
  await page.getByRole('link', { name: /^Tags/ }).click();
  await expectOfflineLine(page);
  await expect(page.getByRole('button', { name: 'Cadastrar Tag' })).toBeDisabled();
  await look('offline-tags');

  // Meanwhile the driver's balance moves on the server (another R$ 150,00 paid by Pix).
  await buyBalanceViaPix(request, token, driver.cpfCnpj, 150);

  // The signal returns: the screen asks again by itself.
  await page.getByRole('link', { name: 'Portal do Motorista' }).click();
  await expect(page.getByText(brl(100)).first()).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByText(brl(250)).first()).toBeVisible();
  await expect(page.getByTestId('aviso-sem-conexao')).toBeHidden();
  await expect(page.getByRole('link', { name: 'Sacar saldo via Pix' })).toBeVisible();

  // 'Sair': nothing of this driver stays on the phone.
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(() => keptQueries(page)).toEqual([]);
});

test('a withdrawal whose answer is lost is made once, however often the driver presses', async ({ page, request, look }) => {
  test.setTimeout(240_000);
  const { driver, token } = await driverWithTermsAccepted(request, { credit: 100 });
  await signIn(page, driver.cpfCnpj, driver.password);
  await page.getByRole('link', { name: 'Sacar saldo via Pix' }).click();
  await expect(page.getByTestId('saldo-saque')).toHaveText(brl(100));

  const lost = await loseAnswers(page, '/api/motorista/sacar', ATTEMPTS);
  await page.getByLabel('Valor', { exact: true }).pressSequentially('4000');
  await page.getByLabel('Tipo da Chave Pix').selectOption('PHONE');
  await page.getByLabel('Chave Pix', { exact: true }).pressSequentially('11987654321');
  // A key not saved yet asks for the password (decision 44): the first attempt saves it.
  await page.getByLabel('Senha', { exact: true }).fill(driver.password);
  await page.getByRole('button', { name: 'Sacar', exact: true }).click();

  // No answer reached the phone: the driver is told plainly, and the balance read again shows what happened.
  await expect(page.getByText(NO_ANSWER)).toBeVisible({ timeout: 40_000 });
  await expect(page.getByTestId('saldo-saque')).toHaveText(brl(60));
  await look('saque-sem-resposta');

  // The key is saved now (the password field is gone), yet the order is the same one, password included.
  await expect(page.getByLabel('Senha', { exact: true })).toHaveCount(0);
  // The driver presses again: the same key, the server's first answer, one withdrawal.
  await page.getByRole('button', { name: 'Sacar', exact: true }).click();
  await expect(page.getByText(/^Saque (solicitado|realizado)/)).toHaveCount(1);
  expect(lost.keys).toHaveLength(ATTEMPTS + 1);
  expect(new Set(lost.keys).size).toBe(1);
  expect(lost.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(lost.answers.map((answer) => JSON.stringify(answer))).toEqual(Array(ATTEMPTS + 1).fill(JSON.stringify(lost.answers[0])));

  expect(await balanceOf(request, token)).toBe(60);
  expect((await statement(request, token)).filter((row) => row.value === -40)).toHaveLength(1);
  await expect(page.getByTestId('saldo-saque')).toHaveText(brl(60));
});

test('a purchase whose answer is lost makes one Pix charge, credited once', async ({ page, request }) => {
  test.setTimeout(240_000);
  const { driver, token } = await driverWithTermsAccepted(request, { credit: 100 });
  await signIn(page, driver.cpfCnpj, driver.password);
  await page.getByRole('link', { name: 'Comprar créditos de pedágio' }).click();

  const lost = await loseAnswers(page, '/api/transacoes/gerar-qrcode', ATTEMPTS);
  await page.getByLabel('Valor Saldo').pressSequentially('15000');
  await page.getByRole('button', { name: 'Comprar', exact: true }).click();
  await expect(page.getByText(NO_ANSWER)).toBeVisible({ timeout: 40_000 });

  await page.getByRole('button', { name: 'Comprar', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Pix gerado com sucesso!' })).toBeVisible();
  expect(lost.keys).toHaveLength(ATTEMPTS + 1);
  expect(new Set(lost.keys).size).toBe(1);
  // The Pix on screen is the one the server made on the first attempt: no second charge exists.
  const first = lost.answers[0] as { qrCode: { id: string; payload: string } };
  expect(lost.answers.every((answer) => (answer as { qrCode: { id: string } }).qrCode.id === first.qrCode.id)).toBe(true);
  await expect(page.getByTestId('pix-payload')).toHaveText(first.qrCode.payload);

  await payPixWithCli(first.qrCode.id);
  await expect.poll(() => balanceOf(request, token)).toBe(250);
  expect((await statement(request, token)).filter((row) => row.value === 150)).toHaveLength(1);
});

test('a tag activation whose answer is lost charges the monthly fee once', async ({ page, request }) => {
  test.setTimeout(240_000);
  const { driver, token } = await driverWithTermsAccepted(request, { credit: 100 });
  const serial = `7${randomDigits(15)}`;
  const plate = `OFF${randomDigits(1)}A${randomDigits(2)}`;
  await registerTagViaApi(request, token, driver.cpfCnpj, serial, plate);

  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/tags/detalhes/${plate}`);
  const lost = await loseAnswers(page, '/api/tag/ativar-tag-motorista', 1);
  await page.getByRole('button', { name: 'Ativar', exact: true }).click();
  await page.getByRole('dialog', { name: 'Ativar tag' }).getByRole('button', { name: 'Ativar', exact: true }).click();

  // The first answer was lost; the app asked again with the same key and got that first answer.
  await expect(page.getByRole('alert').filter({ hasText: 'Tag ativada com sucesso!' })).toHaveCount(1);
  await expect(page.locator('.mantine-Badge-root').getByText('Ativa', { exact: true })).toBeVisible();
  expect(lost.keys).toHaveLength(2);
  expect(lost.keys[1]).toBe(lost.keys[0]);
  expect(await balanceOf(request, token)).toBe(84.1);
  expect((await statement(request, token)).filter((row) => row.value === -15.9)).toHaveLength(1);
});
