import { request, type IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  formatCpfCnpj,
  formatDateTime,
  messages,
  serverMessages,
  STATEMENT_ORIGINS,
  statementKindLabels,
  statementKindOf,
} from '@portal/domain';
import { beforeAll, expect, it } from 'vitest';
import { balances } from '../../../src/modules/ledger/ledger.js';
import { csvStream, csvText } from '../../../src/modules/statement/export-csv.js';
import { pdfStatement } from '../../../src/modules/statement/export-pdf.js';
import { EXPORT_CHUNK_ROWS, exportPlan, exportRows, exportSummary } from '../../../src/modules/statement/export-rows.js';
import { readsOn } from '../../../src/db/read-replica.js';
import { bearer, json, registerDriver, useTestApp } from '../../helpers/app.js';
import type { Registered } from '../../helpers/app.js';
import { describeEachDatabase } from '../../helpers/databases.js';
import { recordMovements, type Movement } from '../../helpers/movements.js';
import { pdfText } from '../../helpers/files.js';

const TRICKY_PLACE = 'Praça "Central"; São João – Pedágio';
const FORMULA_PLACE = '=HYPERLINK("http://x")';

const MOVEMENTS: Movement[] = [
  { at: '2026-10-02T08:00:00-03:00', cents: 123456, origin: STATEMENT_ORIGINS.pixPurchase, place: 'Compra de saldo via Pix' },
  { at: '2026-10-15T10:00:00-03:00', cents: 5000, origin: STATEMENT_ORIGINS.thirdPartyCredit, place: 'Crédito MoveMais', third: true },
  { at: '2026-10-31T23:59:59-03:00', cents: -100, origin: STATEMENT_ORIGINS.passage, place: 'Praça Outubro' },
  { at: '2026-11-01T00:00:00-03:00', cents: -250, origin: STATEMENT_ORIGINS.passage, place: TRICKY_PLACE },
  { at: '2026-11-05T09:00:00-03:00', cents: -300, origin: STATEMENT_ORIGINS.passage, place: 'Praça Terceiro', third: true },
  { at: '2026-11-10T09:00:00-03:00', cents: -1590, origin: STATEMENT_ORIGINS.tagFee, place: 'Mensalidade da tag' },
  { at: '2026-11-12T09:00:00-03:00', cents: -1000, origin: STATEMENT_ORIGINS.pixWithdrawal, place: 'Saque via Pix' },
  { at: '2026-11-12T09:05:00-03:00', cents: 1000, origin: STATEMENT_ORIGINS.pixWithdrawalReversal, place: 'Devolução de saque via Pix' },
  { at: '2026-11-20T09:00:00-03:00', cents: -7, origin: STATEMENT_ORIGINS.passage, place: FORMULA_PLACE },
];

/** RFC 4180 with ';': fields split on separators outside quotes, "" is a quote inside one. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ';') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) throw new Error('CSV sem CRLF no fim da última linha');
  return rows;
}

const money = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;

describeEachDatabase('exportação do extrato (issue 12)', (dialect) => {
  const ctx = useTestApp(dialect);
  const app = () => ctx().app;
  let driver: Registered;
  let other: Registered;
  let busy: Registered;

  const record = (d: Registered, movements: Movement[], prefix: string) => recordMovements(ctx().db, d, movements, prefix);

  const download = async (d: Registered | null, query: string) =>
    app().inject({ method: 'GET', url: `/api/extrato/exportar?${query}`, headers: d ? bearer(d.token) : {} });

  beforeAll(async () => {
    driver = await registerDriver(app(), { name: 'João Conceição Araújo' });
    other = await registerDriver(app(), { name: 'Outra Motorista' });
    busy = await registerDriver(app(), { name: 'Motorista Ocupado' });
    await record(driver, MOVEMENTS, 'export');
    await record(
      other,
      [{ at: '2026-11-03T10:00:00-03:00', cents: -999, origin: STATEMENT_ORIGINS.passage, place: 'Praça Só Da Outra' }],
      'outra',
    );
    // More than a chunk and many PDF pages: 1,234 own passages a minute apart in November.
    const many = Array.from({ length: EXPORT_CHUNK_ROWS * 2 + 234 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 10, 2, 12, i)).toISOString(),
      cents: -(100 + (i % 50)),
      origin: STATEMENT_ORIGINS.passage,
      place: `Praça ${i + 1}`,
    }));
    await record(
      busy,
      [
        { at: '2026-10-20T10:00:00-03:00', cents: 500000, origin: STATEMENT_ORIGINS.pixPurchase, place: 'Compra de saldo via Pix' },
        ...many,
      ],
      'ocupado',
    );
  });

  it('CSV completo: BOM, ";", CRLF, vírgula decimal, mais antigos primeiro, acentos e aspas exatos, saldo após de cada conta', async () => {
    const res = await download(driver, 'formato=csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="extrato-completo.csv"');
    expect(res.headers['cache-control']).toBe('no-store');
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text).toContain(`;"Passagem por: Praça ""Central""; São João – Pedágio";`);
    const [header, ...lines] = parseCsv(text);
    expect(header).toEqual(['Data', 'Descrição', 'Tipo', 'Conta', 'Valor (R$)', 'Saldo após (R$)', 'Placa', 'Centro de custo']);
    const rows = lines.slice(0, MOVEMENTS.length);
    // Issue 33: then one total line per account, never one sum across accounts.
    expect(lines.slice(MOVEMENTS.length)).toEqual([
      ['', 'Total do período', '', 'Saldo', '1215,09', '', '', ''],
      ['', 'Total do período', '', 'Saldo em outras plataformas', '47,00', '', '', ''],
    ]);
    // No VPO here: the VPO account stays at zero (decision 52).
    const running = { own: 0, third: 0, vpo: 0 };
    rows.forEach((row, i) => {
      const m = MOVEMENTS[i]!;
      const account = m.third ? 'third' : 'own';
      running[account] += m.cents;
      const kind = statementKindOf(m.origin, m.third ?? false);
      expect(row).toEqual([
        formatDateTime(m.at),
        m.origin === STATEMENT_ORIGINS.passage ? `Passagem por: ${m.place}` : m.place,
        kind ? statementKindLabels[kind] : '',
        m.third ? 'Saldo em outras plataformas' : 'Saldo',
        money(m.cents),
        money(running[account]),
        '',
        '',
      ]);
    });
    // A text a spreadsheet would run as a formula stays text.
    expect(csvText(FORMULA_PLACE)).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvText('-5 reais')).toBe(`'-5 reais`);
    expect(rows[0]).toEqual(['02/10/2026 08:00:00', 'Compra de saldo via Pix', 'Compras de saldo', 'Saldo', '1234,56', '1234,56', '', '']);
    expect(rows[2]?.[0]).toBe('31/10/2026 23:59:59');
    // The last balance of each account is the account's balance.
    const final = await balances(ctx().db.kysely, driver.id);
    expect(running).toEqual(final);
  });

  it('CSV de um período: o saldo após parte do saldo anterior ao período; o nome do arquivo diz os dias', async () => {
    const res = await download(driver, 'formato=csv&periodo=intervalo&de=2026-11-01&ate=2026-11-30');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="extrato-2026-11-01_2026-11-30.csv"');
    const [, ...lines] = parseCsv(res.rawPayload.subarray(3).toString('utf8'));
    const november = MOVEMENTS.filter((m) => m.at >= '2026-11');
    const rows = lines.slice(0, november.length);
    expect(rows.map((r) => r[0])).toEqual(november.map((m) => formatDateTime(m.at)));
    // Own account before November: 1234,56 - 1,00; third: 50,00.
    expect(rows[0]?.slice(3, 6)).toEqual(['Saldo', '-2,50', '1231,06']);
    expect(rows[1]?.slice(3, 6)).toEqual(['Saldo em outras plataformas', '-3,00', '47,00']);
    expect(lines.slice(november.length).map((l) => l.slice(3, 5))).toEqual([
      ['Saldo', '-18,47'],
      ['Saldo em outras plataformas', '-3,00'],
    ]);
  });

  it('um período perto do fim da história parte do saldo da conta menos o que veio depois (o mesmo saldo inicial)', async () => {
    const res = await download(driver, 'formato=csv&periodo=intervalo&de=2026-11-12&ate=2026-11-30');
    const [, ...rows] = parseCsv(res.rawPayload.subarray(3).toString('utf8'));
    expect(rows.map((r) => r.slice(3, 6))).toEqual([
      ['Saldo', '-10,00', '1205,16'],
      ['Saldo', '10,00', '1215,16'],
      ['Saldo', '-0,07', '1215,09'],
      ['Saldo', '-0,07', ''],
    ]);
  });

  it('CSV de um tipo: só o tipo, com o saldo da conta depois de cada linha (contando as outras movimentações)', async () => {
    const res = await download(driver, 'formato=csv&tipo=saques');
    const [, ...rows] = parseCsv(res.rawPayload.subarray(3).toString('utf8'));
    expect(rows).toEqual([
      ['12/11/2026 09:00:00', 'Saque via Pix', 'Saques', 'Saldo', '-10,00', '1205,16', '', ''],
      ['12/11/2026 09:05:00', 'Devolução de saque via Pix', 'Saques', 'Saldo', '10,00', '1215,16', '', ''],
      ['', 'Total do período', '', 'Saldo', '0,00', '', '', ''],
    ]);
  });

  it('PDF: motorista, CPF como na tela, período, saldos inicial e final, linhas, totais por tipo, páginas numeradas', async () => {
    const res = await download(driver, 'formato=pdf&periodo=intervalo&de=2026-11-01&ate=2026-11-30');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="extrato-2026-11-01_2026-11-30.pdf"');
    const { pages } = await pdfText(res.rawPayload);
    expect(pages).toHaveLength(1);
    const text = pages[0]!;
    for (const expected of [
      'Portal do Motorista',
      serverMessages.statement.exportTitle,
      'Motorista: João Conceição Araújo',
      `CPF/CNPJ: ${formatCpfCnpj(driver.cpfCnpj)}`,
      'Período: 01/11/2026 a 30/11/2026',
      'Saldo inicial: R$ 1.233,56',
      'Saldo final: R$ 1.215,09',
      'Saldo em outras plataformas inicial: R$ 50,00',
      'Saldo em outras plataformas final: R$ 47,00',
      '6 movimentações',
      // The Conta column (issue 33) leaves the description less room: a long one is cut with '…'.
      'Passagem por: Praça "Central";…',
      'Devolução de saque via Pix',
      'Totais por tipo',
      'Passagens: -R$ 2,57',
      'Saques: R$ 0,00',
      'Mensalidades: -R$ 15,90',
      'Terceiros: -R$ 3,00',
      'Data Descrição Tipo Conta Valor Saldo após',
      'Passagens Saldo -R$ 2,50 R$ 1.231,06',
      'Terceiros Saldo em outras plataformas -R$ 3,00 R$ 47,00',
      'Totais do período por conta',
      'Total do período (Saldo): -R$ 18,47',
      'Total do período (Saldo em outras plataformas): -R$ 3,00',
      'Página 1 de 1',
      'Gerado em',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Praça Outubro');
    expect(text).not.toContain('Compras de saldo:');
    // Issue 33: never one sum across accounts.
    expect(text).not.toContain('Total do período:');
  });

  it('PDF de todo o período com filtro de tipo', async () => {
    const res = await download(driver, 'formato=pdf&tipo=compras');
    expect(res.headers['content-disposition']).toBe('attachment; filename="extrato-completo.pdf"');
    const text = (await pdfText(res.rawPayload)).pages.join(' ');
    expect(text).toContain('Período: Todo o período');
    expect(text).toContain('Tipo: Compras de saldo');
    expect(text).toContain('Compras de saldo: R$ 1.234,56');
    expect(text).not.toContain('Passagem por');
  });

  it('PDF de muitas páginas: "Página N de M" em todas, M o número real de páginas; cada linha uma vez', async () => {
    const res = await download(busy, 'formato=pdf');
    expect(res.statusCode).toBe(200);
    const { pages } = await pdfText(res.rawPayload);
    expect(pages.length).toBeGreaterThan(20);
    pages.forEach((page, i) => expect(page).toContain(`Página ${i + 1} de ${pages.length}`));
    const all = pages.join(' ');
    expect(all).toContain('Praça 1 ');
    expect(all).toContain('Praça 1234 ');
    expect(pages[pages.length - 1]).toContain('Total do período');
    const rowsDrawn = all.match(/Passagem por: Praça \d+ /g) ?? [];
    expect(rowsDrawn).toHaveLength(EXPORT_CHUNK_ROWS * 2 + 234);
  });

  it('o CSV transmitido vem comprimido (br ou gzip) para quem aceita, o mesmo arquivo depois de descomprimido; o PDF não', async () => {
    const plain = await download(busy, 'formato=csv');
    for (const [accept, encoding, inflate] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await app().inject({
        method: 'GET',
        url: '/api/extrato/exportar?formato=csv',
        headers: { ...bearer(busy.token), 'accept-encoding': accept },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(inflate(res.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
    const pdf = await app().inject({
      method: 'GET',
      url: '/api/extrato/exportar?formato=pdf',
      headers: { ...bearer(busy.token), 'accept-encoding': 'br' },
    });
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('um período sem movimentações dá um arquivo com o aviso, não um erro', async () => {
    const csv = await download(driver, 'formato=csv&periodo=intervalo&de=2025-01-01&ate=2025-01-31');
    expect(parseCsv(csv.rawPayload.subarray(3).toString('utf8'))).toHaveLength(1);
    const pdf = await download(driver, 'formato=pdf&periodo=intervalo&de=2025-01-01&ate=2025-01-31');
    const text = (await pdfText(pdf.rawPayload)).pages.join(' ');
    expect(text).toContain(serverMessages.statement.exportEmpty);
    expect(text).toContain('Saldo inicial: R$ 0,00');
  });

  it('o token de um motorista nunca devolve as linhas de outro', async () => {
    const mine = await download(other, 'formato=csv');
    const text = mine.rawPayload.toString('utf8');
    expect(text).toContain('Praça Só Da Outra');
    expect(text).not.toContain('Praça Outubro');
    expect(parseCsv(text.slice(1))).toHaveLength(3);
    const pdf = (await pdfText((await download(other, 'formato=pdf')).rawPayload)).pages.join(' ');
    expect(pdf).toContain('Outra Motorista');
    expect(pdf).not.toContain('João');
    expect(pdf).not.toContain('Praça Outubro');
    // No parameter names another driver.
    const sneaky = await download(other, `formato=csv&driver_id=${driver.id}&userId=${driver.id}`);
    expect(sneaky.rawPayload.toString('utf8')).not.toContain('Praça Outubro');
  });

  it('sem token -> 401; filtros ou formato inválidos -> 422 com a mensagem do campo', async () => {
    expect((await download(null, 'formato=csv')).statusCode).toBe(401);
    for (const [query, field, message] of [
      ['formato=xls', 'formato', messages.statement.formatInvalid],
      ['formato=csv&periodo=ontem', 'periodo', messages.statement.periodInvalid],
      ['formato=pdf&tipo=x', 'tipo', messages.statement.kindInvalid],
      ['formato=csv&periodo=intervalo&de=2026-11-10&ate=2026-11-01', 'ate', messages.statement.toBeforeFrom],
    ] as const) {
      const res = await download(driver, query);
      expect(res.statusCode, query).toBe(422);
      expect(json<{ errors: Record<string, string[]> }>(res).errors[field]).toContain(message);
    }
  });

  it('o PDF também: um cliente que desiste para a leitura das linhas', async () => {
    const db = ctx().db.kysely;
    const plan = await exportPlan(db, busy.id, { periodo: 'tudo' }, new Date());
    const rows = exportRows(readsOn(db), busy.id, plan);
    const summary = await exportSummary(db, busy.id, plan);
    const body = pdfStatement({ driverName: 'Motorista Ocupado', cpfCnpj: busy.cpfCnpj, generatedAt: new Date() }, plan, summary, rows);
    const first: Buffer = await new Promise((resolve) => body.once('data', resolve));
    expect(first.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    body.destroy();
    // The stream returns the generator once its chunk in flight is read (a loaded machine: give it time).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await rows.next()).toEqual({ done: true, value: undefined });
  });

  it('o CSV é lido em partes, e um cliente que desiste para a leitura', async () => {
    const db = ctx().db.kysely;
    const plan = await exportPlan(db, busy.id, { periodo: 'tudo' }, new Date());
    const rows = exportRows(readsOn(db), busy.id, plan);
    const body = csvStream(rows);
    const first: Buffer = await new Promise((resolve) => body.once('data', resolve));
    expect(first.toString('utf8')).toContain('Data;Descrição');
    body.destroy();
    // The stream returns the generator once its chunk in flight is read (a loaded machine: give it time).
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The reading generator was returned: asking for more gives nothing.
    expect(await rows.next()).toEqual({ done: true, value: undefined });
  });
  it('one export per driver at a time: a second one while the first streams is a 429 that changes nothing; others go on', async () => {
    const address = await app().listen({ port: 0, host: '127.0.0.1' });
    const open = (d: Registered, query: string) =>
      new Promise<IncomingMessage>((resolve, reject) => {
        request(`${address}/api/extrato/exportar?${query}`, { headers: bearer(d.token) }, resolve)
          .on('error', reject)
          .end();
      });
    const body = async (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    };
    // The first PDF of 1,235 rows: its answer starts, and the client reads nothing more for now.
    const first = await open(busy, 'formato=pdf');
    expect(first.statusCode).toBe(200);
    first.pause();
    const second = await open(busy, 'formato=csv');
    expect(second.statusCode).toBe(429);
    expect(JSON.parse(await body(second))).toEqual({ Sucesso: false, Mensagem: serverMessages.statement.exportBusy });
    // Another driver is not held up.
    const others = await open(other, 'formato=csv');
    expect(others.statusCode).toBe(200);
    expect(await body(others)).toContain('Praça Só Da Outra');
    // The first client leaves: the driver may export again.
    first.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await open(busy, 'formato=csv');
    expect(again.statusCode).toBe(200);
    expect(await body(again)).toContain('Praça 1234');
  });
});
