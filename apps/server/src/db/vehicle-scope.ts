import { contestMessages, freeFlowMessages, refuse, serverMessages } from '@portal/domain';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { RawBuilder, SqlBool } from 'kysely';
import type { Database } from './schema.js';

/**
 * The vehicles a call may see (decision 77): null, every vehicle of the account; otherwise only these
 * ids (a Motorista's assigned vehicles, perhaps none).
 */
export type VehicleScope = readonly number[] | null;

/** A where-condition keeping the rows whose vehicle column is in the scope: `.where(withinScope(scope, 'tags.vehicle_id'))`. */
export function withinScope(scope: VehicleScope, column: string | RawBuilder<unknown>): RawBuilder<SqlBool> {
  if (scope === null) return sql<SqlBool>`1 = 1`;
  if (scope.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${typeof column === 'string' ? sql.ref(column) : column} in (${sql.join(scope)})`;
}

/** What a call names by id that hangs from a vehicle. */
export type VehicleResource = 'vpo' | 'passage' | 'contest' | 'toll';

const NOT_FOUND: Record<VehicleResource, string> = {
  vpo: serverMessages.vpo.notFound,
  passage: contestMessages.passageNotFound,
  contest: contestMessages.contestNotFound,
  toll: freeFlowMessages.notFound,
};

/**
 * Decision 77: a Motorista names a VPO, a passage, a contest or a free-flow toll of the company's by its id; it is
 * theirs to see only when it hangs from a vehicle assigned to them. Outside the scope the answer is
 * the resource's own 404, the same as for an id that does not exist: nothing says it is there.
 */
export class VehicleGuard {
  constructor(private readonly db: Kysely<Database>) {}

  async require(kind: VehicleResource, id: number, accountId: number, scope: VehicleScope): Promise<void> {
    if (scope === null) return;
    const vehicle = await this.vehicleOf(kind, id, accountId);
    if (vehicle === null || !scope.includes(vehicle)) throw refuse.notFound(NOT_FOUND[kind]);
  }

  private async vehicleOf(kind: VehicleResource, id: number, accountId: number): Promise<number | null> {
    const query =
      kind === 'vpo'
        ? sql<{
            vehicle: number;
          }>`select v.id as vehicle from vpos o join vehicles v on v.driver_id = o.driver_id and v.license_plate = o.plate and v.deleted_at is null
            where o.id = ${id} and o.driver_id = ${accountId}`
        : kind === 'toll'
          ? sql<{
              vehicle: number;
            }>`select f.vehicle_id as vehicle from free_flow_tolls f where f.id = ${id} and f.driver_id = ${accountId}`
          : kind === 'passage'
            ? sql<{
                vehicle: number;
              }>`select t.vehicle_id as vehicle from passages p join tags t on t.id = p.tag_id where p.id = ${id} and p.driver_id = ${accountId}`
            : sql<{ vehicle: number }>`select coalesce(t.vehicle_id, f.vehicle_id) as vehicle from contests c
            left join passages p on p.id = c.passage_id left join tags t on t.id = p.tag_id left join free_flow_tolls f on f.id = c.toll_id
            where c.id = ${id} and c.driver_id = ${accountId}`;
    const { rows } = await query.execute(this.db);
    const vehicle = rows[0]?.vehicle;
    return vehicle === undefined || vehicle === null ? null : Number(vehicle);
  }
}
