import {
  automaticBankWithCli,
  closeToast,
  driverWithTermsAccepted,
  expect,
  reloadLive,
  settled,
  signIn,
  test,
} from '../support/fixtures.js';
import { brl } from '../support/values.js';

/**
 * Decision 58: a driver tops the balance up by Pix Automático: chooses a value and a frequency, pays
 * the QR Code's first Pix (the local provider's bank: the operator CLI), sees the next debit, gets a
 * cycle debited (the balance goes up, with its receipt), a cycle refused (a notice on the dashboard)
 * and cancels it in the portal.
 */
test('a driver tops up by Pix Automático: authorizes with the first Pix, a cycle is credited with its receipt, then cancels', async ({
  page,
  request,
  look,
}) => {
  test.setTimeout(240_000);
  const { driver } = await driverWithTermsAccepted(request);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // From 'Comprar saldo'.
  await page.goto('/saldo/comprar');
  await page.getByRole('link', { name: 'Ver recarga automática' }).click();
  await expect(page).toHaveURL(/\/saldo\/recarga-automatica$/);
  await expect(page).toHaveTitle(/Recarga automática por Pix/);
  await expect(page.getByRole('heading', { name: 'Recarga automática por Pix', level: 1 })).toBeVisible();
  await expect(
    page.getByText('Você pode cancelar a qualquer momento aqui ou no app do seu banco, na área de Pix Automático.'),
  ).toBeVisible();
  const valor = page.getByLabel('Valor de cada recarga');
  await expect(valor).toBeVisible();
  await look('recarga-automatica');

  await page.getByRole('button', { name: 'Gerar QR Code' }).click();
  await expect(page.getByText('Por favor digite o valor da recarga automática')).toBeVisible();
  await valor.pressSequentially('15000');
  await expect(valor).toHaveValue('150,00');
  await page.getByRole('button', { name: 'Gerar QR Code' }).click();
  await expect(page.getByText('Escolha a frequência da recarga: semanal ou mensal')).toBeVisible();
  await look('recarga-automatica-erro');
  await page.getByRole('radio', { name: 'Semanal (toda semana)' }).check();
  await page.getByRole('button', { name: 'Gerar QR Code' }).click();

  // The QR Code of the first Pix, which also carries the consent.
  await expect(page.getByRole('heading', { name: 'Pague o primeiro Pix para autorizar' })).toBeVisible();
  await expect(page.getByTestId('estado-recarga')).toHaveText('Aguardando autorização');
  const payload = (await page.getByTestId('pix-payload').textContent()) ?? '';
  expect(payload).toMatch(/^000201/);
  await expect(page.getByRole('img', { name: 'QR Code do Pix para pagamento' })).toBeVisible();
  await look('recarga-automatica-qr');

  // The driver's bank pays it and authorizes the recurring debits: the screen turns 'Ativa' by itself.
  await automaticBankWithCli('activate', driver.cpfCnpj);
  await expect(page.getByTestId('estado-recarga')).toHaveText('Ativa', { timeout: 20_000 });
  const next = page.getByTestId('proximo-debito');
  await expect(next).toContainText('Próximo débito');
  await expect(next).toContainText(brl(150));
  const firstCycle = page.locator('[data-ciclo="1"]');
  await expect(firstCycle).toContainText('Paga');
  await look('recarga-automatica-ativa');

  // The bank debits the next cycle: the balance goes up once more.
  await automaticBankWithCli('cycle', driver.cpfCnpj);
  await reloadLive(page);
  const secondCycle = page.locator('[data-ciclo="2"]');
  await expect(secondCycle).toContainText('Paga');
  await page.goto('/dashboard');
  await expect(page.getByText(brl(300)).first()).toBeVisible();

  // Its receipt, as a purchase's.
  await page.goto('/saldo/recarga-automatica');
  await page
    .locator('[data-ciclo="2"]')
    .getByRole('link', { name: /^Ver comprovante da recarga de / })
    .click();
  await expect(page).toHaveURL(/\/comprovantes\/compra\/chg_/);
  const receipt = page.getByRole('article', { name: 'Comprovante de recarga automática via Pix' });
  await expect(receipt).toBeVisible();
  await expect(receipt).toContainText(brl(150));
  await expect(receipt).toContainText('Recarga automática via Pix');
  await look('recarga-automatica-comprovante');

  // The next one is refused by the bank: nothing comes in, and the dashboard says so.
  await automaticBankWithCli('refuse', driver.cpfCnpj);
  await page.goto('/dashboard');
  const notice = page.locator('[data-tipo^="recarga-"]');
  await expect(notice).toContainText('não foi debitada: Saldo insuficiente na conta do pagador');
  await expect(page.getByText(brl(300)).first()).toBeVisible();
  await look('painel-recarga-nao-debitada');
  await notice.getByRole('link', { name: /^Ver recarga automática de / }).click();
  await expect(page).toHaveURL(/\/saldo\/recarga-automatica$/);
  await expect(page.locator('[data-ciclo="3"]')).toContainText('Não debitada: Saldo insuficiente na conta do pagador');

  // Cancelled in the portal, after a dialog whose answers cannot be mistaken.
  await page.getByRole('button', { name: 'Cancelar recarga automática' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Nenhum novo débito será feito');
  await expect(dialog.getByRole('button', { name: 'Voltar' })).toBeVisible();
  await settled(page);
  await look('recarga-automatica-cancelar');
  await dialog.getByRole('button', { name: 'Cancelar', exact: true }).click();
  await expect(page.getByText('Recarga automática cancelada. Nenhum novo débito será feito.')).toBeVisible();
  await closeToast(page, 'Sucesso!');
  await expect(page.getByText(/Cancelada por você no portal/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Gerar QR Code' })).toBeVisible();
  await look('recarga-automatica-cancelada');
});
