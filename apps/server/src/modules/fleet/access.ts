import { documentKind, maskCpfCnpj, seesEveryVehicle } from '@portal/domain';
import type { ActingRole } from '@portal/domain';
import type { Kysely } from 'kysely';
import { compileOnce } from '../../db/compiled-query.js';
import type { Database } from '../../db/schema.js';

/** The signed-in person behind a call, as the audit trail names them. */
export interface Person {
  id: number;
  name: string;
  cpfCnpj: string;
}

/**
 * Who acts on the account of a call (decision 77): the signed-in person, in a role. On their own
 * account they are its holder ('titular'); on a company's, a member.
 */
export interface Acting {
  person: Person;
  role: ActingRole;
  /** The membership the person acts through; null on their own account. */
  memberId: number | null;
  /** The account is a company's (CNPJ): its actions are recorded in the audit trail. */
  company: boolean;
  /** null: every vehicle of the account; otherwise only these (a Motorista's assigned vehicles). */
  vehicleIds: readonly number[] | null;
}

/** The account acted on, when it is not the person's own. */
export interface ActedAccount {
  id: number;
  name: string;
  cpfCnpj: string;
}

export function actingOnOwn(person: Person): Acting {
  return { person, role: 'titular', memberId: null, company: documentKind(person.cpfCnpj) === 'CNPJ', vehicleIds: null };
}

/** The audit trail's name for an actor: name and masked document, as they are at the time. */
export function actorOf(acting: Acting): { name: string; document: string } {
  return { name: acting.person.name, document: maskCpfCnpj(acting.person.cpfCnpj) };
}

/**
 * The one read behind every call on a company's account: the person's active membership of it and,
 * for a Motorista, the vehicles assigned (live ones), in one statement compiled once: a row per
 * assigned vehicle (one with no vehicle when none), over company_members_person_idx and
 * vehicle_drivers_member_idx.
 */
export class FleetAccess {
  private readonly membership;

  constructor(db: Kysely<Database>) {
    this.membership = compileOnce(db, (param: (name: 'personId' | 'companyId') => never) =>
      db
        .selectFrom('company_members as m')
        .innerJoin('drivers as c', 'c.id', 'm.company_id')
        .leftJoin('vehicle_drivers as vd', 'vd.member_id', 'm.id')
        .leftJoin('vehicles as v', (join) => join.onRef('v.id', '=', 'vd.vehicle_id').on('v.deleted_at', 'is', null))
        .select(['m.id as memberId', 'm.role', 'c.id', 'c.name', 'c.cpf_cnpj as cpfCnpj', 'v.id as vehicleId'])
        .where('m.person_id', '=', param('personId'))
        .where('m.company_id', '=', param('companyId'))
        .where('m.state', '=', 'ativo')
        .orderBy('v.id'),
    );
  }

  /** The company account and how the person acts on it; null when they are not an active member. */
  async resolve(person: Person, companyId: number): Promise<{ account: ActedAccount; acting: Acting } | null> {
    const rows = await this.membership({ personId: person.id, companyId });
    const [row] = rows;
    if (!row) return null;
    const vehicleIds = seesEveryVehicle(row.role) ? null : rows.flatMap((r) => (r.vehicleId === null ? [] : [r.vehicleId]));
    return {
      account: { id: row.id, name: row.name, cpfCnpj: row.cpfCnpj },
      acting: { person, role: row.role, memberId: row.memberId, company: true, vehicleIds },
    };
  }
}
