import { readFile } from 'node:fs/promises';
import { CLOSURE_CONFIRMATION_TEXT, driverDataMessages, DRIVER_DATA_KINDS } from '@portal/domain';
import { closeToast, driverWithTermsAccepted, expect, openLive, reloadLive, signIn, test } from '../support/fixtures.js';
import { openZip, pdfWords } from '../support/files.js';
import { brl } from '../support/values.js';

test("a driver corrects their name and phone in 'Seus dados': the password confirms, the header and the dashboard say so", async ({
  page,
  request,
  look,
}) => {
  test.setTimeout(180_000);
  const { driver } = await driverWithTermsAccepted(request);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Olá, Joana')).toBeVisible();

  await openLive(page, '/configuracoes');
  // What the portal holds, and the form opened on request.
  const section = page.getByRole('region', { name: 'Seus dados' });
  await expect(section.getByText(driver.name)).toBeVisible();
  await expect(section.getByText('(11) 98765-4321')).toBeVisible();
  await expect(section.getByText(driver.maskedCpfCnpj)).toBeVisible();
  await expect(section.getByText('O CPF/CNPJ identifica sua conta e não pode ser alterado.')).toBeVisible();
  await look('configuracoes-seus-dados');
  const correct = section.getByRole('button', { name: 'Corrigir nome ou telefone' });
  await correct.click();
  const form = page.getByRole('form', { name: 'Seus dados' });
  const name = form.getByLabel('Nome completo');
  await expect(name).toHaveValue(driver.name);
  await expect(name).toBeFocused();
  await expect(form.getByLabel('Telefone')).toHaveValue('(11) 98765-4321');
  await look('configuracoes-seus-dados-corrigir');

  // A wrong password: said under the field, nothing changes.
  const phone = form.getByLabel('Telefone');
  // As a driver does: the old number erased key by key, the new one typed.
  await phone.click();
  await phone.press('End');
  for (let i = 0; i < '(11) 98765-4321'.length; i += 1) await phone.press('Backspace');
  await expect(phone).toHaveValue('');
  await phone.pressSequentially('21998765432');
  await expect(phone).toHaveValue('(21) 99876-5432');
  const password = form.getByLabel('Senha', { exact: true });
  await password.fill('nao-e-a-senha');
  await form.getByRole('button', { name: 'Salvar dados' }).click();
  await expect(form.getByText('Senha incorreta')).toBeVisible();
  await look('configuracoes-seus-dados-senha-errada');

  // The right one: the name and phone are kept, the header greets by the new name.
  await name.fill('Rosa Maria Caminhoneira');
  await password.fill(driver.password);
  await form.getByRole('button', { name: 'Salvar dados' }).click();
  await expect(page.getByText('Seus dados foram atualizados.')).toBeVisible();
  await expect(page.getByText('Olá, Rosa')).toBeVisible();
  // The form closed on the data as kept, the focus back on the button that opened it.
  await expect(form).toBeHidden();
  await expect(section.getByText('Rosa Maria Caminhoneira')).toBeVisible();
  await expect(section.getByText(/Última alteração:/)).toBeVisible();
  await expect(correct).toBeFocused();
  await reloadLive(page);
  await expect(page.getByRole('region', { name: 'Seus dados' }).getByText('(21) 99876-5432')).toBeVisible();

  // The dashboard tells what changed and when, with the way back to it.
  await page.goto('/dashboard');
  const notices = page.getByRole('region', { name: 'Avisos' });
  await expect(notices.getByText(/Seus dados foram alterados em .*: nome e telefone\. Se não foi você, troque sua senha/)).toBeVisible();
  await look('dashboard-dados-alterados');
  await notices.getByRole('link', { name: 'Ver seus dados em Configurações' }).click();
  await expect(page).toHaveURL(/\/configuracoes#seus-dados$/);
  await expect(page.getByRole('region', { name: 'Seus dados' }).getByText('Rosa Maria Caminhoneira')).toBeVisible();
});

test('a driver takes their data, is told why the account cannot close yet, withdraws, closes it and cannot sign in again', async ({
  page,
  request,
  look,
}) => {
  test.setTimeout(180_000);
  const { driver } = await driverWithTermsAccepted(request, { credit: 100 });
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // 'Meus dados': one tap, a ZIP that opens, its PDF summary readable, the driver's own data in it.
  await openLive(page, '/configuracoes');
  const myData = page.getByRole('region', { name: 'Meus dados' });
  await expect(myData.getByText(driverDataMessages.section.text)).toBeVisible();
  await myData.scrollIntoViewIfNeeded();
  await look('configuracoes-meus-dados');
  const downloading = page.waitForEvent('download');
  await myData.getByRole('button', { name: 'Baixar meus dados' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^meus-dados-\d{4}-\d{2}-\d{2}\.zip$/);
  await expect(page.getByText(/Seus dados foram baixados: meus-dados-/)).toBeVisible();
  const zip = await openZip(await download.path());
  expect([...zip.keys()]).toEqual(['resumo.pdf', ...Object.values(DRIVER_DATA_KINDS).map((k) => k.file)]);
  const [profile] = JSON.parse(zip.get('cadastro.json')?.toString('utf8') ?? '[]') as { cpfCnpj: string; nome: string }[];
  expect(profile).toMatchObject({ cpfCnpj: driver.cpfCnpj, nome: driver.name });
  const movements = JSON.parse(zip.get('movimentacoes.json')?.toString('utf8') ?? '[]') as { valor: number }[];
  expect(movements.map((m) => m.valor)).toEqual([100]);
  const summary = await pdfWords(zip.get('resumo.pdf') ?? Buffer.alloc(0));
  expect(summary).toContain('Meus dados');
  expect(summary).toContain(driver.name);
  expect(summary).toContain('movimentacoes.json');
  await closeToast(page, 'Sucesso!');

  // The phone corrected in 'Seus dados', the password confirming.
  const yourSection = page.getByRole('region', { name: 'Seus dados' });
  await yourSection.getByRole('button', { name: 'Corrigir nome ou telefone' }).click();
  const yourData = page.getByRole('form', { name: 'Seus dados' });
  const phone = yourData.getByLabel('Telefone');
  await phone.click();
  await phone.press('End');
  for (let i = 0; i < '(11) 98765-4321'.length; i += 1) await phone.press('Backspace');
  await phone.pressSequentially('31991234567');
  await expect(phone).toHaveValue('(31) 99123-4567');
  await yourData.getByLabel('Senha', { exact: true }).fill(driver.password);
  await yourData.getByRole('button', { name: 'Salvar dados' }).click();
  await expect(page.getByText('Seus dados foram atualizados.')).toBeVisible();
  await expect(yourSection.getByText('(31) 99123-4567')).toBeVisible();
  await closeToast(page, 'Sucesso!');

  // Closing with money in the account: told which and how, no form to fill.
  const closing = page.getByRole('region', { name: 'Encerrar conta' });
  await expect(closing.getByText(/Saque o saldo de R\$\s100,00 antes de encerrar\./)).toBeVisible();
  await expect(closing.getByLabel('Senha', { exact: true })).toHaveCount(0);
  await closing.scrollIntoViewIfNeeded();
  await look('configuracoes-encerrar-conta-com-saldo');

  // The driver withdraws the balance to their own CPF.
  await page.goto('/saldo/retirar');
  await expect(page.getByTestId('saldo-saque')).toHaveText(brl(100));
  await page.getByLabel('Valor', { exact: true }).pressSequentially('10000');
  await page.getByLabel('Tipo da Chave Pix').selectOption('CPF');
  await page.getByLabel('Chave Pix', { exact: true }).pressSequentially(driver.cpfCnpj);
  await page.getByRole('button', { name: 'Sacar', exact: true }).click();
  await expect(page.getByText('Sucesso!', { exact: true })).toBeVisible();
  await expect(page.getByTestId('saldo-saque')).toHaveText(brl(0));

  // Now it closes: the password and the box, then the login page says so and offers the receipt.
  await openLive(page, '/configuracoes');
  const form = page.getByRole('form', { name: 'Encerrar conta' });
  await expect(form.getByLabel('Senha', { exact: true })).toBeVisible();
  await form.scrollIntoViewIfNeeded();
  await look('configuracoes-encerrar-conta');
  await form.getByLabel('Senha', { exact: true }).fill(driver.password);
  await form.getByRole('button', { name: 'Encerrar conta' }).click();
  await expect(form.getByText('Marque a confirmação de que deseja encerrar a conta.')).toBeVisible();
  await form.getByLabel(CLOSURE_CONFIRMATION_TEXT).check();
  await form.getByRole('button', { name: 'Encerrar conta' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Sua conta foi encerrada')).toBeVisible();
  const receiptLink = page.getByRole('link', { name: 'Baixar o comprovante de encerramento (PDF)' });
  const receiptDownload = page.waitForEvent('download');
  await receiptLink.click();
  const receipt = await pdfWords(await readFile(await (await receiptDownload).path()));
  expect(receipt).toContain('encerrad');
  expect(receipt).not.toContain(driver.cpfCnpj);
  await look('login-conta-encerrada');

  // Signing in again is refused, as for a document with no account.
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page.getByText('Usuário ou senha incorretos')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await look('login-conta-encerrada-entrada-recusada');
});
