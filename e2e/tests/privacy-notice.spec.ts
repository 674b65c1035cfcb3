import { controlledByServiceWorker } from '../support/serviceWorker.js';
import { driverWithTermsAccepted, expect, openLive, signIn, test } from '../support/fixtures.js';

interface PrivacyAnswer {
  Encarregado: { nome: string; email: string };
}

/**
 * Decision 72: the 'Aviso de Privacidade', opened from the login as a visitor would, read at both
 * widths (each `look` photographs and checks it at 360 and 1280 px), reached from the registration
 * and Configurações, and still there with no signal.
 */
test('a visitor opens the privacy notice from the login, reads it, and finds the encarregado', async ({ page, request, look }) => {
  const answer = await request.get('/api/privacidade');
  expect(answer.status()).toBe(200);
  const officer = ((await answer.json()) as PrivacyAnswer).Encarregado;

  await openLive(page, '/login');
  await look('login-com-aviso-de-privacidade');
  await page.getByRole('link', { name: 'Como cuidamos dos seus dados: Aviso de Privacidade' }).click();
  await expect(page).toHaveURL(/\/privacidade$/);
  await expect(page).toHaveTitle('Aviso de Privacidade | Portal do Motorista');
  await expect(page.getByRole('heading', { level: 1, name: 'Aviso de Privacidade' })).toBeVisible();
  for (const heading of [
    'O que guardamos',
    'Para que usamos',
    'Quem mais vê seus dados',
    'Por quanto tempo',
    'Seus direitos e como usar',
    'Com quem falar',
  ]) {
    await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  }
  const card = page.getByTestId('encarregado');
  await expect(card.getByText(officer.nome)).toBeVisible();
  await expect(card.getByRole('link', { name: officer.email })).toHaveAttribute('href', `mailto:${officer.email}`);
  await look('aviso-de-privacidade');

  // 'Nesta página' takes a phone user straight to who to talk to.
  await page.getByRole('navigation', { name: 'Nesta página' }).getByRole('link', { name: 'Com quem falar' }).click();
  await expect(page).toHaveURL(/\/privacidade#com-quem-falar$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Com quem falar' })).toBeInViewport();

  await page.getByRole('link', { name: 'Voltar para o login' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the registration and Configurações lead to the notice; a driver goes back to Configurações', async ({ page, request, look }) => {
  await openLive(page, '/registrar');
  const fromRegistration = page.getByRole('link', { name: 'Aviso de Privacidade (abre em outra aba)' });
  await expect(fromRegistration).toHaveAttribute('href', '/privacidade');
  await look('registrar-com-aviso-de-privacidade');
  // Another tab: what the visitor typed in the form stays where it was.
  const [tab] = await Promise.all([page.context().waitForEvent('page'), fromRegistration.click()]);
  await expect(tab.getByRole('heading', { level: 1, name: 'Aviso de Privacidade' })).toBeVisible();
  await tab.close();

  const { driver } = await driverWithTermsAccepted(request);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await openLive(page, '/configuracoes');
  const section = page.getByRole('region', { name: 'Privacidade' });
  await expect(section).toBeVisible();
  await look('configuracoes-privacidade');
  await section.getByRole('link', { name: 'Aviso de Privacidade' }).click();
  await expect(page).toHaveURL(/\/privacidade$/);
  await page.getByRole('link', { name: 'Corrigir seus dados' }).click();
  await expect(page).toHaveURL(/\/configuracoes#seus-dados$/);
  await expect(
    page.getByRole('region', { name: 'Seus dados' }).getByRole('button', { name: 'Corrigir nome ou telefone' }),
  ).toBeInViewport();
  await page.goto('/privacidade');
  await page.getByRole('link', { name: 'Voltar para Configurações' }).click();
  await expect(page).toHaveURL(/\/configuracoes$/);
});

test('with no signal the notice opens from the phone, and says the contact comes back with the connection', async ({
  page,
  context,
  look,
}) => {
  await openLive(page, '/login');
  await controlledByServiceWorker(page);
  await context.setOffline(true);
  const offline = await page.goto('/privacidade');
  expect(offline?.fromServiceWorker()).toBe(true);
  await expect(page.locator('#root[data-prerendered="/privacidade"]')).toBeAttached();
  await expect(page.getByRole('heading', { level: 2, name: 'Seus direitos e como usar' })).toBeVisible();
  await expect(page.getByText('Sem conexão: o contato do encarregado aparece quando a internet voltar.')).toBeVisible();
  await look('aviso-de-privacidade-sem-conexao');
  await context.setOffline(false);
  await expect(page.getByTestId('encarregado')).toBeVisible();
});
