import {
  createPartnerKeyWithCli,
  driverWithActiveTag,
  expect,
  issueVpoViaApi,
  openLive,
  partnerPost,
  signIn,
  test,
} from '../support/fixtures.js';
import { layoutShiftSoFar } from '../support/layoutShift.js';
import { brl, randomDigits } from '../support/values.js';
import { otherVposTotalHint, otherVposTotalLabel, STATEMENT_LISTED_VPO_TOTALS } from '@portal/domain';

/**
 * Issue 33 (decision 63): the statement holds three accounts' money: the driver's Saldo, the
 * balance on other platforms and each shipper's VPO. Every row names its account and its 'Saldo
 * após' is that account's; the period's totals are per account. An accepted contest of a passage
 * the VPO paid says the money went back to the VPO, not to Saldo.
 */
test('the statement names each row\u2019s account with its own running balance and totals; a VPO-paid contest says where the refund went', async ({
  page,
  request,
  look,
}) => {
  test.setTimeout(240_000);
  const serial = `6${randomDigits(15)}`;
  const plate = 'ACC3C33';
  const { driver } = await driverWithActiveTag(request, serial, plate);
  // Saldo: 100,00 - 15,90 (the tag's month) = 84,10.
  const run = randomDigits(8);
  const shipperName = `Transportes Alfa ${run}`;
  const shipperKey = await createPartnerKeyWithCli('shipper', shipperName);
  const operatorKey = await createPartnerKeyWithCli('operator', `Operadora ${run}`, 'SemParar');
  const platformKey = await createPartnerKeyWithCli('platform', `MoveMais ${run}`);
  const now = Date.now();
  await partnerPost(
    request,
    '/api/parceiro/terceiro/movimentos',
    platformKey,
    {
      externalId: `t-${run}`,
      cpfCnpj: driver.cpfCnpj,
      origin: 'credito-terceiro-movemais',
      value: 120,
      placeName: 'Crédito MoveMais',
      occurredAt: new Date(now - 30 * 60_000).toISOString(),
    },
    200,
  );
  await issueVpoViaApi(request, shipperKey, { run, serial, plate, value: 668.3 });
  await partnerPost(request, '/api/parceiro/passagens', operatorKey, {
    externalId: `p-${run}`,
    serialNumber: serial,
    placeName: 'Praça Campo Limpo (SP-348)',
    value: 22.4,
    // After the VPO was issued (and before the refund below): the VPO pays it.
    occurredAt: new Date().toISOString(),
    is_third: false,
  });
  // The VPO paid the passage: its money 668,30 - 22,40 = 645,90; Saldo stays 84,10; Terceiros 120,00.

  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/extrato/listar');
  const rowOf = (text: string) => page.locator('tbody tr').filter({ hasText: text });
  const passage = rowOf('Passagem por: Praça Campo Limpo (SP-348) (paga pelo VPO)');
  await expect(passage.locator('[data-account="VPO"]')).toHaveText(`VPO de ${shipperName}: Campinas (SP) – Santos (SP)`);
  await expect(passage.locator('[data-balance-after="VPO"]')).toContainText(brl(645.9));
  const third = rowOf('Crédito MoveMais');
  await expect(third.locator('[data-account="SALDO_TERCEIRO"]')).toHaveText('Saldo em outras plataformas');
  await expect(third.locator('[data-balance-after="SALDO_TERCEIRO"]')).toContainText(brl(120));
  const fee = rowOf('Mensalidade');
  await expect(fee.locator('[data-account="SALDO"]')).toHaveText('Saldo');
  await expect(fee.locator('[data-balance-after="SALDO"]')).toContainText(brl(84.1));
  const totals = page.getByRole('region', { name: 'Totais do período por conta' });
  await expect(totals.locator('[data-account-total="SALDO"]')).toContainText(brl(84.1));
  await expect(totals.locator('[data-account-total="SALDO_TERCEIRO"]')).toContainText(brl(120));
  await expect(totals.locator('[data-account-total="VPO"]')).toContainText(brl(645.9));
  // Never one sum across accounts (84,10 + 120,00 + 645,90).
  await expect(page.getByText(brl(850))).toHaveCount(0);
  await look('extrato-contas');

  // The totals come with the read: drawn under the rows and with them, they move nothing the driver
  // is reading (drawn above them, or before them, the rows' arrival pushed the table or the totals
  // down: Lighthouse counted a layout shift of 0.13–0.18). A first visit: signed out (the data kept
  // on the phone goes) and in again, the read held until the loading row shows.
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  let answer = () => {};
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/api/extrato/listar*', async (route) => {
    await held;
    await route.continue();
  });
  await openLive(page, '/extrato/listar');
  await expect(page.getByRole('status').filter({ hasText: 'Carregando...' })).toBeVisible();
  answer();
  await expect(totals.locator('[data-account-total="VPO"]')).toContainText(brl(645.9));
  await page.unroute('**/api/extrato/listar*');
  const shifted = await layoutShiftSoFar(page);
  expect(shifted, 'layout shift of the statement as its rows and totals are drawn').toBeLessThan(0.01);

  // The passage the VPO paid is contested and accepted: the money goes back to the VPO, and the driver is told so.
  await passage.getByRole('button', { name: /^Contestar/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Contestar passagem' });
  await dialog.getByRole('radio', { name: 'Categoria ou eixos diferentes do veículo' }).check();
  await dialog.getByRole('button', { name: 'Enviar contestação' }).click();
  await expect(dialog).toBeHidden();
  const listed = (await (await request.get('/api/parceiro/contestacoes', { headers: { 'X-Api-Key': operatorKey } })).json()) as {
    Contestacoes: { id: number; passagem: { praca: string } }[];
  };
  const contest = listed.Contestacoes.find((c) => c.passagem.praca === 'Praça Campo Limpo (SP-348)');
  expect(contest).toBeDefined();
  await partnerPost(request, `/api/parceiro/contestacoes/${contest?.id}/resposta`, operatorKey, {
    decisao: 'ACEITA',
    valor: 22.4,
    motivo: 'Categoria corrigida: o veículo passou com 2 eixos.',
  });

  await page.goto('/contestacoes');
  const card = page.getByRole('article', { name: 'Praça Campo Limpo (SP-348)' });
  await expect(card.getByText('Aceita', { exact: true })).toBeVisible();
  const parts = card.locator('[data-refund-parts] li');
  await expect(parts).toHaveCount(1);
  await expect(parts.first()).toHaveText(new RegExp(`^Devolvido ao VPO de ${shipperName}: R\\$\\s22,40$`));
  await look('contestacoes-devolvido-ao-vpo');

  // The statement: the refund is the VPO's money, Saldo did not move.
  await page.goto('/extrato/listar');
  const refund = rowOf('Passagem devolvida ao VPO: Praça Campo Limpo (SP-348) (contestação aceita)');
  await expect(refund.locator('[data-account="VPO"]')).toHaveText(`VPO de ${shipperName}: Campinas (SP) – Santos (SP)`);
  await expect(refund.locator('[data-balance-after="VPO"]')).toContainText(brl(668.3));
  await expect(totals.locator('[data-account-total="SALDO"]')).toContainText(brl(84.1));
  await look('extrato-contas-devolucao');
});

/**
 * Decision 83: a carrier moves thousands of VPOs a year. The totals name the VPOs that moved last,
 * at most STATEMENT_LISTED_VPO_TOTALS, and the others' net in one line, saying where each of them is.
 */
test('past the VPOs that moved last, the totals hold the others in one line and say where each one is', async ({ page, request, look }) => {
  test.setTimeout(180_000);
  const serial = `6${randomDigits(15)}`;
  const plate = 'OUT4V44';
  const { driver } = await driverWithActiveTag(request, serial, plate);
  const run = randomDigits(8);
  const shipperName = `Cargas Norte ${run}`;
  const shipperKey = await createPartnerKeyWithCli('shipper', shipperName);
  for (let i = 0; i <= STATEMENT_LISTED_VPO_TOTALS; i += 1) {
    await issueVpoViaApi(request, shipperKey, { run: `${run}-${i}`, serial, plate, value: 100 + i });
  }

  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/extrato/listar');
  const totals = page.getByRole('region', { name: 'Totais do período por conta' });
  await expect(totals.locator('li')).toHaveCount(STATEMENT_LISTED_VPO_TOTALS + 2);
  await expect(totals.locator('[data-account-total="VPO"]').filter({ hasText: `VPO de ${shipperName}` })).toHaveCount(
    STATEMENT_LISTED_VPO_TOTALS,
  );
  // The first VPO issued moved first: it is the one in the others' line.
  const others = totals.locator('li').last();
  await expect(others).toContainText(otherVposTotalLabel);
  await expect(others).toContainText(brl(100));
  await expect(totals.getByText(otherVposTotalHint)).toBeVisible();
  await look('extrato-outros-vpos');
});
