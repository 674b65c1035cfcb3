import { api, buildPath } from '@portal/contract';
import type { Endpoint } from '@portal/contract';
import { ACTING_ACCOUNT_HEADER, actingRoleLabel, FLEET_ROLES, fleetMessages, roleAllows } from '@portal/domain';
import type { FleetRole } from '@portal/domain';
import { cnpj } from 'cpf-cnpj-validator';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerDriver, useTestApp } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { answerText } from '../helpers/files.js';
import { describeEachDatabase } from '../helpers/databases.js';
import type { DatabaseWatch } from '../helpers/db-watch.js';
import { watchDatabase } from '../helpers/db-watch.js';
import type { DriverWorld, World } from '../helpers/world.js';
import { buildWorld, driverWorld, validRequest } from '../helpers/world.js';

type Name = keyof typeof api;

/**
 * Decision 77: every authenticated call of the contract, for each fleet role, acting on its own
 * company, on another company, and (a Motorista) on a vehicle not assigned. The expected answer
 * comes from the domain's table (roleAllows) and is checked against what the server does: a
 * refused call writes nothing but its 'negado' record on the company's trail.
 */
const driverCalls = (Object.keys(api) as Name[]).filter((n) => api[n].auth);
/** The person's own calls act on the person whatever account is chosen: covered by the driver matrix, one checked here. */
const companyCalls = driverCalls.filter((n) => api[n].capability !== 'self');

describeEachDatabase('matriz de papéis da frota, gerada do contrato (decisão 77)', (dialect) => {
  const ctx = useTestApp(dialect);
  let world: World;
  let firm: DriverWorld;
  let otherFirm: Registered;
  let watch: DatabaseWatch;
  const people = {} as Record<FleetRole, Registered>;
  /** A second Motorista, assigned the firm's other vehicle only. */
  let unassigned: Registered;

  beforeAll(async () => {
    const { app, db } = ctx();
    world = await buildWorld(app, db);
    firm = await driverWorld(app, db, world.keys, 'Transportes Matriz Ltda', cnpj.generate());
    otherFirm = await registerDriver(app, { name: 'Outra Transportadora Ltda', cpfCnpj: cnpj.generate() });
    const join = async (name: string, role: FleetRole) => {
      const person = await registerDriver(app, { name });
      const invited = await app.inject({
        method: 'POST',
        url: '/api/empresa/membros',
        headers: bearer(firm.token),
        payload: { cpf: person.cpfCnpj, papel: role },
      });
      expect(invited.statusCode, invited.body).toBe(201);
      const id = invited.json<{ Membro: { id: number } }>().Membro.id;
      expect((await app.inject({ method: 'POST', url: `/api/convites/${id}/aceitar`, headers: bearer(person.token) })).statusCode).toBe(
        200,
      );
      return { person, id };
    };
    const gestor = await join('Gil Gestor', 'gestor');
    const financeiro = await join('Fani Financeira', 'financeiro');
    const motorista = await join('Moacir Motorista', 'motorista');
    const other = await join('Nina Motorista', 'motorista');
    const assign = async (vehicleId: number, member: number) => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/empresa/veiculos/${vehicleId}/motoristas`,
        headers: bearer(firm.token),
        payload: { motoristas: [member] },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await assign(firm.active.vehicleId, motorista.id);
    await assign(firm.inactive.vehicleId, other.id);
    people.gestor = gestor.person;
    people.financeiro = financeiro.person;
    people.motorista = motorista.person;
    unassigned = other.person;
    watch = await watchDatabase(db);
  });

  function request(name: Name, who: Registered, account: number): InjectOptions {
    const e = api[name] as Endpoint;
    const valid = validRequest(name, world, firm, world.b);
    let url = buildPath(e.path, valid.params ?? {});
    if (valid.query) url = `${url}?${valid.query}`;
    return {
      method: e.method,
      url,
      headers: { ...bearer(who.token), [ACTING_ACCOUNT_HEADER]: String(account) },
      ...(valid.body ? { payload: valid.body } : {}),
    };
  }

  async function auditRows(): Promise<number> {
    const row = await ctx()
      .db.kysely.selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  const firmSecrets = () => [
    firm.cpfCnpj,
    firm.active.serial,
    firm.active.plate,
    firm.inactive.serial,
    firm.inactive.plate,
    firm.pendingChargeId,
  ];

  describe.each(companyCalls)('%s', (name) => {
    const capability = api[name].capability;
    if (!capability) throw new Error(`${name} sem capability`);
    const denied = FLEET_ROLES.filter((r) => !roleAllows(r, capability));
    const allowed = FLEET_ROLES.filter((r) => roleAllows(r, capability));

    it.each(FLEET_ROLES)("each role on another company's account: 403, nothing written, nothing of it answered (%s)", async (role) => {
      const before = await watch.changes();
      const res = await ctx().app.inject(request(name, people[role], otherFirm.id));
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json<{ Mensagem: string; code: string }>()).toMatchObject({
        Mensagem: fleetMessages.noAccess,
        code: 'ACCOUNT_ACCESS_ENDED',
      });
      expect(await watch.changes()).toBe(before);
    });

    if (denied.length) {
      it.each(denied)('a role without the capability on its own company: 403, only its refusal recorded (%s)', async (role) => {
        const before = await watch.changes();
        const audits = await auditRows();
        const res = await ctx().app.inject(request(name, people[role], firm.id));
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json<{ Mensagem: string }>().Mensagem).toBe(fleetMessages.roleForbidden(actingRoleLabel(role)));
        for (const secret of firmSecrets()) expect(res.body).not.toContain(secret);
        expect(await auditRows()).toBe(audits + 1);
        expect(await watch.changes()).toBe(before + 1);
        const last = await ctx().db.kysely.selectFrom('audit_events').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
        expect(last).toMatchObject({
          company_id: firm.id,
          actor_id: people[role].id,
          actor_role: role,
          outcome: 'negado',
          action: api[name].summary,
        });
      });
    }

    if (allowed.length) {
      it.each(allowed)('a role with the capability on its own company: past the authorization (%s)', async (role) => {
        const res = await ctx().app.inject(request(name, people[role], firm.id));
        const body = await answerText(res);
        expect(body, `${name} as ${role}`).not.toContain(fleetMessages.noAccess);
        expect(body, `${name} as ${role}`).not.toContain('não permite esta ação');
        if (api[name].method === 'GET') expect(res.statusCode, body.slice(0, 300)).toBe(200);
      });
    }

    if (capability === 'vehicles') {
      it('a Motorista on a vehicle not assigned to them: nothing of it answered', async () => {
        const res = await ctx().app.inject(request(name, unassigned, firm.id));
        const body = await answerText(res);
        expect([200, 404], body).toContain(res.statusCode);
        for (const secret of [firm.active.serial, firm.active.plate]) expect(body).not.toContain(secret);
        // The control: the Motorista it is assigned to reaches it (a read of JSON shows its plate).
        const own = await ctx().app.inject(request(name, people.motorista, firm.id));
        expect(own.statusCode, own.body.slice(0, 200)).not.toBe(404);
        if (api[name].method === 'GET') expect(own.statusCode).toBe(200);
        if (api[name].method === 'GET' && !api[name].file) expect(await answerText(own)).toContain(firm.active.plate);
      });
    }
  });

  it("the person's own calls ignore the chosen company: the profile is the person's", async () => {
    const res = await ctx().app.inject({
      method: 'GET',
      url: api.profile.path,
      headers: { ...bearer(people.motorista.token), [ACTING_ACCOUNT_HEADER]: String(firm.id) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(people.motorista.cpfCnpj);
    expect(res.body).not.toContain(firm.cpfCnpj);
  });
});
