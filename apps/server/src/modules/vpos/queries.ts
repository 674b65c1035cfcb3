import type { PassageContestInfo, Vpo, VpoDetails, VpoPassage } from '@portal/contract';
import { centsToReais, STATEMENT_ORIGINS } from '@portal/domain';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { passageInfoByEntry } from '../contests/queries.js';

/** Which VPO: the driver's own (by id), or the shipper's own (by its externalId). */
export type VpoOwner = { driverId: number; id: number } | { partnerId: number; externalId: string };

function vposWithShipper(db: Kysely<Database>) {
  return db
    .selectFrom('vpos')
    .innerJoin('partners', 'partners.id', 'vpos.partner_id')
    .select([
      'vpos.id',
      'vpos.external_id',
      'vpos.serial_number',
      'vpos.plate',
      'vpos.shipper_document',
      'vpos.value_cents',
      'vpos.created_at',
      'vpos.status',
      'vpos.origin',
      'vpos.destination',
      'vpos.trip_start',
      'vpos.trip_end',
      'vpos.antt_id',
      'vpos.rntrc',
      'vpos.axles',
      'vpos.used_cents',
      'vpos.left_cents',
      'vpos.refunded_cents',
      'vpos.short_cents',
      'partners.name as shipper_name',
    ]);
}

type VpoRow = Awaited<ReturnType<ReturnType<typeof vposWithShipper>['executeTakeFirstOrThrow']>>;

const isoOrNull = (value: Date | string | null) => (value === null ? null : toIso(value));

/** A VPO as the driver's list and the shipper's GET show it (contract `vpo`). */
function vpoView(r: VpoRow): Vpo {
  return {
    IdTransacao: String(r.id),
    serialNumber: r.serial_number,
    PlacaVeiculo: r.plate,
    CpfCnpjEmbarcador: r.shipper_document,
    ValorTotalVP: centsToReais(r.value_cents),
    created_at: toIso(r.created_at),
    Status: r.status,
    Embarcador: r.shipper_name,
    origem: r.origin,
    destino: r.destination,
    inicioViagem: isoOrNull(r.trip_start),
    fimViagem: isoOrNull(r.trip_end),
    idVpoAntt: r.antt_id,
    rntrc: r.rntrc,
    eixos: r.axles,
    Utilizado: centsToReais(Number(r.used_cents)),
    Restante: centsToReais(Number(r.left_cents)),
    Devolvido: centsToReais(Number(r.refunded_cents)),
    PagoPeloSaldo: centsToReais(Number(r.short_cents)),
  };
}

/** The VPOs of these ids, in that order (the list's page). */
export async function vposByIds(db: Kysely<Database>, ids: number[]): Promise<Vpo[]> {
  if (ids.length === 0) return [];
  const rows = await vposWithShipper(db).where('vpos.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [vpoView(row)] : [];
  });
}

/**
 * One VPO with every payment of its trip's passages, oldest first: what the VPO paid, and what
 * Saldo paid when it ran short (decision 52). Null when it is not the owner's.
 */
export async function vpoDetails(db: Kysely<Database>, owner: VpoOwner, now: Date): Promise<VpoDetails | null> {
  let query = vposWithShipper(db);
  query =
    'driverId' in owner
      ? query.where('vpos.driver_id', '=', owner.driverId).where('vpos.id', '=', owner.id)
      : query.where('vpos.partner_id', '=', owner.partnerId).where('vpos.external_id', '=', owner.externalId).where(notOfClosedAccount);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  const entries = await db
    .selectFrom('ledger_entries')
    .select(['id', 'place_name', 'created_at', 'amount_cents', 'origin'])
    .where('vpo_id', '=', row.id)
    .where('origin', 'in', [STATEMENT_ORIGINS.vpoPassage, STATEMENT_ORIGINS.passage])
    // Decision 90: a VPO pays (or runs short for) passages inside its trip alone (vpo-shares.ts), dated
    // when they occurred: the trip's months are the only ones read.
    .$if(row.trip_start !== null && row.trip_end !== null, (q) =>
      q.where('created_at', '>=', toIso(row.trip_start ?? '')).where('created_at', '<=', toIso(row.trip_end ?? '')),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  // Decision 56: the driver contests a passage from here; the shipper reads no contest.
  const contestInfo = 'driverId' in owner ? await passageInfoByEntry(db, entries, now) : new Map<number, PassageContestInfo>();
  const passages: VpoPassage[] = entries.map((e) => ({
    placeName: e.place_name,
    occurredAt: toIso(e.created_at),
    value: centsToReais(-Number(e.amount_cents)),
    pagoPor: e.origin === STATEMENT_ORIGINS.vpoPassage ? 'VPO' : 'SALDO',
    passagem: contestInfo.get(e.id) ?? null,
  }));
  return { ...vpoView(row), externalId: row.external_id, Passagens: passages };
}

/**
 * Decision 70: a closed account's VPOs answer a shipper as an externalId it never sent does (the
 * records stay for the law, not for partners).
 */
export function notOfClosedAccount(eb: ExpressionBuilder<Database, 'vpos'>) {
  return eb.not(
    eb.exists(
      eb.selectFrom('closed_accounts').select('closed_accounts.driver_id').whereRef('closed_accounts.driver_id', '=', 'vpos.driver_id'),
    ),
  );
}
