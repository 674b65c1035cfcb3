import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { bearer, createPartnerKeyWithCli, driverWithActiveTag, expect, partnerPost, settled, signIn, test } from '../support/fixtures.js';
import { pdfWords } from '../support/files.js';
import { brl, randomDigits } from '../support/values.js';

/**
 * Decision 76: a driver opts a plate in to free-flow tolls, a concessionaire sends two, the dashboard
 * tells of them, the driver pays one (receipt), contests the flagged one in one tap, downloads its
 * proof for an appeal, and anyone verifies the proof's code on /verificar (a changed code shows nothing).
 */
async function downloaded(page: Page, click: () => Promise<void>): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFile(await download.path());
}

test('a plate opted in, a toll paid with its receipt, the flagged one contested, its proof verified', async ({ page, request, look }) => {
  test.setTimeout(240_000);
  const serial = `7${randomDigits(15)}`;
  const plate = `FFW${randomDigits(1)}A${randomDigits(2)}`;
  const { driver, token } = await driverWithActiveTag(request, serial, plate);
  const key = await createPartnerKeyWithCli('concessionaria', `RioSP ${randomDigits(6)}`);
  const run = randomDigits(8);
  const toll = (id: string, portico: string, valor: number, occurredAt: Date) =>
    partnerPost(
      request,
      '/api/parceiro/livre-passagem',
      key,
      {
        externalId: `${run}-${id}`,
        placa: plate,
        portico,
        rodovia: 'BR-116',
        km: 204.5,
        sentido: 'São Paulo',
        eixos: 3,
        valor,
        occurredAt: occurredAt.toISOString(),
      },
      202,
    );

  // Before the consent nothing is kept.
  await toll('0', 'Pórtico Arujá', 8.4, new Date(Date.now() - 60 * 60_000));

  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/veiculos/listar');
  const optIn = page.getByRole('switch', { name: `Pedágio sem cancela da placa ${plate}` });
  await optIn.click();
  const consent = page.getByRole('dialog', { name: 'Ligar pedágio sem cancela' });
  await expect(consent).toContainText('placa, pórtico, rodovia e km, data e hora, valor e vencimento');
  await look('free-flow-consent');
  await consent.getByRole('button', { name: 'Autorizar' }).click();
  // The switch shows the choice while it is sent, disabled: saved once it is enabled again. A toll
  // sent before that would come before the consent, and not be kept.
  await expect(optIn).toBeChecked();
  await expect(optIn).toBeEnabled();

  // Two tolls: one before the tag's activation, one while it is active with money (flagged).
  await toll('1', 'Pórtico Guarulhos', 12.75, new Date(Date.now() - 2 * 60 * 60_000));
  await toll('2', 'Pórtico Itaquá', 9.3, new Date());

  await page.goto('/dashboard');
  await expect(page.getByText('2 pedágios sem cancela em aberto')).toBeVisible();
  await look('free-flow-dashboard');

  await page.goto('/livre-passagem');
  await settled(page);
  await expect(page.getByRole('heading', { name: 'Pedágios sem cancela', level: 1 })).toBeVisible();
  const guarulhos = page.locator('article').filter({ hasText: 'Pórtico Guarulhos' });
  const itaqua = page.locator('article').filter({ hasText: 'Pórtico Itaquá' });
  await expect(page.locator('article').filter({ hasText: 'Pórtico Arujá' })).toHaveCount(0);
  await expect(itaqua).toContainText('Sua tag estava ativa: esta cobrança pode ser indevida');
  await expect(guarulhos).toContainText(brl(12.75));
  await look('free-flow-list');

  // Paid once from Saldo: R$ 84,10 - 12,75.
  await guarulhos.getByRole('button', { name: /^Pagar R\$/ }).click();
  const pay = page.getByRole('dialog', { name: 'Pagar pedágio sem cancela' });
  await expect(pay).toContainText(brl(12.75));
  await pay.getByRole('button', { name: new RegExp(`^Pagar ${brl(12.75).source}`) }).click();
  await expect(guarulhos).toContainText('Pago');
  const saldo = (await (await request.get('/api/motorista/saldo', { headers: bearer(token) })).json()) as { Saldo: number };
  expect(saldo.Saldo).toBe(71.35);
  const receipt = await downloaded(page, () => guarulhos.getByRole('button', { name: /^Ver comprovante/ }).click());
  expect(receipt.subarray(0, 5).toString()).toBe('%PDF-');
  expect(await pdfWords(receipt)).toContain('Pórtico Guarulhos');

  // The flagged one contested in one tap.
  await itaqua
    .getByRole('button', { name: /^Contestar/ })
    .first()
    .click();
  const contest = page.getByRole('dialog', { name: 'Contestar cobrança' });
  await contest.getByRole('button', { name: 'A tag pagou esta passagem' }).click();
  await expect(itaqua).toContainText('Em análise');
  await look('free-flow-contested');

  // Its proof for an appeal, verified by anyone from its code.
  const proof = await downloaded(page, () => itaqua.getByRole('button', { name: /^Comprovante para recurso/ }).click());
  const code = /[LP][0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{27}/.exec(await pdfWords(proof))?.[0];
  expect(code, 'o código de verificação no PDF').toBeTruthy();
  const stranger = await page
    .context()
    .browser()
    ?.newPage({ viewport: page.viewportSize() ?? undefined });
  if (!stranger) throw new Error('sem navegador');
  const origin = new URL(page.url()).origin;
  await stranger.goto(`${origin}/verificar/${code ?? ''}`);
  await expect(stranger.getByText('Comprovante autêntico: o código confere')).toBeVisible();
  await expect(stranger.getByText(plate).first()).toBeVisible();
  await expect(stranger.getByText(driver.cpfCnpj)).toHaveCount(0);
  const changed = `${code?.slice(0, -1)}${code?.endsWith('A') ? 'B' : 'A'}`;
  await stranger.goto(`${origin}/verificar/${changed}`);
  await expect(stranger.getByText('Comprovante não encontrado: o código não confere')).toBeVisible();
  await stranger.close();
});
