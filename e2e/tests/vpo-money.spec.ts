import { cnpj } from 'cpf-cnpj-validator';
import {
  bearer,
  createPartnerKeyWithCli,
  driverWithActiveTag,
  issueVpoViaApi,
  partnerPost,
  expect,
  settled,
  signIn,
  test,
} from '../support/fixtures.js';
import { brl, randomDigits } from '../support/values.js';

/**
 * Issue 23 (decision 52): a shipper's VPO holds its money for the trip. The operator's passages on
 * the tag are paid from it; when it runs short the rest comes from Saldo and the dashboard says so;
 * the driver follows the trip on /vpos/listar and its details, and downloads its record.
 */
test('a shipper issues a VPO, passages arrive, one runs short, and the driver follows the trip and downloads its record', async ({
  page,
  request,
  look,
}) => {
  test.setTimeout(240_000);
  const serial = `8${randomDigits(15)}`;
  const plate = 'VPO1A23';
  const { driver, token } = await driverWithActiveTag(request, serial, plate);
  // Saldo: 100,00 - 15,90 (the tag's month) = 84,10.

  const run = randomDigits(8);
  const shipperName = `Transportes Rota ${run}`;
  const shipperKey = await createPartnerKeyWithCli('shipper', shipperName);
  const operatorKey = await createPartnerKeyWithCli('operator', `Operadora ${run}`, 'SemParar');
  const vpo = `vpo-${run}`;
  await issueVpoViaApi(request, shipperKey, { run, serial, plate, value: 50 });
  const now = Date.now();
  const passages = [
    { place: 'Praça Itupeva', value: 18.9 },
    { place: 'Praça Jundiaí', value: 25 },
    { place: 'Praça Cubatão', value: 14.3 },
  ];
  for (const [i, p] of passages.entries()) {
    await partnerPost(request, '/api/parceiro/passagens', operatorKey, {
      externalId: `p-${run}-${i}`,
      serialNumber: serial,
      placeName: p.place,
      value: p.value,
      occurredAt: new Date(now + i * 60_000).toISOString(),
      is_third: false,
    });
  }
  // The VPO paid 18,90 + 25,00 + 6,10 = 50,00; Saldo paid the 8,20 it could not: 84,10 - 8,20 = 75,90.

  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(new RegExp(`VPO de ${shipperName} insuficiente: R\\$\\s8,20 pagos do seu saldo`))).toBeVisible();
  await expect(page.getByText(brl(75.9)).first()).toBeVisible();
  await look('vpo-dashboard-insuficiente');

  await page.goto('/vpos/listar');
  const row = page.locator('tbody tr').filter({ hasText: plate });
  await expect(row).toContainText(brl(50));
  await expect(row).toContainText('Campinas (SP) – Santos (SP)');
  await look('vpo-lista-viagem');

  await row.click();
  const dialog = page.getByRole('dialog', { name: 'Detalhes do VPO' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(shipperName)).toBeVisible();
  await expect(dialog.getByText(`ANTT-${run}`)).toBeVisible();
  await expect(dialog.getByText('Passagens da viagem')).toBeVisible();
  for (const p of passages) await expect(dialog.getByText(p.place).first()).toBeVisible();
  await expect(dialog.getByText('Paga pelo VPO')).toHaveCount(3);
  await expect(dialog.getByText('VPO insuficiente: paga do seu saldo')).toHaveCount(1);
  await settled(page);
  await look('vpo-detalhes-viagem');
  await dialog.getByText('Passagens da viagem').scrollIntoViewIfNeeded();
  await look('vpo-detalhes-passagens');

  // The record the driver hands to the shipper or to ANTT.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog
      .getByRole('button', { name: 'Baixar registro do VPO (PDF)' })
      .or(dialog.getByRole('link', { name: 'Baixar registro do VPO (PDF)' }))
      .click(),
  ]);
  const path = await download.path();
  const { readFile } = await import('node:fs/promises');
  const pdf = await readFile(path);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await dialog.getByRole('button', { name: 'Fechar', exact: true }).click();

  // The statement says who paid each passage; Saldo moved only by the shortfall.
  await page.goto('/extrato/listar');
  await expect(page.getByText('Passagem por: Praça Itupeva (paga pelo VPO)')).toBeVisible();
  await expect(page.getByText('VPO insuficiente: paga do seu saldo').first()).toBeVisible();
  await look('extrato-vpo');

  // The shipper closes the trip: what is left (nothing here) goes back to it; it reads what the VPO paid.
  const closed = await request.patch(`/api/parceiro/vpos/${vpo}`, { headers: { 'X-Api-Key': shipperKey }, data: { Status: 'CANCELADO' } });
  expect(closed.status(), await closed.text()).toBe(200);
  const read = await request.get(`/api/parceiro/vpos/${vpo}`, { headers: { 'X-Api-Key': shipperKey } });
  const answer = (await read.json()) as {
    VPO: { Utilizado: number; Restante: number; Devolvido: number; PagoPeloSaldo: number; Passagens: unknown[] };
  };
  expect(answer.VPO).toMatchObject({ Utilizado: 50, Restante: 0, Devolvido: 0, PagoPeloSaldo: 8.2 });
  expect(answer.VPO.Passagens).toHaveLength(4);

  // A second VPO the trip did not need: cancelled, its whole value goes back to the shipper, never to Saldo.
  await partnerPost(
    request,
    '/api/parceiro/vpos',
    shipperKey,
    { externalId: `${vpo}-2`, serialNumber: serial, PlacaVeiculo: plate, CpfCnpjEmbarcador: cnpj.generate(), ValorTotalVP: 40 },
    201,
  );
  const cancelled = await request.patch(`/api/parceiro/vpos/${vpo}-2`, {
    headers: { 'X-Api-Key': shipperKey },
    data: { Status: 'CANCELADO' },
  });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  const second = (await (await request.get(`/api/parceiro/vpos/${vpo}-2`, { headers: { 'X-Api-Key': shipperKey } })).json()) as {
    VPO: { Devolvido: number; Restante: number };
  };
  expect(second.VPO).toMatchObject({ Devolvido: 40, Restante: 0 });
  const balance = (await (await request.get('/api/motorista/saldo', { headers: bearer(token) })).json()) as { Saldo: number };
  expect(balance.Saldo).toBe(75.9);
});
