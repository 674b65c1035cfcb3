import type { DriverContest } from '@portal/contract';
import {
  contestReasonLabels,
  contestStateLabels,
  formatDateTime,
  formatSerial,
  messages,
  reaisToCents,
  refundDestinationLabel,
} from '@portal/domain';
import { createPdf, labelValue, pdfBuffer, pdfMoney, pdfSection, pdfText, writeFooter } from '../../pdf/document.js';

/**
 * The record of a contest the driver keeps or hands to the operator's ombudsman or to ANTT
 * (decision 56): the passage, the reason, the dates and the answer with where its refund went, drawn
 * from the same contest the driver's JSON calls answer.
 */
export async function contestRecordPdf(contest: DriverContest, now: Date = new Date()): Promise<Buffer> {
  const doc = createPdf({ title: `Contestação ${contest.id}` });
  const done = pdfBuffer(doc);
  const state = contest.atrasada ? `${contestStateLabels[contest.estado]} (resposta atrasada)` : contestStateLabels[contest.estado];

  labelValue(doc, 'Contestação', String(contest.id));
  labelValue(doc, 'Estado', state);
  labelValue(doc, 'Aberta em', formatDateTime(contest.abertaEm));
  labelValue(doc, 'Prazo da resposta', formatDateTime(contest.prazoResposta));

  pdfSection(doc, contest.passagem.pedagioSemCancela ? 'Pedágio sem cancela' : 'Passagem');
  labelValue(doc, contest.passagem.pedagioSemCancela ? 'Pórtico' : 'Praça', contest.passagem.praca);
  labelValue(doc, 'Data', formatDateTime(contest.passagem.dataPassagem));
  labelValue(doc, 'Valor', pdfMoney(reaisToCents(contest.passagem.valor)));
  if (contest.passagem.serialNumber !== null) labelValue(doc, 'Tag', formatSerial(contest.passagem.serialNumber));
  labelValue(doc, 'Placa', contest.passagem.placa ?? '—');
  labelValue(doc, contest.passagem.pedagioSemCancela ? 'Id da concessionária' : 'Id da operadora', contest.passagem.externalId);
  if (contest.passagem.possivelDuplicada) labelValue(doc, 'Aviso', 'Possível cobrança duplicada');

  pdfSection(doc, 'Motivo');
  labelValue(doc, 'Motivo', contestReasonLabels[contest.motivo]);
  if (contest.descricao) doc.text(pdfText(contest.descricao));

  pdfSection(doc, 'Resposta da operadora');
  if (contest.respondidaEm === null) {
    doc.text(pdfText(contest.atrasada ? 'A operadora não respondeu no prazo.' : 'Aguardando a resposta da operadora.'));
  } else {
    labelValue(doc, 'Respondida em', formatDateTime(contest.respondidaEm));
    labelValue(doc, 'Decisão', contestStateLabels[contest.estado]);
    if (contest.valorDevolvido !== null) labelValue(doc, 'Valor devolvido', pdfMoney(reaisToCents(contest.valorDevolvido)));
    // Issue 33: where the money went, each part with its value.
    for (const part of contest.devolucoes)
      labelValue(doc, refundDestinationLabel(part.destino, part.embarcador), pdfMoney(reaisToCents(part.valor)));
    doc.text(pdfText(contest.resposta ?? ''));
  }

  writeFooter(doc, messages.pdf.generatedAt(formatDateTime(now)), 'left');
  doc.end();
  return done;
}
