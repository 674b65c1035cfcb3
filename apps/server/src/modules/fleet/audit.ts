import { actingRoleLabel, formatDateTime, isActingRole, saoPauloMidnight } from '@portal/domain';
import type { AuditEvent, AuditFilters } from '@portal/contract';
import type { Kysely, Transaction } from 'kysely';
import { nowIso, toIso } from '../../db/connection.js';
import type { AuditEventRow, Database } from '../../db/schema.js';
import { csvText } from '../statement/export-csv.js';
import type { Acting } from './access.js';
import { actorOf } from './access.js';

const AUDIT_PAGE_SIZE = 20;
/** A CSV holds at most this many records: a year of a busy company's actions. */
const AUDIT_EXPORT_MAX = 100_000;

/** What one action recorded: its name in Portuguese and, where it changed something, how it was and how it is. */
export interface AuditEntry {
  action: string;
  outcome: 'ok' | 'negado';
  address: string;
  before?: unknown;
  after?: unknown;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

type Filters = Omit<AuditFilters, 'page'> & { page?: number };

/** A São Paulo day 'AAAA-MM-DD' as its first instant (or the next day's, for an inclusive end). */
function dayStart(day: string, next = false): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return saoPauloMidnight(y, m, d + (next ? 1 : 0)).toISOString();
}

/**
 * Decision 77: every action on a company's account, append-only (the table's triggers refuse an
 * update or a delete), attributable after the person leaves: their name and masked document are
 * written as they were.
 */
export class AuditLog {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records one action, in the caller's transaction when it has one (a member change and its record commit together). */
  async record(
    companyId: number,
    acting: Acting,
    entry: AuditEntry,
    trx: Kysely<Database> | Transaction<Database> = this.db,
  ): Promise<void> {
    const actor = actorOf(acting);
    await trx
      .insertInto('audit_events')
      .values({
        company_id: companyId,
        actor_id: acting.person.id,
        actor_member_id: acting.memberId,
        actor_name: actor.name,
        actor_document: actor.document,
        actor_role: acting.role,
        action: entry.action,
        outcome: entry.outcome,
        address: entry.address,
        before_json: json(entry.before),
        after_json: json(entry.after),
        created_at: nowIso(),
      })
      .execute();
  }

  private filtered(companyId: number, filters: Filters) {
    let q = this.db.selectFrom('audit_events').where('company_id', '=', companyId);
    if (filters.membro !== undefined) q = q.where('actor_member_id', '=', filters.membro);
    if (filters.resultado) q = q.where('outcome', '=', filters.resultado);
    if (filters.desde) q = q.where('created_at', '>=', dayStart(filters.desde));
    if (filters.ate) q = q.where('created_at', '<', dayStart(filters.ate, true));
    return q;
  }

  async list(companyId: number, filters: Filters): Promise<{ rows: AuditEvent[]; totalPages: number }> {
    const page = filters.page ?? 1;
    const [rows, count] = await Promise.all([
      this.filtered(companyId, filters)
        .selectAll()
        .orderBy('id', 'desc')
        .limit(AUDIT_PAGE_SIZE)
        .offset((page - 1) * AUDIT_PAGE_SIZE)
        .execute(),
      this.filtered(companyId, filters)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(eventOf), totalPages: Math.ceil(Number(count.n) / AUDIT_PAGE_SIZE) };
  }

  /** The CSV a Gestor downloads: the same filters, newest first, as Excel opens it in pt-BR (the statement's CSV rules). */
  async csv(companyId: number, filters: Filters): Promise<string> {
    const rows = await this.filtered(companyId, filters).selectAll().orderBy('id', 'desc').limit(AUDIT_EXPORT_MAX).execute();
    const lines = [
      ['Data e hora', 'Quem', 'Documento', 'Papel', 'Ação', 'Resultado', 'Endereço', 'Antes', 'Depois'],
      ...rows
        .map(eventOf)
        .map((e) => [formatDateTime(e.em), e.quem, e.documento, e.papel, e.acao, e.resultado, e.endereco, e.antes ?? '', e.depois ?? '']),
    ];
    return '\uFEFF' + lines.map((fields) => fields.map(csvText).join(';') + '\r\n').join('');
  }
}

function eventOf(row: AuditEventRow): AuditEvent {
  return {
    id: Number(row.id),
    em: toIso(row.created_at),
    quem: row.actor_name,
    documento: row.actor_document,
    papel: isActingRole(row.actor_role) ? actingRoleLabel(row.actor_role) : row.actor_role,
    acao: row.action,
    resultado: row.outcome,
    endereco: row.address,
    antes: row.before_json,
    depois: row.after_json,
  };
}
