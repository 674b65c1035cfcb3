import { readFile } from 'node:fs/promises';
import { cnpj, cpf } from 'cpf-cnpj-validator';
import { formatCpfCnpj, maskCpfCnpj } from '@portal/domain';
import {
  bearer,
  buyBalanceViaPix,
  createPartnerKeyWithCli,
  expect,
  partnerPost,
  registerTagViaApi,
  registerViaApi,
  settled,
  signIn,
  test,
} from '../support/fixtures.js';
import { randomDigits } from '../support/values.js';

/**
 * Decision 77: a carrier invites a Motorista by CPF in 'Membros', the person accepts on their own
 * dashboard, the Gestor assigns them a truck in 'Veículos da frota'; the Motorista switches to the
 * company and sees only that truck (and its passage), the other Motorista sees neither; 'Auditoria'
 * shows who did it. Decision 79: a Gestor filters the company's Extrato by its cost centre.
 */
function person(name: string, document: string) {
  return { name, cpfCnpj: document, maskedCpfCnpj: formatCpfCnpj(document), phone: '11987654321', password: 'estrada2026' };
}

test('a carrier invites a Motorista, assigns a truck, and each person sees only what their role allows', async ({
  page,
  browser,
  request,
  look,
}) => {
  test.setTimeout(240_000);
  const run = randomDigits(6);
  const company = person(`Transportes Jornada ${run} Ltda`, cnpj.generate());
  const { Token: firmToken } = await registerViaApi(request, company);
  expect((await request.post('/api/termos/aceitar', { headers: bearer(firmToken) })).ok()).toBe(true);
  await buyBalanceViaPix(request, firmToken, company.cpfCnpj, 200);
  const trucks = [
    { serial: `8${randomDigits(15)}`, plate: `JRN${randomDigits(1)}A${randomDigits(2)}` },
    { serial: `8${randomDigits(15)}`, plate: `JRN${randomDigits(1)}B${randomDigits(2)}` },
  ];
  for (const t of trucks) {
    await registerTagViaApi(request, firmToken, company.cpfCnpj, t.serial, t.plate);
    const activated = await request.post('/api/tag/ativar-tag-motorista', {
      headers: bearer(firmToken),
      data: { serialNumber: t.serial, licensePlate: t.plate, cnpj: company.cpfCnpj },
    });
    expect(activated.ok(), await activated.text()).toBe(true);
  }
  const carla = person('Carla Motorista', cpf.generate());
  const otto = person('Otto Motorista', cpf.generate());
  const { Token: carlaToken } = await registerViaApi(request, carla);
  const { Token: ottoToken } = await registerViaApi(request, otto);

  // The company's login invites Carla in 'Membros'.
  await signIn(page, company.cpfCnpj, company.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/empresa/membros');
  await settled(page);
  await page.getByLabel('CPF de quem vai usar o portal').fill(carla.cpfCnpj);
  await page.getByLabel('Papel', { exact: true }).selectOption({ label: 'Motorista' });
  await page.getByRole('button', { name: 'Enviar convite' }).click();
  // Until she accepts, the company sees only the CPF it typed (not whether it has an account, nor a name).
  const row = page.getByRole('row').filter({ hasText: maskCpfCnpj(carla.cpfCnpj) });
  await expect(row).toContainText('Aguardando aceite');
  await expect(row).toContainText('Convite enviado');
  await look('fleet-members');
  // Otto is invited through the API (the same call).
  const invited = await request.post('/api/empresa/membros', {
    headers: bearer(firmToken),
    data: { cpf: otto.cpfCnpj, papel: 'motorista' },
  });
  expect(invited.status()).toBe(201);

  // Carla accepts on her own dashboard.
  const carlaContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const carlaPage = await carlaContext.newPage();
  await signIn(carlaPage, carla.cpfCnpj, carla.password);
  await expect(carlaPage).toHaveURL(/\/dashboard$/);
  const card = carlaPage.getByRole('button', { name: `Aceitar o convite de ${company.name}` });
  await expect(card).toBeVisible();
  const invitationId = (await (await request.get('/api/convites', { headers: bearer(ottoToken) })).json()) as {
    Convites: { id: number }[];
  };
  expect((await request.post(`/api/convites/${invitationId.Convites[0]?.id}/aceitar`, { headers: bearer(ottoToken) })).ok()).toBe(true);
  await card.click();
  await expect(carlaPage.getByText(`Você já pode usar a conta de ${company.name}`)).toBeVisible();

  // The company assigns the first truck to Carla.
  await page.goto('/empresa/veiculos');
  await settled(page);
  const truck = page.locator(`[data-vehicle="${trucks[0]?.plate}"]`);
  await truck.getByLabel('Carla Motorista').check();
  await truck.getByRole('button', { name: `Salvar Motoristas do veículo ${trucks[0]?.plate}` }).click();
  await expect(page.getByText('Motoristas do veículo atualizados.')).toBeVisible();
  await look('fleet-vehicles');

  // A cost centre, and the truck in it before its passage: decision 79, an entry is the centre's its
  // vehicle was in when it was posted.
  await page.goto('/empresa/centros-de-custo');
  await settled(page);
  await page.getByLabel('Nome', { exact: true }).fill('Operação Sul');
  await page.getByLabel('Código', { exact: true }).fill('op-sul');
  await page.getByRole('button', { name: 'Criar centro de custo' }).click();
  await expect(page.getByText('Centro de custo criado.')).toBeVisible();
  await page.goto('/empresa/veiculos');
  await settled(page);
  await page.locator(`[data-vehicle="${trucks[0]?.plate}"]`).getByLabel('Centro de custo').selectOption({ label: 'OP-SUL · Operação Sul' });
  await expect(page.getByText(`O veículo ${trucks[0]?.plate} agora está no centro de custo OP-SUL (Operação Sul).`)).toBeVisible();

  // A passage on the assigned truck.
  const operator = await createPartnerKeyWithCli('operator', `SemParar Frota ${run}`, 'SemParar');
  await partnerPost(request, '/api/parceiro/passagens', operator, {
    externalId: `frota-${run}`,
    serialNumber: trucks[0]?.serial,
    placeName: 'Praça Registro (BR-116)',
    value: 42.6,
    occurredAt: new Date(Date.now() - 30 * 60_000).toISOString(),
    is_third: false,
  });

  // Carla switches to the company: her truck, no balance.
  await carlaPage.goto('/dashboard');
  await carlaPage.getByRole('button', { name: /Trocar de conta/ }).click();
  await carlaPage.getByRole('menuitem', { name: new RegExp(company.name) }).click();
  await expect(carlaPage.getByText(`Conta: ${company.name} · Motorista`)).toBeVisible();
  await expect(carlaPage.getByRole('heading', { name: 'Seus veículos' })).toBeVisible();
  await expect(carlaPage.getByText(trucks[0]?.plate ?? '')).toBeVisible();
  await expect(carlaPage.getByText(trucks[1]?.plate ?? '')).toHaveCount(0);
  await expect(carlaPage.getByText('Saldo', { exact: true })).toHaveCount(0);
  const companyId = (
    (await (await request.get('/api/contas', { headers: bearer(carlaToken) })).json()) as { Contas: { id: number; propria: boolean }[] }
  ).Contas.find((c) => !c.propria)?.id;
  const passagesOf = async (token: string) =>
    (
      (await (
        await request.get('/api/veiculo/passagens?page=1', { headers: { ...bearer(token), 'X-Conta': String(companyId) } })
      ).json()) as { Passagens: { placa: string }[] }
    ).Passagens;
  expect((await passagesOf(carlaToken)).map((p) => p.placa)).toEqual([trucks[0]?.plate]);
  expect(await passagesOf(ottoToken)).toEqual([]);
  await carlaPage.bringToFront();
  const carlaLook = async () => {
    await carlaPage.screenshot({ path: `e2e/screenshots/${test.info().project.name}/fleet-driver-dashboard.png`, fullPage: true });
  };
  await carlaLook();
  await carlaContext.close();

  // The trail: who invited, who accepted, who assigned.
  await page.goto('/empresa/auditoria');
  await settled(page);
  await expect(page.getByText('Atribuiu motoristas a um veículo')).toBeVisible();
  await expect(page.getByText('Aceitou o convite').first()).toBeVisible();
  await look('fleet-audit');

  // Decision 78: a monthly budget for the assigned truck; its passage already takes it past 80 %.
  await page.goto('/empresa/orcamentos');
  await settled(page);
  const budget = page.getByRole('article', { name: trucks[0]?.plate });
  await budget.getByLabel('Orçamento mensal').fill('5000');
  await budget.getByLabel('Bloquear a tag ao chegar a 100%').check();
  await budget.getByRole('button', { name: `Salvar o orçamento do veículo ${trucks[0]?.plate}` }).click();
  await expect(page.getByText(`Orçamento mensal do veículo ${trucks[0]?.plate}`)).toBeVisible();
  await expect(page.getByRole('article', { name: trucks[0]?.plate })).toContainText('(85%)');
  await look('fleet-budgets');

  // The month's report of the cost centre, downloaded.
  await page.goto('/empresa/centros-de-custo');
  await settled(page);
  await page.getByLabel('Mês', { exact: true }).fill(new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 7));
  const [report] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Baixar CSV do relatório de Operação Sul' }).click(),
  ]);
  const csv = (await readFile(await report.path())).toString('utf8');
  expect(csv).toContain(trucks[0]?.plate ?? '');
  expect(csv).toContain('42,60');
  await look('fleet-cost-centres');

  // The switch in the header, and the budget's notice, at both widths.
  await page.goto('/dashboard');
  await settled(page);
  await expect(page.getByText(`O veículo ${trucks[0]?.plate} já usou 85% do orçamento do mês`, { exact: false })).toBeVisible();
  await look('fleet-company-dashboard');

  // Dual control: the company asks for a withdrawal above its threshold; a second Gestor approves it.
  const gil = person('Gil Gestor', cpf.generate());
  const { Token: gilToken } = await registerViaApi(request, gil);
  expect((await request.post('/api/termos/aceitar', { headers: bearer(gilToken) })).ok()).toBe(true);
  expect(
    (await request.post('/api/empresa/membros', { headers: bearer(firmToken), data: { cpf: gil.cpfCnpj, papel: 'gestor' } })).status(),
  ).toBe(201);
  const gilInvitation = (await (await request.get('/api/convites', { headers: bearer(gilToken) })).json()) as {
    Convites: { id: number }[];
  };
  expect((await request.post(`/api/convites/${gilInvitation.Convites[0]?.id}/aceitar`, { headers: bearer(gilToken) })).ok()).toBe(true);
  expect((await request.post('/api/empresa/aprovacao-saques', { headers: bearer(firmToken), data: { valor: 50 } })).ok()).toBe(true);
  const balanceOf = async () =>
    ((await (await request.get('/api/motorista/saldo', { headers: bearer(firmToken) })).json()) as { Saldo: number }).Saldo;
  const before = await balanceOf();
  const asked = await request.post('/api/motorista/sacar', {
    headers: bearer(firmToken),
    data: { description: 'Saque da frota', receiver_document: company.cpfCnpj, amount: 60, pix: { key: company.cpfCnpj, type: 'CNPJ' } },
  });
  expect(((await asked.json()) as { status: string }).status).toBe('AGUARDANDO_APROVACAO');
  expect(await balanceOf()).toBe(before);

  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, gil.cpfCnpj, gil.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: /Trocar de conta/ }).click();
  await page.getByRole('menuitem', { name: new RegExp(company.name) }).click();
  await expect(page.getByText(`Conta: ${company.name} · Gestor`)).toBeVisible();
  await page.goto('/empresa/dupla-aprovacao');
  await settled(page);
  const approve = page.getByRole('button', { name: /Aprovar o saque de R\$\s60,00/ });
  await expect(approve).toBeVisible();
  await look('fleet-dual-control-pending');
  await approve.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Aprovar' }).click();
  await expect(page.getByText(/Saque aprovado/).first()).toBeVisible();
  await expect.poll(balanceOf).toBeCloseTo(before - 60, 2);

  // Decision 79: the company's Extrato by cost centre: only what was posted to OP-SUL (not the
  // purchase, not the withdrawal), each row with its plate and its centre's code; the export the same.
  await page.goto('/extrato/listar');
  await settled(page);
  const statementRows = page.locator('tbody tr');
  await expect(statementRows.filter({ hasText: 'Passagem por: Praça Registro (BR-116)' })).toHaveCount(1);
  await expect(statementRows.filter({ hasText: 'Compra de saldo via Pix' })).not.toHaveCount(0);
  await page.getByRole('combobox', { name: 'Veículo, centro de custo ou motorista' }).click();
  await page.getByRole('option', { name: 'OP-SUL · Operação Sul' }).click();
  await expect(page).toHaveURL(/\/extrato\/listar\?centro=\d+$/);
  await expect(statementRows).toHaveText([/Passagem por: Praça Registro \(BR-116\)/]);
  await expect(statementRows.first().locator('[data-plate]')).toHaveAttribute('data-plate', trucks[0]?.plate ?? '');
  await expect(statementRows.first().locator('[data-cost-centre]')).toHaveText('OP-SUL');
  await look('fleet-statement-cost-centre');
  const [statementCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
  const exported = (await readFile(await statementCsv.path())).toString('utf8');
  expect(exported).toContain(`${trucks[0]?.plate};OP-SUL`);
  expect(exported).not.toMatch(/compras? de saldo/i);
});
