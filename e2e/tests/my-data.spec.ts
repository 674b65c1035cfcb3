import { driverWithTermsAccepted, expect, openLive, signIn, test } from '../support/fixtures.js';

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
  const form = page.getByRole('form', { name: 'Seus dados' });
  const name = form.getByLabel('Nome completo');
  await expect(name).toHaveValue(driver.name);
  await expect(form.getByLabel('Telefone')).toHaveValue('(11) 98765-4321');
  await expect(form.getByText(driver.maskedCpfCnpj)).toBeVisible();
  await expect(form.getByText('O CPF/CNPJ identifica sua conta e não pode ser alterado.')).toBeVisible();
  await look('configuracoes-seus-dados');

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
  await expect(password).toHaveValue('');
  await expect(form.getByText(/Última alteração:/)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Seus dados' }).getByLabel('Telefone')).toHaveValue('(21) 99876-5432');

  // The dashboard tells what changed and when, with the way back to it.
  await page.goto('/dashboard');
  const notices = page.getByRole('region', { name: 'Avisos' });
  await expect(notices.getByText(/Seus dados foram alterados em .*: nome e telefone\. Se não foi você, troque sua senha/)).toBeVisible();
  await look('dashboard-dados-alterados');
  await notices.getByRole('link', { name: 'Ver seus dados em Configurações' }).click();
  await expect(page).toHaveURL(/\/configuracoes#seus-dados$/);
  await expect(page.getByRole('form', { name: 'Seus dados' }).getByLabel('Nome completo')).toHaveValue('Rosa Maria Caminhoneira');
});
