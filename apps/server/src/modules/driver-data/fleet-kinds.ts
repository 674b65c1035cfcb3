import { maskCpfCnpj } from '@portal/domain';
import { allAtOnce, iso, type KindsOf, reais } from './pages.js';

/**
 * Decision 77 in 'Meus dados': a person's memberships of companies, and on a company's own account
 * its members, assignments, cost centres and dual control; the audit trail of the company and the
 * person's own actions in others. Small: read at once.
 */
export const FLEET_KINDS: KindsOf<'fleet' | 'audit'> = {
  fleet: {
    tables: [
      'company_members',
      'vehicle_drivers',
      'cost_centres',
      'withdrawal_approvals',
      'approval_thresholds',
      'vehicle_budgets',
      'vehicle_month_spend',
      'vehicle_budget_alerts',
      'budget_blocks',
    ],
    count: async () => 1,
    async *records(db, driverId) {
      const me = await db.selectFrom('drivers').select('cpf_cnpj').where('id', '=', driverId).executeTakeFirstOrThrow();
      const memberships = await db
        .selectFrom('company_members as m')
        .innerJoin('drivers as c', 'c.id', 'm.company_id')
        .select(['c.name', 'c.cpf_cnpj', 'm.role', 'm.state', 'm.invited_at', 'm.accepted_at', 'm.ended_at'])
        .where((eb) => eb.or([eb('m.person_id', '=', driverId), eb('m.cpf', '=', me.cpf_cnpj)]))
        .orderBy('m.id')
        .execute();
      const members = await db
        .selectFrom('company_members as m')
        .leftJoin('drivers as p', 'p.id', 'm.person_id')
        .select(['m.id', 'p.name', 'm.cpf', 'm.role', 'm.state', 'm.invited_at', 'm.accepted_at', 'm.ended_at'])
        .where('m.company_id', '=', driverId)
        .orderBy('m.id')
        .execute();
      const assigned = await db
        .selectFrom('vehicle_drivers as vd')
        .innerJoin('vehicles as v', 'v.id', 'vd.vehicle_id')
        .select(['v.license_plate', 'vd.member_id'])
        .where('v.driver_id', '=', driverId)
        .orderBy('v.license_plate')
        .execute();
      const centres = await db
        .selectFrom('cost_centres')
        .select(['id', 'name', 'code', 'created_at'])
        .where('company_id', '=', driverId)
        .orderBy('code')
        .execute();
      const threshold = await db.selectFrom('approval_thresholds').selectAll().where('company_id', '=', driverId).executeTakeFirst();
      const approvals = await db
        .selectFrom('withdrawal_approvals')
        .select(['id', 'amount_cents', 'pix_key_type', 'state', 'created_at', 'expires_at', 'decided_at'])
        .where('company_id', '=', driverId)
        .orderBy('id')
        .execute();
      // Decision 78: the vehicles' budgets, what each month spent, the notices sent and the tags blocked.
      const budgets = await db
        .selectFrom('vehicle_budgets as x')
        .innerJoin('vehicles as v', 'v.id', 'x.vehicle_id')
        .where('v.driver_id', '=', driverId)
        .select(['v.license_plate', 'x.monthly_cents', 'x.block_at_limit', 'x.updated_at'])
        .orderBy('v.license_plate')
        .execute();
      const spending = await db
        .selectFrom('vehicle_month_spend as s')
        .innerJoin('vehicles as v', 'v.id', 's.vehicle_id')
        .select(['v.license_plate', 's.period', 's.spent_cents'])
        .where('v.driver_id', '=', driverId)
        .orderBy('s.period')
        .orderBy('v.license_plate')
        .execute();
      const alerts = await db
        .selectFrom('vehicle_budget_alerts as a')
        .innerJoin('vehicles as v', 'v.id', 'a.vehicle_id')
        .select(['v.license_plate', 'a.period', 'a.percent', 'a.spent_cents', 'a.budget_cents', 'a.created_at'])
        .where('v.driver_id', '=', driverId)
        .orderBy('a.created_at')
        .execute();
      const blocks = await db
        .selectFrom('budget_blocks as b')
        .innerJoin('vehicles as v', 'v.id', 'b.vehicle_id')
        .select(['v.license_plate', 'b.period', 'b.state', 'b.created_at', 'b.blocked_at', 'b.released_at'])
        .where('v.driver_id', '=', driverId)
        .orderBy('b.id')
        .execute();
      yield [
        {
          orcamentosDosVeiculos: budgets.map((b) => ({
            placa: b.license_plate,
            orcamentoMensal: reais(Number(b.monthly_cents)),
            bloquearNoLimite: b.block_at_limit === 1,
            alteradoEm: iso(b.updated_at),
          })),
          gastoDePedagioPorMes: spending.map((m) => ({ placa: m.license_plate, mes: m.period, gasto: reais(Number(m.spent_cents)) })),
          avisosDeOrcamento: alerts.map((a) => ({
            placa: a.license_plate,
            mes: a.period,
            percentual: a.percent,
            gasto: reais(Number(a.spent_cents)),
            orcamento: reais(Number(a.budget_cents)),
            em: iso(a.created_at),
          })),
          bloqueiosPeloOrcamento: blocks.map((b) => ({
            placa: b.license_plate,
            mes: b.period,
            situacao: b.state,
            pedidoEm: iso(b.created_at),
            bloqueadaEm: iso(b.blocked_at),
            liberadaEm: iso(b.released_at),
          })),
          empresasDeQueParticipa: memberships.map((m) => ({
            empresa: m.name,
            cnpj: m.cpf_cnpj,
            papel: m.role,
            situacao: m.state,
            convidadoEm: iso(m.invited_at),
            aceitoEm: iso(m.accepted_at),
            encerradoEm: iso(m.ended_at),
          })),
          membros: members.map((m) => ({
            id: m.id,
            nome: m.name,
            cpf: maskCpfCnpj(m.cpf),
            papel: m.role,
            situacao: m.state,
            convidadoEm: iso(m.invited_at),
            aceitoEm: iso(m.accepted_at),
            encerradoEm: iso(m.ended_at),
            placas: assigned.filter((a) => a.member_id === m.id).map((a) => a.license_plate),
          })),
          centrosDeCusto: centres.map((c) => ({ codigo: c.code, nome: c.name, criadoEm: iso(c.created_at) })),
          duplaAprovacaoAcimaDe: threshold ? reais(threshold.value_cents === null ? null : Number(threshold.value_cents)) : null,
          saquesComDuplaAprovacao: approvals.map((a) => ({
            id: a.id,
            valor: reais(Number(a.amount_cents)),
            tipoDeChave: a.pix_key_type,
            situacao: a.state,
            pedidoEm: iso(a.created_at),
            expiraEm: iso(a.expires_at),
            decididoEm: iso(a.decided_at),
          })),
        },
      ];
    },
  },
  audit: {
    tables: ['audit_events'],
    count: async (db, driverId) => {
      const row = await db
        .selectFrom('audit_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('company_id', '=', driverId), eb('actor_id', '=', driverId)]))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    records: (db, driverId) =>
      allAtOnce(
        () =>
          db
            .selectFrom('audit_events as a')
            .innerJoin('drivers as c', 'c.id', 'a.company_id')
            .select([
              'a.id',
              'c.name as company',
              'a.actor_name',
              'a.actor_document',
              'a.actor_role',
              'a.action',
              'a.outcome',
              'a.address',
              'a.before_json',
              'a.after_json',
              'a.created_at',
            ])
            .where((eb) => eb.or([eb('a.company_id', '=', driverId), eb('a.actor_id', '=', driverId)]))
            .orderBy('a.id')
            .execute(),
        (r) => ({
          empresa: r.company,
          em: iso(r.created_at),
          quem: r.actor_name,
          documento: r.actor_document,
          papel: r.actor_role,
          acao: r.action,
          resultado: r.outcome,
          endereco: r.address,
          antes: r.before_json === null ? null : (JSON.parse(r.before_json) as unknown),
          depois: r.after_json === null ? null : (JSON.parse(r.after_json) as unknown),
        }),
      ),
  },
};
