import type { Locator, Page } from '@playwright/test';
import { cpf } from 'cpf-cnpj-validator';
import { bearer, closeToast, driverWithTermsAccepted, expect, settled, signIn, test } from '../support/fixtures.js';
import { brl, grouped, randomDigits } from '../support/values.js';

const randomLetters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
/** A Mercosul plate, ABC1D23. */
const randomPlate = () => `${randomLetters(3)}${randomDigits(1)}${randomLetters(1)}${randomDigits(2)}`;

/** The toast with this title, then closes it so the next check reads a fresh one. */
async function expectToast(page: Page, title: string) {
  await expect(
    page
      .getByRole('alert')
      .filter({ has: page.getByText(title, { exact: true }) })
      .first(),
  ).toBeVisible();
  await closeToast(page, title);
}

async function confirmDialog(page: Page, button: string) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** The status badge (Mantine Badge) with this label inside scope. */
const badgeIn = (scope: Locator, label: string) => scope.locator('.mantine-Badge-root').getByText(label, { exact: true });

test('a driver registers a tag and takes it through activation, block, release, replace, cancel and delete', async ({
  page,
  request,
  look,
}) => {
  test.setTimeout(360_000);
  const { driver, token: Token } = await driverWithTermsAccepted(request, { credit: 100 });
  const models = (await (await request.get('/api/veiculo/modelos')).json()) as {
    Data: { brand: string; modelos: { modelId: string; modelName: string }[] }[];
  };
  const model = models.Data[0]!.modelos[0]!;

  const serial = `7${randomDigits(15)}`;
  const newSerial = `8${randomDigits(15)}`;
  const plate = randomPlate();

  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(brl(100)).first()).toBeVisible();

  // The list starts empty; 'Cadastrar Tag' opens the form.
  await page.goto('/tags/listar');
  await expect(page.getByRole('heading', { name: 'Tags', level: 1 })).toBeVisible();
  await expect(page.getByText('Nenhum item.')).toBeVisible();
  await page.getByRole('link', { name: 'Cadastrar Tag' }).click();
  await expect(page).toHaveURL(/\/tags\/adicionar$/);
  await expect(page).toHaveTitle(/Cadastrar Tag/);

  // spec §5: every required message, in order, under its field.
  await page.getByRole('button', { name: 'Cadastrar', exact: true }).click();
  const form = page.getByRole('form', { name: 'Cadastrar Tag' });
  await expect(form.getByText('Por favor digite a Tag a ser ativada')).toBeVisible();
  await expect(form.getByText('Por favor selecione a Operadora da Tag')).toBeVisible();
  await expect(form.getByText('Por favor digite a Placa do veículo')).toBeVisible();
  await expect(form.getByText('Por favor selecione o número de eixos')).toBeVisible();
  await expect(form.getByText('Por favor selecione o modelo')).toBeVisible();
  await expect(page.getByLabel('Número da Tag')).toBeFocused();
  await look('tag-cadastro-erros');

  // A Taggy Greenpass serial: the 60-second warning in the form (never over the header and 'Sair'), and the form refuses it.
  await page.getByLabel('Operadora').selectOption({ label: 'Taggy' });
  await page.getByLabel('Número da Tag').pressSequentially('56661234');
  const greenpass = form.getByRole('alert').filter({ hasText: 'tags Greenpass da Taggy' });
  await expect(greenpass).toBeVisible();
  expect((await greenpass.innerText()).match(/Atenção/g)).toHaveLength(1);
  await page.getByRole('button', { name: 'Sair' }).click({ trial: true });
  await page.getByRole('button', { name: 'Cadastrar', exact: true }).click();
  await expect(form.getByText('Não é possivel cadastrar tags Greenpass')).toBeVisible();
  await look('tag-cadastro-greenpass');
  await greenpass.getByRole('button', { name: 'Fechar aviso' }).click();
  await expect(greenpass).toBeHidden();

  // Every field, with its mask.
  await page.getByLabel('Número da Tag').fill('');
  await page.getByLabel('Número da Tag').pressSequentially(serial);
  await expect(page.getByLabel('Número da Tag')).toHaveValue(grouped(serial));
  await page.getByLabel('Operadora').selectOption({ label: 'SemParar' });
  await page.getByLabel('Placa do Veículo').pressSequentially(plate.toLowerCase());
  await expect(page.getByLabel('Placa do Veículo')).toHaveValue(plate);
  const antt = cpf.generate();
  await page.getByLabel('CPF/CNPJ da ANTT').pressSequentially(antt);
  await expect(page.getByLabel('CPF/CNPJ da ANTT')).toHaveValue(cpf.format(antt));
  await page.getByLabel('RNTRC da ANTT').pressSequentially('123456789');
  await page.getByLabel('Eixos').selectOption('3');
  await page.getByLabel('Modelo').selectOption(model.modelId);
  await look('tag-cadastro-preenchido');
  await page.getByRole('button', { name: 'Cadastrar', exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`/tags/detalhes/${plate}$`));
  await expectToast(page, 'Sucesso!');
  const tagPanel = page.getByRole('region', { name: 'Tag' });
  await expect(badgeIn(tagPanel, 'Inativa')).toBeVisible();
  await expect(page.getByTestId('tag-serial')).toHaveText(grouped(serial));
  await expect(page.getByText('SemParar')).toBeVisible();
  await expect(page.getByText(model.modelName).first()).toBeVisible();
  await expect(page.getByText(/debita a mensalidade de R\$\s15,90/)).toBeVisible();
  // The ANTT CPF/CNPJ stays on one line, as tall as the plate beside it.
  const vehiclePanel = page.getByRole('region', { name: 'Veículo' });
  const [plateBox, documentBox] = await Promise.all([
    vehiclePanel.getByText(plate, { exact: true }).boundingBox(),
    vehiclePanel.getByText(cpf.format(antt), { exact: true }).boundingBox(),
  ]);
  expect(documentBox!.height).toBeLessThanOrEqual(plateBox!.height + 1);
  await look('tag-detalhes-inativa');

  // Both lists show it with its badge.
  await page.goto('/tags/listar');
  const tagRow = page.getByRole('row').filter({ hasText: grouped(serial) });
  await expect(tagRow).toHaveCount(1);
  await expect(badgeIn(tagRow, 'Inativa')).toBeVisible();
  await expect(tagRow).toContainText('SemParar');
  // The card reads plate and status first; its two buttons sit side by side.
  await expect(tagRow.getByRole('link', { name: `Tag ${grouped(serial)}, veículo ${plate}: ver detalhes` })).toHaveText(plate);
  const [editBox, removeBox] = await Promise.all([
    tagRow.getByRole('link', { name: `Editar tag do veículo ${plate}` }).boundingBox(),
    tagRow.getByRole('button', { name: `Excluir tag do veículo ${plate}` }).boundingBox(),
  ]);
  expect(Math.abs(editBox!.y - removeBox!.y)).toBeLessThan(2);
  await look('tags-lista');
  await page.goto('/veiculos/listar');
  const vehicleRow = page.getByRole('row').filter({ hasText: plate });
  await expect(badgeIn(vehicleRow, 'Inativa')).toBeVisible();
  await look('veiculos-lista');

  // Edit the inactive tag (from the list's edit button: no full state, the page fetches the detail).
  await page.goto('/tags/listar');
  await page.getByRole('link', { name: `Editar tag do veículo ${plate}` }).click();
  await expect(page).toHaveURL(new RegExp(`/tags/editar/${plate}$`));
  await expect(page.getByLabel('Número da Tag')).toHaveValue(grouped(serial));
  await expect(page.getByLabel('Placa do Veículo')).toHaveValue(plate);
  await expect(page.getByLabel('Eixos')).toHaveValue('3');
  await look('tag-editar');
  await page.getByLabel('Eixos').selectOption('2');
  await page.getByLabel('RNTRC da ANTT').fill('87654321');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page).toHaveURL(new RegExp(`/tags/detalhes/${plate}$`));
  await expectToast(page, 'Sucesso!');
  await expect(page.getByText('87654321')).toBeVisible();

  // Activate: R$ 15,90 leaves the balance.
  await page.getByRole('button', { name: 'Ativar' }).click();
  await confirmDialog(page, 'Ativar');
  await expectToast(page, 'Tag ativada com sucesso!');
  await expect(badgeIn(tagPanel, 'Ativa')).toBeVisible();
  // Editar is no longer offered, and the page says why, naming the state; so does the edit route reached directly.
  await expect(page.getByRole('link', { name: 'Editar' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Editar' })).toBeDisabled();
  await expect(page.getByText('Esta tag está ativa: somente tags inativas podem ser editadas')).toBeVisible();
  await page.goto(`/tags/editar/${plate}`);
  await expect(page.getByRole('alert').filter({ hasText: 'Não é possível editar esta tag' })).toContainText(
    'Esta tag está ativa: somente tags inativas podem ser editadas',
  );
  await page.goto(`/tags/detalhes/${plate}`);
  await expect(badgeIn(tagPanel, 'Ativa')).toBeVisible();
  const saldo = (await (await request.get('/api/motorista/saldo', { headers: bearer(Token) })).json()) as { Saldo: number };
  expect(saldo.Saldo).toBe(84.1);
  await look('tag-detalhes-ativa');

  // Block (confirm), then release.
  await page.getByRole('button', { name: 'Bloquear' }).click();
  await expect(page.getByRole('dialog')).toContainText(grouped(serial));
  await settled(page);
  await look('tag-bloquear-confirmacao');
  await confirmDialog(page, 'Bloquear');
  await expectToast(page, 'Tag bloqueada com sucesso!');
  await expect(badgeIn(tagPanel, 'Bloqueada')).toBeVisible();
  await look('tag-detalhes-bloqueada');
  await page.getByRole('button', { name: 'Liberar' }).click();
  await expectToast(page, 'Tag liberada com sucesso!');
  await expect(badgeIn(tagPanel, 'Ativa')).toBeVisible();

  // Replace the serial.
  await page.getByRole('button', { name: 'Substituir' }).click();
  const dialog = page.getByRole('dialog', { name: 'Substituir tag' });
  await dialog.getByLabel('Número da nova Tag').fill('1234');
  await dialog.getByRole('button', { name: 'Substituir' }).click();
  await expect(dialog.getByText('Digite o número da nova Tag para substituir')).toBeVisible();
  await settled(page);
  await look('tag-substituir');
  await dialog.getByLabel('Número da nova Tag').fill(newSerial);
  await expect(dialog.getByLabel('Número da nova Tag')).toHaveValue(grouped(newSerial));
  await dialog.getByRole('button', { name: 'Substituir' }).click();
  await expectToast(page, 'Tag substituída com sucesso!');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('tag-serial')).toHaveText(grouped(newSerial));

  // Cancel (confirm).
  await page.getByRole('button', { name: 'Cancelar', exact: true }).click();
  await confirmDialog(page, 'Cancelar tag');
  await expectToast(page, 'Tag cancelada com sucesso!');
  await expect(badgeIn(tagPanel, 'Cancelada')).toBeVisible();
  await look('tag-detalhes-cancelada');

  // The statement shows the monthly fee.
  await page.goto('/extrato/listar');
  const feeRow = page.getByRole('row').filter({ hasText: 'Mensalidade da tag' });
  await expect(feeRow).toHaveCount(1);
  await expect(feeRow).toContainText(brl(-15.9));
  await page.goto('/dashboard');
  await expect(page.getByText(brl(84.1)).first()).toBeVisible();

  // Delete the tag (confirm): back to the list, now empty.
  await page.goto(`/tags/detalhes/${plate}`);
  await page.getByRole('button', { name: 'Excluir' }).click();
  await confirmDialog(page, 'Excluir');
  await expectToast(page, 'Exclusão de Tag/Veículo');
  await expect(page).toHaveURL(/\/tags\/listar$/);
  await expect(page.getByText('Nenhum item.')).toBeVisible();

  // The vehicle stays, without a tag; delete it too (confirm).
  await page.goto('/veiculos/listar');
  const bare = page.getByRole('row').filter({ hasText: plate });
  await expect(badgeIn(bare, 'Sem tag')).toBeVisible();
  await look('veiculos-sem-tag');
  await bare.getByRole('button', { name: `Excluir veículo ${plate}` }).click();
  await confirmDialog(page, 'Excluir');
  await expectToast(page, 'Exclusão de Tag/Veículo');
  await expect(page.getByText('Nenhum item.')).toBeVisible();
});

test('an unknown plate shows "Veículo não encontrado" with a way back', async ({ page, request, look }) => {
  const { driver } = await driverWithTermsAccepted(request);
  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/tags/detalhes/ZZZ9Z99');
  await expect(page.getByText('Veículo não encontrado')).toBeVisible();
  await look('tag-detalhes-nao-encontrado');
  await page.getByRole('link', { name: 'Voltar para Tags' }).last().click();
  await expect(page).toHaveURL(/\/tags\/listar$/);
});
