import type { VpoDetails } from '@portal/contract';
import { formatCpfCnpj, formatDateTime, formatSerial, messages, reaisToCents, vpoRoute, vpoStatusLabel } from '@portal/domain';
import type { PdfDoc } from '../../pdf/document.js';
import {
  createPdf,
  fitText,
  labelValue,
  pdfBuffer,
  pdfSection,
  PDF_BODY_BOTTOM,
  PDF_BODY_TOP,
  PDF_CONTENT_WIDTH,
  PDF_LAYOUT,
  pdfMoney,
  pdfText,
  writeFooter,
} from '../../pdf/document.js';

const F = messages.vpo.fields;

/** One passage payment per line: date, place, value and who paid it. */
function passages(doc: PdfDoc, vpo: VpoDetails): void {
  pdfSection(doc, messages.vpo.passagesTitle);
  if (vpo.Passagens.length === 0) {
    doc.text(pdfText(messages.vpo.passagesEmpty));
    return;
  }
  const { margin } = PDF_LAYOUT;
  const columns = [
    { width: 110, text: (p: VpoDetails['Passagens'][number]) => formatDateTime(p.occurredAt) },
    { width: PDF_CONTENT_WIDTH - 110 - 80 - 150, text: (p: VpoDetails['Passagens'][number]) => p.placeName },
    { width: 80, text: (p: VpoDetails['Passagens'][number]) => pdfMoney(reaisToCents(p.value)) },
    {
      width: 150,
      text: (p: VpoDetails['Passagens'][number]) => (p.pagoPor === 'VPO' ? messages.vpo.paidByVpo : messages.vpo.paidBySaldo),
    },
  ];
  for (const passage of vpo.Passagens) {
    if (doc.y + 16 > PDF_BODY_BOTTOM) {
      doc.addPage();
      doc.y = PDF_BODY_TOP;
    }
    const top = doc.y;
    let x = margin;
    for (const column of columns) {
      doc.text(fitText(doc, pdfText(column.text(passage)), column.width - 6), x, top, { width: column.width - 6, lineBreak: false });
      x += column.width;
    }
    doc.x = margin;
    doc.y = top + 16;
  }
}

/**
 * The record of a VPO the driver hands to the shipper or to ANTT (decision 52): its ids, the
 * shipper, the trip, the money (value, used, left, refunded, what Saldo paid) and every passage
 * with who paid it. Drawn from the same VpoDetails the JSON call answers.
 */
export async function vpoRecordPdf(vpo: VpoDetails, now: Date = new Date()): Promise<Buffer> {
  const doc = createPdf({ title: `${messages.vpo.detailsTitle} ${vpo.IdTransacao}` });
  const done = pdfBuffer(doc);
  const money = (reais: number) => pdfMoney(reaisToCents(reais));

  labelValue(doc, 'IdTransacao', vpo.IdTransacao);
  labelValue(doc, 'externalId', vpo.externalId);
  labelValue(doc, F.anttId, vpo.idVpoAntt ?? '—');
  labelValue(doc, F.status, vpoStatusLabel(vpo.Status));
  labelValue(doc, F.date, formatDateTime(vpo.created_at));

  pdfSection(doc, F.shipper);
  labelValue(doc, F.shipperName, vpo.Embarcador);
  labelValue(doc, F.shipper, formatCpfCnpj(vpo.CpfCnpjEmbarcador));

  pdfSection(doc, F.route);
  labelValue(doc, F.route, vpoRoute(vpo.origem, vpo.destino));
  if (vpo.inicioViagem && vpo.fimViagem) labelValue(doc, F.trip, `${formatDateTime(vpo.inicioViagem)} a ${formatDateTime(vpo.fimViagem)}`);
  labelValue(doc, F.serialNumber, formatSerial(vpo.serialNumber));
  labelValue(doc, F.plate, vpo.PlacaVeiculo);
  labelValue(doc, F.rntrc, vpo.rntrc ?? '—');
  labelValue(doc, F.axles, vpo.eixos === null ? '—' : messages.vpo.axlesValue.replace('{n}', String(vpo.eixos)));

  pdfSection(doc, F.value);
  labelValue(doc, F.value, money(vpo.ValorTotalVP));
  labelValue(doc, F.used, money(vpo.Utilizado));
  labelValue(doc, F.left, money(vpo.Restante));
  labelValue(doc, F.refunded, money(vpo.Devolvido));
  labelValue(doc, F.fromSaldo, money(vpo.PagoPeloSaldo));

  passages(doc, vpo);

  writeFooter(doc, messages.pdf.generatedAt(formatDateTime(now)), 'left');
  doc.end();
  return done;
}
