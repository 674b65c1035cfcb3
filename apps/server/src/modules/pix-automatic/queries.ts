import type { PixAutomaticAuthorization, PixAutomaticCycle } from '@portal/contract';
import type { PixAutomaticCycleState, PixAutomaticState } from '@portal/domain';
import { centsToReais, pixAutomaticMessages } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Dialect, Trx } from '../../db/connection.js';
import { toIso } from '../../db/connection.js';
import { forUpdate } from '../../db/lock.js';
import type { Database, PixAutomaticCycleRow, PixAutomaticCycleStatus, PixAutomaticRow, PixAutomaticStatus } from '../../db/schema.js';

/** The states in which an authorization still counts as the driver's one (decision 58). */
export const LIVE_STATUSES: readonly PixAutomaticStatus[] = ['CREATED', 'ACTIVE'];

export const isLive = (status: PixAutomaticStatus): boolean => LIVE_STATUSES.includes(status);

/** The driver's authorization waiting or active, if any (at most one: pix_automatic_one_live_idx). */
export async function liveAuthorization(db: Kysely<Database>, driverId: number): Promise<PixAutomaticRow | null> {
  return (
    (await db
      .selectFrom('pix_automatic_authorizations')
      .selectAll()
      .where('driver_id', '=', driverId)
      .where('status', 'in', [...LIVE_STATUSES])
      .executeTakeFirst()) ?? null
  );
}

/** The driver's newest authorization, whatever its state. */
export async function newestAuthorization(db: Kysely<Database>, driverId: number): Promise<PixAutomaticRow | null> {
  return (
    (await db
      .selectFrom('pix_automatic_authorizations')
      .selectAll()
      .where('driver_id', '=', driverId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

export async function authorizationById(db: Kysely<Database>, id: string): Promise<PixAutomaticRow | null> {
  return (await db.selectFrom('pix_automatic_authorizations').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The authorization row locked until the transaction ends (PostgreSQL; SQLite writes one at a time). */
export async function lockAuthorization(trx: Trx, dialect: Dialect, id: string): Promise<PixAutomaticRow | null> {
  const row = await trx
    .selectFrom('pix_automatic_authorizations')
    .selectAll()
    .where('id', '=', id)
    .$call(forUpdate<Database, 'pix_automatic_authorizations', PixAutomaticRow>(dialect))
    .executeTakeFirst();
  return row ?? null;
}

/** The cycle a Pix charge pays, when it is one (decision 58); its authorization with it. */
export async function cycleOfCharge(
  db: Kysely<Database>,
  chargeId: string,
): Promise<(PixAutomaticCycleRow & { provider_authorization_id: string; conciliation_id: string | null }) | null> {
  const row = await db
    .selectFrom('pix_automatic_cycles')
    .innerJoin('pix_automatic_authorizations', 'pix_automatic_authorizations.id', 'pix_automatic_cycles.authorization_id')
    .selectAll('pix_automatic_cycles')
    .select(['pix_automatic_authorizations.provider_authorization_id', 'pix_automatic_authorizations.conciliation_id'])
    .where('pix_automatic_cycles.charge_id', '=', chargeId)
    .executeTakeFirst();
  return row ?? null;
}

/** The provider's words -> the driver's. */
const STATE: Record<PixAutomaticStatus, PixAutomaticState> = {
  CREATED: 'AGUARDANDO',
  ACTIVE: 'ATIVA',
  REFUSED: 'RECUSADA',
  CANCELLED: 'CANCELADA',
  EXPIRED: 'EXPIRADA',
};

const CYCLE_STATE: Record<PixAutomaticCycleStatus, PixAutomaticCycleState> = {
  SCHEDULED: 'AGENDADA',
  PAID: 'PAGA',
  REFUSED: 'RECUSADA',
  CANCELLED: 'CANCELADA',
};

/** The cycles the screen lists (the newest first). */
const CYCLES_SHOWN = 6;

async function cyclesOf(db: Kysely<Database>, authorizationId: string): Promise<PixAutomaticCycle[]> {
  const rows = await db
    .selectFrom('pix_automatic_cycles')
    .innerJoin('pix_charges', 'pix_charges.id', 'pix_automatic_cycles.charge_id')
    .select([
      'pix_automatic_cycles.charge_id',
      'pix_automatic_cycles.number',
      'pix_automatic_cycles.due_date',
      'pix_automatic_cycles.status',
      'pix_automatic_cycles.failure_reason',
      'pix_charges.amount_cents',
    ])
    .where('pix_automatic_cycles.authorization_id', '=', authorizationId)
    .orderBy('pix_automatic_cycles.number', 'desc')
    .limit(CYCLES_SHOWN)
    .execute();
  return rows.map((r) => ({
    id: r.charge_id,
    numero: r.number,
    valor: centsToReais(Number(r.amount_cents)),
    dataDebito: r.due_date,
    estado: CYCLE_STATE[r.status],
    motivo: r.failure_reason,
  }));
}

/**
 * The authorization as the driver reads it: the QR Code while it waits, the next debit while active
 * (the scheduled cycle's own day and value once its instruction reached the bank).
 */
export async function authorizationView(db: Kysely<Database>, row: PixAutomaticRow): Promise<PixAutomaticAuthorization> {
  const ciclos = await cyclesOf(db, row.id);
  const scheduled = ciclos.find((c) => c.estado === 'AGENDADA');
  const active = row.status === 'ACTIVE';
  const next = scheduled
    ? { data: scheduled.dataDebito, valor: scheduled.valor, agendado: true }
    : row.next_due_date
      ? { data: row.next_due_date, valor: centsToReais(Number(row.amount_cents)), agendado: false }
      : null;
  return {
    id: row.id,
    estado: STATE[row.status],
    frequencia: row.frequency,
    valor: centsToReais(Number(row.amount_cents)),
    qrCode: row.status === 'CREATED' ? { payload: row.payload, expiraEm: toIso(row.qr_expires_at) } : null,
    proximoDebito: active ? next : null,
    criadaEm: toIso(row.created_at),
    ativadaEm: row.activated_at === null ? null : toIso(row.activated_at),
    encerradaEm: row.ended_at === null ? null : toIso(row.ended_at),
    motivoEncerramento: row.end_reason === null ? null : pixAutomaticMessages.endReasons[row.end_reason],
    ciclos,
  };
}
