import { documentKind, fleetMessages, fleetRoleLabels, maskCpfCnpj, refuse } from '@portal/domain';
import type { FleetRole } from '@portal/domain';
import type { ActingAccount, FleetVehicle, Invitation, Member } from '@portal/contract';
import { isUniqueViolation, nowIso, toIso } from '../../db/connection.js';
import type { Db, Trx } from '../../db/connection.js';
import { lockDriver } from '../../db/lock.js';
import type { Acting, Person } from './access.js';
import type { AuditLog } from './audit.js';

const FLEET_VEHICLES_PAGE_SIZE = 20;

/** Where an action came from: the client's address, for the audit trail. */
export interface Origin {
  acting: Acting;
  address: string;
}

/**
 * Decision 77: a company's people. A Gestor invites a CPF with a role; the person accepts in their
 * own login; a Gestor changes roles and removes. The company keeps one active Gestor at least: a
 * change that would leave none is refused, decided under the company's row lock so two Gestores
 * demoting each other at once cannot both pass. Every change is recorded with its before and after,
 * in the same transaction.
 */
export class MemberService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
  ) {}

  /** The person's own account first, then each company they are an active member of, by name. */
  async accountsOf(person: Person): Promise<ActingAccount[]> {
    const companies = await this.db.kysely
      .selectFrom('company_members as m')
      .innerJoin('drivers as c', 'c.id', 'm.company_id')
      .select(['c.id', 'c.name', 'c.cpf_cnpj', 'm.role'])
      .where('m.person_id', '=', person.id)
      .where('m.state', '=', 'ativo')
      .orderBy('c.name')
      .orderBy('c.id')
      .execute();
    const own: ActingAccount = {
      id: person.id,
      nome: person.name,
      documento: maskCpfCnpj(person.cpfCnpj),
      papel: 'titular',
      propria: true,
      empresa: documentKind(person.cpfCnpj) === 'CNPJ',
    };
    return [
      own,
      ...companies.map((c) => ({
        id: c.id,
        nome: c.name,
        documento: maskCpfCnpj(c.cpf_cnpj),
        papel: c.role,
        propria: false,
        empresa: true,
      })),
    ];
  }

  /** The invitations waiting for the person's CPF. */
  async invitationsOf(person: Person): Promise<Invitation[]> {
    const rows = await this.db.kysely
      .selectFrom('company_members as m')
      .innerJoin('drivers as c', 'c.id', 'm.company_id')
      .innerJoin('drivers as by', 'by.id', 'm.invited_by')
      .select(['m.id', 'm.role', 'm.invited_at', 'c.name as company', 'c.cpf_cnpj as companyDocument', 'by.name as invitedBy'])
      .where('m.cpf', '=', person.cpfCnpj)
      .where('m.state', '=', 'convidado')
      .orderBy('m.id', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      empresa: r.company,
      documento: maskCpfCnpj(r.companyDocument),
      papel: r.role,
      convidadoPor: r.invitedBy,
      convidadoEm: toIso(r.invited_at),
    }));
  }

  /** Accepts or declines an invitation addressed to the person's CPF; recorded on the company's trail. */
  async answer(person: Person, invitationId: number, accept: boolean, address: string): Promise<string> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const invitation = await trx
        .selectFrom('company_members as m')
        .innerJoin('drivers as c', 'c.id', 'm.company_id')
        .select(['m.id', 'm.company_id', 'm.role', 'c.name as company'])
        .where('m.id', '=', invitationId)
        .where('m.cpf', '=', person.cpfCnpj)
        .where('m.state', '=', 'convidado')
        .executeTakeFirst();
      if (!invitation) throw refuse.notFound(fleetMessages.invitationNotFound);
      const now = nowIso();
      const changed = await trx
        .updateTable('company_members')
        .set(accept ? { state: 'ativo', person_id: person.id, accepted_at: now } : { state: 'recusado', ended_at: now })
        .where('id', '=', invitation.id)
        .where('state', '=', 'convidado')
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) throw refuse.notFound(fleetMessages.invitationNotFound);
      const acting: Acting = { person, role: invitation.role, memberId: invitation.id, company: true, vehicleIds: [] };
      await this.audit.record(
        invitation.company_id,
        acting,
        {
          action: accept ? 'Aceitou o convite' : 'Recusou o convite',
          outcome: 'ok',
          address,
          before: { estado: 'convidado' },
          after: { estado: accept ? 'ativo' : 'recusado', papel: fleetRoleLabels[invitation.role] },
        },
        trx,
      );
      return accept ? fleetMessages.invitationAccepted(invitation.company) : fleetMessages.invitationDeclined;
    });
  }

  async list(companyId: number, personId: number): Promise<Member[]> {
    const rows = await this.db.kysely
      .selectFrom('company_members as m')
      .leftJoin('drivers as p', 'p.id', 'm.person_id')
      .select(['m.id', 'm.cpf', 'm.role', 'm.state', 'm.invited_at', 'm.accepted_at', 'm.person_id', 'p.name'])
      .where('m.company_id', '=', companyId)
      .where('m.state', 'in', ['convidado', 'ativo'])
      .orderBy('m.id')
      .execute();
    const plates = await this.platesOf(rows.map((r) => r.id));
    return rows.map((r) => this.memberOf(r, plates.get(r.id) ?? [], personId));
  }

  async invite(companyId: number, origin: Origin, cpf: string, role: FleetRole): Promise<Member> {
    const company = await this.db.kysely.selectFrom('drivers').select(['cpf_cnpj']).where('id', '=', companyId).executeTakeFirstOrThrow();
    if (documentKind(company.cpf_cnpj) !== 'CNPJ') throw refuse.forbidden(fleetMessages.onlyCompanies);
    try {
      return await this.db.kysely.transaction().execute(async (trx) => {
        const now = nowIso();
        const row = await trx
          .insertInto('company_members')
          .values({
            company_id: companyId,
            cpf,
            person_id: null,
            role,
            state: 'convidado',
            invited_by: origin.acting.person.id,
            invited_at: now,
          })
          .returning(['id'])
          .executeTakeFirstOrThrow();
        await this.audit.record(
          companyId,
          origin.acting,
          {
            action: 'Convidou um membro',
            outcome: 'ok',
            address: origin.address,
            after: { cpf: maskCpfCnpj(cpf), papel: fleetRoleLabels[role] },
          },
          trx,
        );
        return this.memberOf(
          { id: row.id, cpf, role, state: 'convidado', invited_at: now, accepted_at: null, person_id: null, name: null },
          [],
          origin.acting.person.id,
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw refuse.conflict(fleetMessages.alreadyMember);
      throw error;
    }
  }

  async changeRole(companyId: number, origin: Origin, memberId: number, role: FleetRole): Promise<Member> {
    return this.db.kysely.transaction().execute(async (trx) => {
      await lockDriver(trx, this.db.dialect, companyId);
      const member = await this.liveMember(trx, companyId, memberId);
      if (member.role === role) throw refuse.conflict(fleetMessages.roleUnchanged);
      if (member.role === 'gestor' && member.state === 'ativo') await this.keepOneGestor(trx, companyId, memberId);
      await trx.updateTable('company_members').set({ role }).where('id', '=', memberId).execute();
      // Only a Motorista has vehicles assigned.
      if (role !== 'motorista') await trx.deleteFrom('vehicle_drivers').where('member_id', '=', memberId).execute();
      await this.audit.record(
        companyId,
        origin.acting,
        {
          action: 'Mudou o papel de um membro',
          outcome: 'ok',
          address: origin.address,
          before: { membro: member.name ?? maskCpfCnpj(member.cpf), papel: fleetRoleLabels[member.role] },
          after: { membro: member.name ?? maskCpfCnpj(member.cpf), papel: fleetRoleLabels[role] },
        },
        trx,
      );
      return this.memberOf(
        { ...member, role },
        role === 'motorista' ? ((await this.platesOf([memberId], trx)).get(memberId) ?? []) : [],
        origin.acting.person.id,
      );
    });
  }

  /** Removes a member (their access ends with this commit: every call checks membership) or cancels an invitation. */
  async remove(companyId: number, origin: Origin, memberId: number): Promise<string> {
    return this.db.kysely.transaction().execute(async (trx) => {
      await lockDriver(trx, this.db.dialect, companyId);
      const member = await this.liveMember(trx, companyId, memberId);
      if (member.role === 'gestor' && member.state === 'ativo') await this.keepOneGestor(trx, companyId, memberId);
      await trx.updateTable('company_members').set({ state: 'removido', ended_at: nowIso() }).where('id', '=', memberId).execute();
      await trx.deleteFrom('vehicle_drivers').where('member_id', '=', memberId).execute();
      const invitation = member.state === 'convidado';
      await this.audit.record(
        companyId,
        origin.acting,
        {
          action: invitation ? 'Cancelou um convite' : 'Removeu um membro',
          outcome: 'ok',
          address: origin.address,
          before: { membro: member.name ?? maskCpfCnpj(member.cpf), papel: fleetRoleLabels[member.role], estado: member.state },
          after: { estado: 'removido' },
        },
        trx,
      );
      return invitation ? fleetMessages.invitationCancelled : fleetMessages.removed;
    });
  }

  /** The company's live vehicles, by plate, with the Motoristas (member ids) of each. */
  async vehicles(companyId: number, page: number): Promise<{ rows: FleetVehicle[]; totalPages: number }> {
    const live = this.db.kysely.selectFrom('vehicles').where('driver_id', '=', companyId).where('deleted_at', 'is', null);
    const [rows, count] = await Promise.all([
      live
        .select(['id', 'license_plate', 'cost_centre_id'])
        .orderBy('license_plate')
        .orderBy('id')
        .limit(FLEET_VEHICLES_PAGE_SIZE)
        .offset((page - 1) * FLEET_VEHICLES_PAGE_SIZE)
        .execute(),
      live.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const assigned = rows.length
      ? await this.db.kysely
          .selectFrom('vehicle_drivers')
          .select(['vehicle_id', 'member_id'])
          .where(
            'vehicle_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('member_id')
          .execute()
      : [];
    return {
      rows: rows.map((r) => ({
        id: r.id,
        placa: r.license_plate,
        motoristas: assigned.filter((a) => a.vehicle_id === r.id).map((a) => a.member_id),
        centroDeCusto: r.cost_centre_id,
      })),
      totalPages: Math.ceil(Number(count.n) / FLEET_VEHICLES_PAGE_SIZE),
    };
  }

  /** One live vehicle of the company with its Motoristas and cost centre; null when it is not one. */
  async vehicleOf(companyId: number, vehicleId: number): Promise<FleetVehicle | null> {
    const vehicle = await this.db.kysely
      .selectFrom('vehicles')
      .select(['id', 'license_plate', 'cost_centre_id'])
      .where('id', '=', vehicleId)
      .where('driver_id', '=', companyId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!vehicle) return null;
    const assigned = await this.db.kysely
      .selectFrom('vehicle_drivers')
      .select('member_id')
      .where('vehicle_id', '=', vehicleId)
      .orderBy('member_id')
      .execute();
    return {
      id: vehicle.id,
      placa: vehicle.license_plate,
      motoristas: assigned.map((a) => a.member_id),
      centroDeCusto: vehicle.cost_centre_id,
    };
  }

  /** Sets a vehicle's Motoristas (active members in that role), replacing the ones it had. */
  async assign(companyId: number, origin: Origin, vehicleId: number, memberIds: readonly number[]): Promise<FleetVehicle> {
    return this.db.kysely.transaction().execute(async (trx) => {
      await lockDriver(trx, this.db.dialect, companyId);
      const vehicle = await trx
        .selectFrom('vehicles')
        .select(['id', 'license_plate', 'cost_centre_id'])
        .where('id', '=', vehicleId)
        .where('driver_id', '=', companyId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!vehicle) throw refuse.notFound(fleetMessages.vehicleNotFound);
      const drivers = memberIds.length
        ? await trx
            .selectFrom('company_members as m')
            .leftJoin('drivers as p', 'p.id', 'm.person_id')
            .select(['m.id', 'p.name'])
            .where('m.company_id', '=', companyId)
            .where('m.state', '=', 'ativo')
            .where('m.role', '=', 'motorista')
            .where('m.id', 'in', memberIds)
            .execute()
        : [];
      if (drivers.length !== memberIds.length) throw refuse.invalid(fleetMessages.assignOnlyDrivers, 'motoristas');
      const before = await trx
        .selectFrom('vehicle_drivers as vd')
        .innerJoin('company_members as m', 'm.id', 'vd.member_id')
        .leftJoin('drivers as p', 'p.id', 'm.person_id')
        .select(['p.name'])
        .where('vd.vehicle_id', '=', vehicleId)
        .orderBy('m.id')
        .execute();
      await trx.deleteFrom('vehicle_drivers').where('vehicle_id', '=', vehicleId).execute();
      if (memberIds.length) {
        await trx
          .insertInto('vehicle_drivers')
          .values(memberIds.map((member_id) => ({ vehicle_id: vehicleId, member_id })))
          .execute();
      }
      await this.audit.record(
        companyId,
        origin.acting,
        {
          action: 'Atribuiu motoristas a um veículo',
          outcome: 'ok',
          address: origin.address,
          before: { placa: vehicle.license_plate, motoristas: before.map((b) => b.name) },
          after: { placa: vehicle.license_plate, motoristas: drivers.sort((a, b) => a.id - b.id).map((d) => d.name) },
        },
        trx,
      );
      return {
        id: vehicle.id,
        placa: vehicle.license_plate,
        motoristas: [...memberIds].sort((a, b) => a - b),
        centroDeCusto: vehicle.cost_centre_id,
      };
    });
  }

  private async liveMember(trx: Trx, companyId: number, memberId: number) {
    const member = await trx
      .selectFrom('company_members as m')
      .leftJoin('drivers as p', 'p.id', 'm.person_id')
      .select(['m.id', 'm.cpf', 'm.role', 'm.state', 'm.invited_at', 'm.accepted_at', 'm.person_id', 'p.name'])
      .where('m.id', '=', memberId)
      .where('m.company_id', '=', companyId)
      .where('m.state', 'in', ['convidado', 'ativo'])
      .executeTakeFirst();
    if (!member) throw refuse.notFound(fleetMessages.memberNotFound);
    return member;
  }

  /** Refuses a change that would leave the company without an active Gestor other than `leaving`. */
  private async keepOneGestor(trx: Trx, companyId: number, leaving: number): Promise<void> {
    const other = await trx
      .selectFrom('company_members')
      .select('id')
      .where('company_id', '=', companyId)
      .where('state', '=', 'ativo')
      .where('role', '=', 'gestor')
      .where('id', '<>', leaving)
      .limit(1)
      .executeTakeFirst();
    if (!other) throw refuse.conflict(fleetMessages.lastGestor);
  }

  private async platesOf(memberIds: readonly number[], trx: Trx | Db['kysely'] = this.db.kysely): Promise<Map<number, string[]>> {
    const plates = new Map<number, string[]>();
    if (memberIds.length === 0) return plates;
    const rows = await trx
      .selectFrom('vehicle_drivers as vd')
      .innerJoin('vehicles as v', 'v.id', 'vd.vehicle_id')
      .select(['vd.member_id', 'v.license_plate'])
      .where('vd.member_id', 'in', memberIds)
      .where('v.deleted_at', 'is', null)
      .orderBy('v.license_plate')
      .execute();
    for (const r of rows) plates.set(r.member_id, [...(plates.get(r.member_id) ?? []), r.license_plate]);
    return plates;
  }

  private memberOf(
    r: {
      id: number;
      cpf: string;
      role: FleetRole;
      state: Member['estado'];
      invited_at: Date | string;
      accepted_at: Date | string | null;
      person_id: number | null;
      name: string | null;
    },
    plates: string[],
    personId: number,
  ): Member {
    return {
      id: r.id,
      nome: r.name,
      cpf: maskCpfCnpj(r.cpf),
      papel: r.role,
      estado: r.state,
      convidadoEm: toIso(r.invited_at),
      desde: r.accepted_at ? toIso(r.accepted_at) : null,
      placas: plates,
      voce: r.person_id === personId,
    };
  }
}
