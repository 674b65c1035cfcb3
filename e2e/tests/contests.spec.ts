import type { APIRequestContext } from '@playwright/test';
import {
  bearer,
  closeToast,
  createPartnerKeyWithCli,
  driverWithActiveTag,
  expect,
  partnerPost,
  reloadLive,
  settled,
  signIn,
  test,
} from '../support/fixtures.js';
import { brl, randomDigits } from '../support/values.js';

/**
 * Decision 56: a driver contests a toll passage from the statement; the operator answers through the
 * partner API; an accepted contest gives the money back once, and the statement and the balance say
 * so. Two passages at one plaza minutes apart are a possible double charge: the dashboard says so and
 * contests it in one tap.
 */
async function saldo(request: APIRequestContext, token: string): Promise<number> {
  return ((await (await request.get('/api/motorista/saldo', { headers: bearer(token) })).json()) as { Saldo: number }).Saldo;
}

test('a driver contests a passage, the operator accepts it and the money comes back; a double charge is contested in one tap', async ({
  page,
  request,
  look,
}) => {
  test.setTimeout(240_000);
  const serial = `7${randomDigits(15)}`;
  const plate = 'CTS1A56';
  const { driver, token } = await driverWithActiveTag(request, serial, plate);
  // Saldo: 100,00 - 15,90 (the tag's month) = 84,10.

  const run = randomDigits(8);
  const operatorKey = await createPartnerKeyWithCli('operator', `Operadora ${run}`, 'SemParar');
  const passage = (i: number, place: string, value: number, occurredAt: Date) =>
    partnerPost(
      request,
      '/api/parceiro/passagens',
      operatorKey,
      { externalId: `c-${run}-${i}`, serialNumber: serial, placeName: place, value, occurredAt: occurredAt.toISOString(), is_third: false },
      200,
    );
  await passage(0, 'Praça Jacareí', 9.6, new Date(Date.now() - 3 * 60 * 60_000));
  expect(await saldo(request, token)).toBe(74.5);

  // The driver contests it from the statement.
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/extrato/listar');
  const row = page.locator('tbody tr').filter({ hasText: 'Passagem por: Praça Jacareí' });
  await row.getByRole('button', { name: /^Contestar/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Contestar passagem' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('region', { name: 'Passagem' })).toContainText('Praça Jacareí');
  await expect(dialog.getByRole('region', { name: 'Passagem' })).toContainText(brl(9.6));
  await dialog.getByRole('radio', { name: 'Categoria ou eixos diferentes do veículo' }).check();
  await dialog.getByLabel('Descreva o motivo').fill('Cobrada como 3 eixos; o caminhão passou com 2 eixos suspensos.');
  await settled(page);
  await look('contestacao-dialogo');
  await dialog.getByRole('button', { name: 'Enviar contestação' }).click();
  await expect(
    page.getByText(/Contestação enviada\. A operadora tem até \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}(:\d{2})? para responder\./),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row.getByText('Em análise')).toBeVisible();
  await expect(row.getByRole('button', { name: /^Contestar/ })).toHaveCount(0);
  await closeToast(page, 'Sucesso!');
  // The row now says 'Em análise' beside 'Comprovante para recurso', within a 360 px screen.
  await look('extrato-passagem-contestada');

  // Its page: the contest in analysis, with the operator's due date.
  await page.goto('/contestacoes');
  const card = page.getByRole('article', { name: 'Praça Jacareí' });
  await expect(card.getByText('Em análise')).toBeVisible();
  await expect(card).toContainText('Categoria ou eixos diferentes do veículo');
  await expect(card).toContainText(plate);
  await expect(card.getByText('Responder até')).toBeVisible();
  await look('contestacoes-em-analise');

  // The operator accepts it through the partner API: 9,60 back to Saldo, once.
  const listed = (await (await request.get('/api/parceiro/contestacoes', { headers: { 'X-Api-Key': operatorKey } })).json()) as {
    Contestacoes: { id: number; passagem: { praca: string } }[];
  };
  const contest = listed.Contestacoes.find((c) => c.passagem.praca === 'Praça Jacareí')!;
  await partnerPost(request, `/api/parceiro/contestacoes/${contest.id}/resposta`, operatorKey, {
    decisao: 'ACEITA',
    valor: 9.6,
    motivo: 'Categoria corrigida: o veículo passou com 2 eixos.',
  });
  expect(await saldo(request, token)).toBe(84.1);

  await reloadLive(page);
  await expect(card.getByText('Aceita', { exact: true })).toBeVisible();
  await expect(card).toContainText('Categoria corrigida: o veículo passou com 2 eixos.');
  await expect(card.getByText('Valor devolvido').locator('xpath=..')).toContainText(brl(9.6));
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: /^Baixar registro \(PDF\)/ }).click(),
  ]);
  const { readFile } = await import('node:fs/promises');
  expect((await readFile(await download.path())).subarray(0, 5).toString()).toBe('%PDF-');
  await look('contestacoes-aceita');

  await page.goto('/extrato/listar');
  const refund = page.locator('tbody tr').filter({ hasText: 'Passagem devolvida: Praça Jacareí (contestação aceita)' });
  await expect(refund).toContainText(brl(9.6));
  await expect(refund.getByText('Aceita', { exact: true })).toBeVisible();
  await expect(row.getByText('Aceita', { exact: true })).toBeVisible();

  // Two passages at one plaza 5 minutes apart: the second is a possible double charge.
  const first = new Date(Date.now() - 60 * 60_000);
  await passage(1, 'Praça Guararema', 7.3, first);
  await passage(2, 'Praça Guararema', 7.3, new Date(first.getTime() + 5 * 60_000));
  await page.goto('/dashboard');
  const notices = page.getByRole('region', { name: 'Avisos' });
  const notice = notices.getByRole('listitem').filter({ hasText: /Possível cobrança duplicada: Praça Guararema, R\$\s7,30 em/ });
  await expect(notice).toBeVisible();
  await expect(notice.getByRole('link', { name: 'Ver no extrato' })).toHaveAttribute('href', '/extrato/listar');
  await expect(page.getByText(brl(69.5)).first()).toBeVisible();
  await look('contestacao-aviso-duplicada');
  await notice.getByRole('button', { name: /^Contestar a cobrança duplicada/ }).click();
  await expect(page.getByText(/Contestação enviada\./)).toBeVisible();
  await expect(notice).toHaveCount(0);

  await page.goto('/contestacoes');
  const duplicate = page.getByRole('article', { name: 'Praça Guararema' });
  await expect(duplicate).toContainText('Cobrança duplicada');
  await expect(duplicate.getByText('Em análise')).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(2);
});
