import { costCentreReportColumns as C, formatCpfCnpj, saoPauloMidnight } from '@portal/domain';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
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

/**
 * Decision 77: a cost centre's month for the carrier's accountant, by plate (the centre's vehicles
 * now): tolls net of what contests gave back (and of them what the trip's VPO paid), the tags'
 * monthly fees charged for the month, free-flow tolls paid in it, and the VPO money received. Five
 * grouped reads over the centre's vehicles, whatever the length of the company's history.
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
  const vehicles = await db
    .selectFrom('vehicles')
    .select(['id', 'license_plate'])
    .where('driver_id', '=', companyId)
    .where('cost_centre_id', '=', centreId)
    .where('deleted_at', 'is', null)
    .orderBy('license_plate')
    .execute();
  const [year, mm] = month.split('-').map(Number) as [number, number];
  const from = saoPauloMidnight(year, mm, 1).toISOString();
  const to = saoPauloMidnight(mm === 12 ? year + 1 : year, mm === 12 ? 1 : mm + 1, 1).toISOString();
  const ids = vehicles.map((v) => v.id);
  const report: CostCentreReport = {
    company: { name: centre.company, document: formatCpfCnpj(centre.cpf_cnpj) },
    centre: { name: centre.name, code: centre.code },
    month,
    plates: vehicles.map((v) => ({
      plate: v.license_plate,
      passages: 0,
      tollsCents: 0,
      tollsByVpoCents: 0,
      feesCents: 0,
      freeFlowCents: 0,
      vpoReceivedCents: 0,
    })),
  };
  if (ids.length === 0) return report;
  const inIds = sql.join(ids);
  const byVehicle = new Map(vehicles.map((v, i) => [v.id, report.plates[i]]));
  const byPlate = new Map(vehicles.map((v, i) => [v.license_plate, report.plates[i]]));
  const rows = async <R>(query: ReturnType<typeof sql<R>>) => (await query.execute(db)).rows;

  for (const r of await rows<{ vehicle: number; passages: number | string; net: number | string; vpo: number | string }>(sql`
    select t.vehicle_id as vehicle, count(distinct p.id) as passages,
      coalesce(sum(pp.paid_cents - pp.refunded_cents), 0) as net,
      coalesce(sum(case when pp.account = 'vpo' then pp.paid_cents - pp.refunded_cents else 0 end), 0) as vpo
    from passages p join tags t on t.id = p.tag_id left join passage_payments pp on pp.passage_id = p.id
    where p.driver_id = ${companyId} and t.vehicle_id in (${inIds}) and p.occurred_at >= ${from} and p.occurred_at < ${to}
    group by t.vehicle_id`)) {
    const plate = byVehicle.get(Number(r.vehicle));
    if (!plate) continue;
    plate.passages = Number(r.passages);
    plate.tollsCents = Number(r.net);
    plate.tollsByVpoCents = Number(r.vpo);
  }
  for (const r of await rows<{ vehicle: number; cents: number | string }>(sql`
    select t.vehicle_id as vehicle, coalesce(sum(f.amount_cents), 0) as cents
    from tag_fee_charges f join tags t on t.id = f.tag_id
    where t.vehicle_id in (${inIds}) and f.period = ${month} and f.status = 'paid' and f.waived_at is null
    group by t.vehicle_id`)) {
    const plate = byVehicle.get(Number(r.vehicle));
    if (plate) plate.feesCents = Number(r.cents);
  }
  for (const r of await rows<{ vehicle: number; cents: number | string }>(sql`
    select vehicle_id as vehicle, coalesce(sum(paid_cents), 0) as cents from free_flow_tolls
    where vehicle_id in (${inIds}) and paid_at >= ${from} and paid_at < ${to} and cancelled_at is null
    group by vehicle_id`)) {
    const plate = byVehicle.get(Number(r.vehicle));
    if (plate) plate.freeFlowCents = Number(r.cents);
  }
  for (const r of await rows<{ plate: string; cents: number | string }>(sql`
    select plate, coalesce(sum(value_cents), 0) as cents from vpos
    where driver_id = ${companyId} and plate in (${sql.join(vehicles.map((v) => v.license_plate))}) and created_at >= ${from} and created_at < ${to}
    group by plate`)) {
    const plate = byPlate.get(r.plate);
    if (plate) plate.vpoReceivedCents = Number(r.cents);
  }
  return report;
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
