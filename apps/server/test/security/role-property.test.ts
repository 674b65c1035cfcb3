import { ACTING_ACCOUNT_HEADER, FLEET_ROLES, roleAllows } from '@portal/domain';
import type { Capability, FleetRole } from '@portal/domain';
import { cnpj } from 'cpf-cnpj-validator';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { bearer, registerDriver, useTestApp } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { registerTag } from '../helpers/tags.js';
import type { RegisteredTag } from '../helpers/tags.js';

/**
 * Decision 77, as a property: after any sequence of invitations, acceptances, role changes,
 * removals and vehicle assignments, every person reaches exactly what a model of the rules says:
 * the company in their account list only while an active member; each sampled call answered by
 * role (domain roleAllows) and refused otherwise; a Motorista's vehicles and tags exactly the ones
 * assigned to them.
 */
const PEOPLE = 4;
const VEHICLES = 3;

type Op =
  | { kind: 'invite'; person: number; role: FleetRole; accepts: boolean }
  | { kind: 'accept'; person: number }
  | { kind: 'role'; person: number; role: FleetRole }
  | { kind: 'remove'; person: number }
  | { kind: 'assign'; vehicle: number; people: number[] };

const person = fc.integer({ min: 0, max: PEOPLE - 1 });
const role = fc.constantFrom(...FLEET_ROLES);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('invite' as const), person, role, accepts: fc.boolean() }),
  fc.record({ kind: fc.constant('accept' as const), person }),
  fc.record({ kind: fc.constant('role' as const), person, role }),
  fc.record({ kind: fc.constant('remove' as const), person }),
  fc.record({
    kind: fc.constant('assign' as const),
    vehicle: fc.integer({ min: 0, max: VEHICLES - 1 }),
    people: fc.uniqueArray(person, { maxLength: 2 }),
  }),
);

/** One call per capability a company's account is read with. */
const PROBES: { url: string; capability: Capability }[] = [
  { url: '/api/motorista/saldo', capability: 'balance' },
  { url: '/api/extrato/listar?page=1', capability: 'books' },
  { url: '/api/motorista/chaves-pix', capability: 'payout' },
  { url: '/api/motorista/pix-automatico', capability: 'credit' },
  { url: '/api/empresa/membros', capability: 'members' },
];

interface Membership {
  id: number;
  role: FleetRole;
  state: 'convidado' | 'ativo';
}

describeEachDatabase('propriedade: nenhuma sequência de mudanças de membros deixa alguém ver ou fazer além do seu papel', (dialect) => {
  const ctx = useTestApp(dialect);
  const people: Registered[] = [];

  beforeAll(async () => {
    for (let i = 0; i < PEOPLE; i++) people.push(await registerDriver(ctx().app, { name: `Pessoa ${i}` }));
  });

  it('o servidor concorda com o modelo depois de cada passo', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const { app } = ctx();
        const firm = await registerDriver(app, { name: 'Frota Propriedade Ltda', cpfCnpj: cnpj.generate() });
        const vehicles: RegisteredTag[] = [];
        for (let i = 0; i < VEHICLES; i++) vehicles.push(await registerTag(app, firm));
        const members = new Map<number, Membership>();
        const assigned = new Map<number, Set<number>>();
        const asFirm = bearer(firm.token);
        const activeGestores = () => [...members.values()].filter((m) => m.state === 'ativo' && m.role === 'gestor').length;
        const dropAssignments = (p: number) => assigned.forEach((set) => set.delete(p));

        for (const step of ops) {
          if (step.kind === 'invite') {
            const res = await app.inject({
              method: 'POST',
              url: '/api/empresa/membros',
              headers: asFirm,
              payload: { cpf: people[step.person]?.cpfCnpj, papel: step.role },
            });
            if (members.has(step.person)) expect(res.statusCode).toBe(409);
            else {
              expect(res.statusCode, res.body).toBe(201);
              const id = res.json<{ Membro: { id: number } }>().Membro.id;
              members.set(step.person, { id, role: step.role, state: 'convidado' });
              if (step.accepts) {
                const accepted = await app.inject({
                  method: 'POST',
                  url: `/api/convites/${id}/aceitar`,
                  headers: bearer(people[step.person]?.token ?? ''),
                });
                expect(accepted.statusCode, accepted.body).toBe(200);
                members.set(step.person, { id, role: step.role, state: 'ativo' });
              }
            }
          } else if (step.kind === 'accept') {
            const m = members.get(step.person);
            const res = await app.inject({
              method: 'POST',
              url: `/api/convites/${m?.id ?? 2_000_000}/aceitar`,
              headers: bearer(people[step.person]?.token ?? ''),
            });
            if (m?.state === 'convidado') {
              expect(res.statusCode, res.body).toBe(200);
              m.state = 'ativo';
            } else expect(res.statusCode).toBe(404);
          } else if (step.kind === 'role' || step.kind === 'remove') {
            const m = members.get(step.person);
            if (!m) continue;
            const res =
              step.kind === 'role'
                ? await app.inject({
                    method: 'POST',
                    url: `/api/empresa/membros/${m.id}/papel`,
                    headers: asFirm,
                    payload: { papel: step.role },
                  })
                : await app.inject({ method: 'DELETE', url: `/api/empresa/membros/${m.id}`, headers: asFirm });
            const leavesNoGestor = m.state === 'ativo' && m.role === 'gestor' && activeGestores() === 1;
            if (step.kind === 'role' && m.role === step.role) expect(res.statusCode).toBe(409);
            else if (leavesNoGestor) expect(res.statusCode, res.body).toBe(409);
            else {
              expect(res.statusCode, res.body).toBe(200);
              if (step.kind === 'remove') {
                members.delete(step.person);
                dropAssignments(step.person);
              } else {
                m.role = step.role;
                if (step.role !== 'motorista') dropAssignments(step.person);
              }
            }
          } else {
            const ids = step.people.map((p) => members.get(p));
            const valid = ids.every((m) => m?.state === 'ativo' && m.role === 'motorista');
            const res = await app.inject({
              method: 'POST',
              url: `/api/empresa/veiculos/${vehicles[step.vehicle]?.vehicleId}/motoristas`,
              headers: asFirm,
              payload: { motoristas: ids.map((m) => m?.id ?? 2_000_000) },
            });
            if (valid) {
              expect(res.statusCode, res.body).toBe(200);
              assigned.set(step.vehicle, new Set(step.people));
            } else expect(res.statusCode, res.body).toBe(422);
          }

          for (let p = 0; p < PEOPLE; p++) {
            const who = people[p];
            if (!who) throw new Error('pessoa');
            const m = members.get(p);
            const active = m?.state === 'ativo';
            const headers = { ...bearer(who.token), [ACTING_ACCOUNT_HEADER]: String(firm.id) };
            const accounts = (await app.inject({ method: 'GET', url: '/api/contas', headers: bearer(who.token) })).json<{
              Contas: { id: number }[];
            }>();
            expect(
              accounts.Contas.some((c) => c.id === firm.id),
              `pessoa ${p} na lista de contas`,
            ).toBe(active);
            for (const probe of PROBES) {
              const res = await app.inject({ method: 'GET', url: probe.url, headers });
              const expected = active && m && roleAllows(m.role, probe.capability) ? 200 : 403;
              expect(res.statusCode, `pessoa ${p} (${m?.role ?? '-'}, ${m?.state ?? 'fora'}) em ${probe.url}`).toBe(expected);
            }
            const list = await app.inject({ method: 'GET', url: '/api/veiculo/listar?page=1', headers });
            if (!active) {
              expect(list.statusCode).toBe(403);
              continue;
            }
            const plates = list
              .json<{ Veiculos: { LicensePlate: string }[] }>()
              .Veiculos.map((v) => v.LicensePlate)
              .sort();
            const sees =
              m.role === 'motorista'
                ? [...assigned.entries()].filter(([, set]) => set.has(p)).map(([v]) => vehicles[v]?.plate ?? '')
                : vehicles.map((v) => v.plate);
            expect(plates, `placas da pessoa ${p} (${m.role})`).toEqual(sees.sort());
          }
        }
      }),
      { numRuns: 15 },
    );
  }, 240_000);
});
