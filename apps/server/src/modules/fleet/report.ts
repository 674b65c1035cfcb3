import { costCentreReportColumns as C, formatCpfCnpj, saoPauloMidnight, STATEMENT_ORIGINS } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  createPdf,
  labelValue,
  moneyLine,
  PDF_BODY_BOTTOM,
  PDF_BODY_TOP,
  pdfBuffer,
  pdfSection,
  pdfText,
  writeFooter,
} from '../../pdf/document.js';

const PLATE_BLOCK_HEIGHT = 130;
import { csvMoney, csvText } from '../statement/export-csv.js';

/** One plate's month: what its tolls, fees and free-flow tolls cost, and the VPO money received for its trips. */
export interface PlateMonth {
  plate: string;
  passages: number;
  tollsCents: number;
  tollsByVpoCents: number;
  feesCents: number;
  freeFlowCents: number;
  vpoReceivedCents: number;
}

export interface CostCentreReport {
  company: { name: string; document: string };
  centre: { name: string; code: string };
  month: string;
  plates: PlateMonth[];
}

const spent = (p: PlateMonth) => p.tollsCents + p.feesCents + p.freeFlowCents;

/** The ledger's origins the report adds up, by column (decision 79): what each entry is. */
const O = STATEMENT_ORIGINS;
const TOLLS: readonly string[] = [O.passage, O.vpoPassage, O.passageRefund, O.vpoPassageRefund];
const TOLLS_BY_VPO: readonly string[] = [O.vpoPassage, O.vpoPassageRefund];
const FEES: readonly string[] = [O.tagFee, O.tagFeeWaiver];
const FREE_FLOW: readonly string[] = [O.freeFlowToll, O.freeFlowTollVpo, O.freeFlowRefund, O.freeFlowVpoRefund];
const PASSAGES: readonly string[] = [O.passage, O.vpoPassage];

/**
 * Decision 79: a cost centre's month for the carrier's accountant, by plate: what was posted to
 * the centre in the São Paulo month (each entry keeps the centre its vehicle was in when posted: a
 * truck moved to another centre leaves its past costs where they were). Tolls net of what contests
 * gave back (and of them what the trip's VPO paid), the tags' monthly fees net of those given
 * back, free-flow tolls net of those returned, and the VPO money received. The centre's vehicles
 * of today are listed too, at zero when nothing was posted. Two grouped reads over the centre's
 * entries of the month (ledger_entries_centre_idx), whatever the length of the company's history.
 */
export async function costCentreMonth(
  db: Kysely<Database>,
  companyId: number,
  centreId: number,
  month: string,
): Promise<CostCentreReport | null> {
  const centre = await db
    .selectFrom('cost_centres as c')
    .innerJoin('drivers as d', 'd.id', 'c.company_id')
    .select(['c.name', 'c.code', 'd.name as company', 'd.cpf_cnpj'])
    .where('c.id', '=', centreId)
    .where('c.company_id', '=', companyId)
    .executeTakeFirst();
  if (!centre) return null;
  const [year, mm] = month.split('-').map(Number) as [number, number];
  const from = saoPauloMidnight(year, mm, 1).toISOString();
  const to = saoPauloMidnight(mm === 12 ? year + 1 : year, mm === 12 ? 1 : mm + 1, 1).toISOString();
  const posted = db
    .selectFrom('ledger_entries as e')
    .where('e.driver_id', '=', companyId)
    .where('e.cost_centre_id', '=', centreId)
    .where('e.created_at', '>=', from)
    .where('e.created_at', '<', to);
  const [sums, passages] = await Promise.all([
    posted
      .select((eb) => ['e.vehicle_id', 'e.origin', eb.fn.sum<number | string>('e.amount_cents').as('cents')])
      .groupBy(['e.vehicle_id', 'e.origin'])
      .execute(),
    posted
      .innerJoin('passage_payments as pp', 'pp.entry_id', 'e.id')
      .select((eb) => ['e.vehicle_id', eb.fn.count<number | string>('pp.passage_id').distinct().as('passages')])
      .where('e.origin', 'in', [...PASSAGES])
      .groupBy('e.vehicle_id')
      .execute(),
  ]);
  const postedIds = sums.flatMap((r) => (r.vehicle_id === null ? [] : [r.vehicle_id]));
  const vehicles = await db
    .selectFrom('vehicles')
    .select(['id', 'license_plate'])
    .where('driver_id', '=', companyId)
    .where((eb) =>
      eb.or([
        eb.and([eb('cost_centre_id', '=', centreId), eb('deleted_at', 'is', null)]),
        ...(postedIds.length === 0 ? [] : [eb('id', 'in', postedIds)]),
      ]),
    )
    .orderBy('license_plate')
    .orderBy('id')
    .execute();
  const plates = new Map<number, PlateMonth>();
  for (const v of vehicles) {
    plates.set(v.id, {
      plate: v.license_plate,
      passages: 0,
      tollsCents: 0,
      tollsByVpoCents: 0,
      feesCents: 0,
      freeFlowCents: 0,
      vpoReceivedCents: 0,
    });
  }
  for (const r of sums) {
    const plate = r.vehicle_id === null ? undefined : plates.get(r.vehicle_id);
    if (!plate) continue;
    // Costs are debits: the report shows them as positive spending, net of what came back.
    const cents = Number(r.cents);
    if (TOLLS.includes(r.origin)) plate.tollsCents -= cents;
    if (TOLLS_BY_VPO.includes(r.origin)) plate.tollsByVpoCents -= cents;
    if (FEES.includes(r.origin)) plate.feesCents -= cents;
    if (FREE_FLOW.includes(r.origin)) plate.freeFlowCents -= cents;
    if (r.origin === O.vpoIssued) plate.vpoReceivedCents += cents;
  }
  for (const r of passages) {
    const plate = r.vehicle_id === null ? undefined : plates.get(r.vehicle_id);
    if (plate) plate.passages = Number(r.passages);
  }
  return {
    company: { name: centre.company, document: formatCpfCnpj(centre.cpf_cnpj) },
    centre: { name: centre.name, code: centre.code },
    month,
    plates: [...plates.values()],
  };
}

function totals(report: CostCentreReport): PlateMonth {
  const sum = (pick: (p: PlateMonth) => number) => report.plates.reduce((acc, p) => acc + pick(p), 0);
  return {
    plate: C.total,
    passages: sum((p) => p.passages),
    tollsCents: sum((p) => p.tollsCents),
    tollsByVpoCents: sum((p) => p.tollsByVpoCents),
    feesCents: sum((p) => p.feesCents),
    freeFlowCents: sum((p) => p.freeFlowCents),
    vpoReceivedCents: sum((p) => p.vpoReceivedCents),
  };
}

/** The CSV as Excel opens it in pt-BR (the statement's rules): one line per plate, then the total. */
export function costCentreCsv(report: CostCentreReport): string {
  const reais = (label: string) => `${label} (R$)`;
  const header = [
    'Mês',
    'Centro de custo',
    'Código',
    C.plate,
    C.passages,
    ...[C.tolls, C.tollsByVpo, C.fees, C.freeFlow, C.spent, C.vpoReceived].map(reais),
  ];
  const line = (p: PlateMonth) => [
    report.month,
    report.centre.name,
    report.centre.code,
    p.plate,
    String(p.passages),
    csvMoney(p.tollsCents),
    csvMoney(p.tollsByVpoCents),
    csvMoney(p.feesCents),
    csvMoney(p.freeFlowCents),
    csvMoney(spent(p)),
    csvMoney(p.vpoReceivedCents),
  ];
  const lines = [header, ...report.plates.map(line), line(totals(report))];
  return '\uFEFF' + lines.map((fields) => fields.map(csvText).join(';') + '\r\n').join('');
}

export async function costCentrePdf(report: CostCentreReport): Promise<Buffer> {
  const doc = createPdf({ title: `Relatório do centro de custo ${report.centre.code}` });
  const done = pdfBuffer(doc);
  labelValue(doc, 'Empresa', `${report.company.name} (${report.company.document})`);
  labelValue(doc, 'Centro de custo', `${report.centre.code} · ${report.centre.name}`);
  labelValue(doc, 'Mês', report.month.split('-').reverse().join('/'));
  if (report.plates.length === 0) doc.text(pdfText(C.noVehicles));
  for (const p of [...report.plates, totals(report)]) {
    // A plate's block (a title and seven lines) is never cut by a page.
    if (doc.y + PLATE_BLOCK_HEIGHT > PDF_BODY_BOTTOM) {
      doc.addPage();
      doc.y = PDF_BODY_TOP;
    }
    pdfSection(doc, p.plate === C.total ? C.total : `${C.plate} ${p.plate}`);
    labelValue(doc, C.passages, String(p.passages));
    moneyLine(doc, C.tolls, p.tollsCents);
    moneyLine(doc, C.tollsByVpo, p.tollsByVpoCents);
    moneyLine(doc, C.fees, p.feesCents);
    moneyLine(doc, C.freeFlow, p.freeFlowCents);
    moneyLine(doc, C.spent, spent(p));
    moneyLine(doc, C.vpoReceived, p.vpoReceivedCents);
  }
  writeFooter(doc, `${report.company.name} · ${report.centre.code} · ${report.month}`);
  doc.end();
  return done;
}
