import { contestAnswerRequest, partnerContestsQuery } from '@portal/contract';
import type { Contest } from '@portal/contract';
import {
  centsToReais,
  contestReasonLabels,
  contestStateLabels,
  formatBrl,
  formatDateTime,
  formatSerial,
  reaisToCents,
  Refusal,
} from '@portal/domain';
import type { Db } from '../db/connection.js';
import { ContestService } from '../modules/contests/service.js';
import type { ContestPage } from '../modules/contests/service.js';
import { CliFailure } from './pix.js';
import { money, parse, parseFlags, partnerOf } from './partners.js';

function line(c: Contest): string {
  const state = c.atrasada
    ? `${contestStateLabels[c.estado]} · ATRASADA (prazo ${formatDateTime(c.prazoResposta)})`
    : contestStateLabels[c.estado];
  const refund = c.valorDevolvido === null ? '' : ` · devolvido ${formatBrl(reaisToCents(c.valorDevolvido))}`;
  return [
    `#${c.id} · ${state}${refund} · aberta em ${formatDateTime(c.abertaEm)}`,
    `    passagem ${c.passagem.externalId}: ${c.passagem.praca}, ${formatBrl(reaisToCents(c.passagem.valor))} em ${formatDateTime(c.passagem.dataPassagem)} · ${c.passagem.serialNumber === null ? 'pedágio sem cancela' : `tag ${formatSerial(c.passagem.serialNumber)}`} · placa ${c.passagem.placa ?? '—'}${c.passagem.possivelDuplicada ? ' · possível cobrança duplicada' : ''}`,
    `    motivo: ${contestReasonLabels[c.motivo]}${c.descricao ? ` — ${c.descricao}` : ''}`,
    ...(c.resposta ? [`    resposta: ${c.resposta}`] : []),
  ].join('\n');
}

function listed(page: ContestPage, what: string, pageNumber: number): string {
  if (page.contests.length === 0) return `Nenhuma contestação ${what}.`;
  return [`Contestações ${what} (página ${pageNumber} de ${page.totalPages}):`, ...page.contests.map(line)].join('\n');
}

/**
 * Decision 56, for the portal's operator and for tag operators without an integration: every
 * contest (or one operator's, --partner), by state; --atrasadas lists the open ones past their due
 * date, oldest first, the ones somebody must chase.
 */
export async function listContests(db: Db, args: string[]): Promise<string> {
  const { flags } = parseFlags(args);
  const service = new ContestService(db);
  if (flags.atrasadas === 'true') {
    const overdue = await service.overdue();
    return overdue.length === 0
      ? 'Nenhuma contestação atrasada.'
      : [`Contestações atrasadas (${overdue.length}):`, ...overdue.map(line)].join('\n');
  }
  const query = parse(partnerContestsQuery, { page: flags.pagina ?? '1', estado: flags.estado, desde: flags.desde, ate: flags.ate });
  try {
    if (flags.partner !== undefined) {
      const partner = await partnerOf(db, flags, 'operator');
      if (partner.operatorCnpj === null)
        throw new CliFailure(`O parceiro ${partner.id} não está vinculado a uma operadora (partner:scope).`);
      return listed(await service.forOperator(partner.operatorCnpj, query), `de ${partner.name}`, query.page);
    }
    return listed(await service.all(query.estado, query.page), 'do portal', query.page);
  } catch (error) {
    if (error instanceof Refusal) throw new CliFailure(error.message);
    throw error;
  }
}

/**
 * ACEITA without --valor gives back what the passage charged, the whole of it (issue 33); the API still
 * asks a partner for the value. Undefined when the contest is not this operator's (the answer says so).
 */
async function paidFor(db: Db, id: number, operatorCnpj: string): Promise<number | undefined> {
  const row = await db.kysely
    .selectFrom('contests')
    .innerJoin('passages', 'passages.id', 'contests.passage_id')
    .select('passages.amount_cents')
    .where('contests.id', '=', id)
    .where('contests.operator_cnpj', '=', operatorCnpj)
    .executeTakeFirst();
  return row === undefined ? undefined : centsToReais(Number(row.amount_cents));
}

/** The same answer as POST /api/parceiro/contestacoes/:id/resposta, on behalf of the operator (--partner). */
export async function answerContest(db: Db, args: string[]): Promise<string> {
  const { flags } = parseFlags(args);
  const partner = await partnerOf(db, flags, 'operator');
  if (partner.operatorCnpj === null) throw new CliFailure(`O parceiro ${partner.id} não está vinculado a uma operadora (partner:scope).`);
  const id = Number(flags.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new CliFailure('Informe --id <número da contestação> (veja contest:list).');
  const valor = flags.valor === undefined && flags.decisao === 'ACEITA' ? await paidFor(db, id, partner.operatorCnpj) : money(flags.valor);
  const body = parse(contestAnswerRequest, { decisao: flags.decisao, valor, motivo: flags.motivo });
  try {
    const { contest, replayed } = await new ContestService(db).answer(
      { kind: 'operator', partnerId: partner.id, operatorCnpj: partner.operatorCnpj },
      id,
      body,
    );
    return `${replayed ? 'Esta resposta já estava registrada; nada foi alterado.' : 'Resposta registrada.'}\n${line(contest)}`;
  } catch (error) {
    if (error instanceof Refusal) throw new CliFailure(error.message);
    throw error;
  }
}
