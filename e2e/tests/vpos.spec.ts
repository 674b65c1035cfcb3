import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { cnpj } from 'cpf-cnpj-validator';
import {
  bearer,
  buyBalanceViaPix,
  createPartnerKeyWithCli,
  driverWithTermsAccepted,
  expect,
  registerTagViaApi,
  reloadLive,
  settled,
  signIn,
  test,
} from '../support/fixtures.js';
import { viewports } from '../chromium.js';
import { brl, grouped, randomDigits } from '../support/values.js';

/**
 * 13 VPOs (two pages of 10) for the driver's three trucks (founding decision 24: a VPO names an active
 * tag and its vehicle's plate): distinct values, pushed in this order (oldest first). Equal plates
 * are ordered by arrival, as the server breaks ties by id.
 */
const PLATES = ['HIJ7K89', 'BRA2E19', 'QWE1R23'] as const;
const VPOS = [
  { value: 45.9, plate: 'BRA2E19', status: 'EMITIDO' },
  { value: 120, plate: 'QWE1R23', status: 'EM_VIAGEM' },
  { value: 310.5, plate: 'HIJ7K89', status: 'ENCERRADO' },
  { value: 18.75, plate: 'BRA2E19', status: 'CANCELADO' },
  { value: 999.99, plate: 'HIJ7K89', status: 'EM_VIAGEM' },
  { value: 72.4, plate: 'QWE1R23', status: 'EMITIDO' },
  { value: 250, plate: 'BRA2E19', status: 'ENCERRADO' },
  { value: 5.5, plate: 'QWE1R23', status: 'EMITIDO' },
  { value: 640, plate: 'HIJ7K89', status: 'EM_VIAGEM' },
  { value: 88.8, plate: 'BRA2E19', status: 'EMITIDO' },
  { value: 150.25, plate: 'QWE1R23', status: 'ENCERRADO' },
  { value: 33.3, plate: 'HIJ7K89', status: 'EMITIDO' },
  { value: 410, plate: 'QWE1R23', status: 'EM_VIAGEM' },
] as const;
type PushedVpo = (typeof VPOS)[number];
const STATUS_LABELS: Record<PushedVpo['status'], string> = {
  EMITIDO: 'Emitido',
  EM_VIAGEM: 'Em viagem',
  ENCERRADO: 'Encerrado',
  CANCELADO: 'Cancelado',
};
const PAGE_SIZE = 10;
/** The moves that take an issued (EMITIDO) VPO to each status. */
const STATUS_PATHS: Record<PushedVpo['status'], readonly PushedVpo['status'][]> = {
  EMITIDO: [],
  EM_VIAGEM: ['EM_VIAGEM'],
  ENCERRADO: ['EM_VIAGEM', 'ENCERRADO'],
  CANCELADO: ['CANCELADO'],
};

/**
 * An active tag for the driver through the same API the web app uses: POST /api/tag/cadastrar-tag,
 * then /api/tag/ativar-tag-motorista (the monthly fee comes from the driver's balance).
 */
async function activeTag(request: APIRequestContext, token: string, driverDocument: string, serial: string, plate: string) {
  await registerTagViaApi(request, token, driverDocument, serial, plate);
  const activated = await request.post('/api/tag/ativar-tag-motorista', {
    headers: bearer(token),
    data: { serialNumber: serial, licensePlate: plate, cnpj: driverDocument },
  });
  expect(activated.ok(), await activated.text()).toBe(true);
}

const rows = (page: Page) => page.locator('tbody tr');

/** Orders the list as a driver would: the column header on a desktop, 'Ordenar por' on a phone. */
async function sortBy(page: Page, phone: boolean, column: 'Valor' | 'Placa' | 'Data', direction: 'asc' | 'desc') {
  if (phone) {
    const words = { Valor: ['menor primeiro', 'maior primeiro'], Placa: ['A a Z', 'Z a A'], Data: ['mais antigos', 'mais recentes'] }[
      column
    ];
    await page.getByLabel('Ordenar por').selectOption({ label: `${column} (${direction === 'asc' ? words[0] : words[1]})` });
  } else {
    const header = page.getByRole('columnheader', { name: column });
    const wanted = direction === 'asc' ? 'ascending' : 'descending';
    const button = header.getByRole('button', { name: column });
    const current = await header.getAttribute('aria-sort');
    // Another column's header starts ascending; the sorted column's header flips its direction.
    if (current === null) {
      await button.click();
      await expect(header).toHaveAttribute('aria-sort', 'ascending');
    }
    if ((await header.getAttribute('aria-sort')) !== wanted) await button.click();
    await expect(header).toHaveAttribute('aria-sort', wanted);
    await expect(header.locator('svg')).toBeVisible();
  }
  const field = { Valor: 'valor', Placa: 'placa', Data: 'data' }[column];
  if (field === 'data' && direction === 'desc') await expect(page).toHaveURL(/\/vpos\/listar$/);
  else await expect(page).toHaveURL(new RegExp(`\\?sort=${field}&direction=${direction}$`));
}

async function expectFirstRow(page: Page, vpo: PushedVpo) {
  const first = rows(page).first();
  await expect(first).toContainText(vpo.plate);
  await expect(first).toContainText(brl(vpo.value));
}

async function goToPage(page: Page, n: number) {
  await page.getByRole('button', { name: `Página ${n}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`page=${n}$`));
}

/** First row of page 1 and of the last page for an order: the server sorts across all pages. */
async function expectOrder(page: Page, sorted: readonly PushedVpo[]) {
  await expectFirstRow(page, sorted[0]!);
  await expect(rows(page)).toHaveCount(PAGE_SIZE);
  const lastPage = Math.ceil(sorted.length / PAGE_SIZE);
  await goToPage(page, lastPage);
  await expectFirstRow(page, sorted[(lastPage - 1) * PAGE_SIZE]!);
  await expect(rows(page)).toHaveCount(sorted.length - (lastPage - 1) * PAGE_SIZE);
}

function dialogValue(dialog: Locator, label: string): Locator {
  return dialog
    .locator('dt')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

test('a driver sees the VPOs a shipper pushed, sorts them by Valor, Placa and Data across pages and opens their details', async ({
  page,
  request,
  look,
}, testInfo) => {
  test.setTimeout(360_000);
  const phone = testInfo.project.name === 'phone';
  const { driver, token: Token } = await driverWithTermsAccepted(request, { credit: 100 });
  const serials = new Map<string, string>(PLATES.map((plate) => [plate, `7${randomDigits(15)}`]));
  for (const [plate, serial] of serials) await activeTag(request, Token, driver.cpfCnpj, serial, plate);

  // A shipper's key from the operator CLI, then the pushes through the partner API.
  const key = await createPartnerKeyWithCli('shipper', `Embarcador E2E ${testInfo.project.name}`);
  const shipper = cnpj.generate();
  const run = randomDigits(8);
  for (const [i, v] of VPOS.entries()) {
    const externalId = `e2e-${run}-${i}`;
    const response = await request.post('/api/parceiro/vpos', {
      headers: { 'X-Api-Key': key },
      data: { externalId, serialNumber: serials.get(v.plate), PlacaVeiculo: v.plate, CpfCnpjEmbarcador: shipper, ValorTotalVP: v.value },
    });
    expect(response.status(), await response.text()).toBe(201);
    // Issued EMITIDO; the shipper then moves it along the state machine (founding decision 29).
    for (const status of STATUS_PATHS[v.status]) {
      const moved = await request.patch(`/api/parceiro/vpos/${externalId}`, { headers: { 'X-Api-Key': key }, data: { Status: status } });
      expect(moved.status(), await moved.text()).toBe(200);
    }
  }
  const byValue = [...VPOS].sort((a, b) => a.value - b.value);
  const byPlate = [...VPOS].sort((a, b) => a.plate.localeCompare(b.plate));
  const pushed = [...VPOS];

  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('link', { name: /^VPOs\b/ }).click();
  await expect(page).toHaveURL(/\/vpos\/listar$/);
  await expect(page).toHaveTitle(/^VPOs \|/);
  await expect(page.getByRole('heading', { name: 'VPOs', level: 1 })).toBeVisible();
  await expect(page.getByText('Listagem de VPOs')).toBeVisible();
  await expect(page.getByText('Clique em cima do VPO para ver mais detalhes')).toBeVisible();

  // Newest first by default.
  await expectFirstRow(page, pushed.at(-1)!);
  await expect(rows(page)).toHaveCount(PAGE_SIZE);
  if (!phone) {
    await expect(page.getByRole('columnheader', { name: 'Data' })).toHaveAttribute('aria-sort', 'descending');
  }
  await look('vpos-lista');

  // Valor, ascending then descending: first row of page 1 and of the last page.
  await sortBy(page, phone, 'Valor', 'asc');
  await expectOrder(page, byValue);
  await look('vpos-valor-crescente-ultima-pagina');
  await sortBy(page, phone, 'Valor', 'desc');
  await expect(page).not.toHaveURL(/page=/);
  await expectOrder(page, [...byValue].reverse());

  // The order lives in the URL: a reload keeps it.
  await reloadLive(page);
  await expectFirstRow(page, [...byValue].reverse()[PAGE_SIZE]!);

  await sortBy(page, phone, 'Placa', 'asc');
  await expectOrder(page, byPlate);
  await sortBy(page, phone, 'Placa', 'desc');
  await expectOrder(page, [...byPlate].reverse());

  await sortBy(page, phone, 'Data', 'asc');
  await expectOrder(page, pushed);
  await sortBy(page, phone, 'Data', 'desc');
  await expectFirstRow(page, pushed.at(-1)!);

  await sortBy(page, phone, 'Valor', 'desc');
  await expectFirstRow(page, byValue.at(-1)!);
  await look('vpos-valor-decrescente');

  // Decision 51: the journey runs at one width; the other width's sort control is driven too.
  const own = page.viewportSize()!;
  await page.setViewportSize(phone ? viewports.desktop : viewports.phone);
  await sortBy(page, !phone, 'Placa', 'asc');
  await expectFirstRow(page, byPlate[0]!);
  await sortBy(page, !phone, 'Valor', 'desc');
  await expectFirstRow(page, byValue.at(-1)!);
  await page.setViewportSize(own);

  // A row opens the details; 'Fechar' closes them.
  const chosen = VPOS.find((v) => v.value === 999.99)!;
  await rows(page)
    .filter({ hasText: brl(chosen.value) })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Detalhes do VPO' });
  await expect(dialog).toBeVisible();
  await expect(dialogValue(dialog, 'Número da Tag')).toHaveText(grouped(serials.get(chosen.plate)!));
  await expect(dialogValue(dialog, 'Placa do Veículo')).toHaveText(chosen.plate);
  await expect(dialogValue(dialog, 'Embarcador')).toHaveText(cnpj.format(shipper));
  await expect(dialogValue(dialog, 'Valor')).toHaveText(brl(chosen.value));
  await expect(dialogValue(dialog, 'Data')).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
  await expect(dialogValue(dialog, 'Status')).toHaveText(STATUS_LABELS[chosen.status]);
  await settled(page);
  await look('vpos-detalhes');
  await dialog.getByRole('button', { name: 'Fechar', exact: true }).click();
  await expect(dialog).toBeHidden();

  // The keyboard opens a row too (Enter), and Escape closes.
  const second = rows(page).nth(1);
  await second.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await expect(dialogValue(dialog, 'Valor')).toHaveText(brl(byValue.at(-2)!.value));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(second).toBeFocused();
});

test('toll passages and third-party movements pushed by partners show in the statement and the balances', async ({
  page,
  request,
  look,
}) => {
  const { driver, token } = await driverWithTermsAccepted(request);
  const serial = `6${randomDigits(15)}`;
  await buyBalanceViaPix(request, token, driver.cpfCnpj, 100);
  await activeTag(request, token, driver.cpfCnpj, serial, 'BRA2E19');
  // The key of the tag's operator: an operator key charges only its own operator's active tags.
  const operatorKey = await createPartnerKeyWithCli('operator', 'Operadora de teste', 'SemParar');
  const platformKey = await createPartnerKeyWithCli('platform', 'MoveMais teste');
  const now = new Date().toISOString();
  const push = async (url: string, key: string, data: Record<string, unknown>) => {
    const response = await request.post(url, { headers: { 'X-Api-Key': key }, data });
    expect(response.ok(), await response.text()).toBe(true);
    expect(((await response.json()) as { duplicate?: boolean }).duplicate).toBe(false);
  };
  await push('/api/parceiro/passagens', operatorKey, {
    externalId: `p1-${serial}`,
    serialNumber: serial,
    placeName: 'Praça Jacareí',
    value: 96.5,
    occurredAt: now,
    is_third: false,
  });
  await push('/api/parceiro/passagens', operatorKey, {
    externalId: `p2-${serial}`,
    serialNumber: serial,
    placeName: 'Praça Guararema',
    value: 9.8,
    occurredAt: now,
    is_third: true,
  });
  await push('/api/parceiro/terceiro/movimentos', platformKey, {
    externalId: `c1-${serial}`,
    cpfCnpj: driver.cpfCnpj,
    origin: 'credito-terceiro-movemais',
    value: 45.5,
    placeName: 'MoveMais',
    occurredAt: now,
  });
  await push('/api/parceiro/terceiro/movimentos', platformKey, {
    externalId: `d1-${serial}`,
    cpfCnpj: driver.cpfCnpj,
    origin: 'debito-terceiro-movemais',
    value: 30,
    placeName: 'MoveMais',
    occurredAt: now,
  });

  await signIn(page, driver.cpfCnpj, driver.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // Own balance: 100,00 - 15,90 (fee) - 96,50 = -12,40: a passage is never refused for the balance (the truck already
  // went through). Third: 45,50 - 30,00 - 9,80.
  await expect(page.getByText(brl(-12.4)).first()).toBeVisible();
  await expect(page.getByText(brl(5.7)).first()).toBeVisible();

  await page.goto('/extrato/listar');
  await expect(page.getByRole('columnheader')).toHaveText(['Data', 'Descrição', 'Valor', 'Saldo após']);
  await expect(page.getByText('Passagem por: Praça Jacareí')).toBeVisible();
  await expect(page.getByText('Passagem por: Praça Guararema')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Passagem de Terceiro' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Débito de Terceiro' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Crédito de Terceiro' })).toBeVisible();
  await look('extrato-parceiros');
});
