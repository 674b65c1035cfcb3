import { api } from '@portal/contract';
import { costCentreMessages, fleetMessages, fleetRoleLabels, refuse, vehicleBudgetMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverFileRoute, driverRoute } from '../../http/route.js';
import type { DriverRouteContext } from '../../http/route.js';
import type { AuditLog } from './audit.js';
import type { VehicleBudgets } from '../vehicle-budgets/service.js';
import { budgetsOfCompaniesOnly, budgetTrail } from './budget-trail.js';
import type { CostCentres } from './cost-centres.js';
import { costCentreCsv, costCentrePdf } from './report.js';
import type { MemberService, Origin } from './members.js';

const originOf = (ctx: Pick<DriverRouteContext<typeof api.members>, 'acting' | 'req'>): Origin => ({
  acting: ctx.acting,
  address: ctx.req.ip,
});

/** Decision 77: the accounts a person may act on, their invitations, and a company's members, vehicles' drivers and trail. */
export function fleetRoutes(
  app: FastifyInstance,
  members: MemberService,
  audit: AuditLog,
  centres: CostCentres,
  budgets: VehicleBudgets,
): void {
  driverRoute(app, api.actingAccounts, async ({ acting }) => ({
    Sucesso: true,
    Mensagem: fleetMessages.accountsOk,
    Contas: await members.accountsOf(acting.person),
  }));

  driverRoute(app, api.invitations, async ({ acting }) => ({
    Sucesso: true,
    Mensagem: fleetMessages.invitationsOk,
    Convites: await members.invitationsOf(acting.person),
  }));

  driverRoute(app, api.acceptInvitation, async ({ acting, params, req }) => ({
    Sucesso: true,
    Mensagem: await members.answer(acting.person, params.id, true, req.ip),
  }));

  driverRoute(app, api.declineInvitation, async ({ acting, params, req }) => ({
    Sucesso: true,
    Mensagem: await members.answer(acting.person, params.id, false, req.ip),
  }));

  driverRoute(app, api.members, async ({ driver, acting }) => ({
    Sucesso: true,
    Mensagem: fleetMessages.membersOk,
    Membros: await members.list(driver.id, acting.person.id),
  }));

  driverRoute(
    app,
    api.inviteMember,
    async (ctx) => {
      const member = await members.invite(ctx.driver.id, originOf(ctx), ctx.body.cpf, ctx.body.papel);
      return { Sucesso: true, Mensagem: fleetMessages.invited, Membro: member };
    },
    { status: 201, recordsOwnTrail: true },
  );

  driverRoute(
    app,
    api.changeMemberRole,
    async (ctx) => {
      const member = await members.changeRole(ctx.driver.id, originOf(ctx), ctx.params.id, ctx.body.papel);
      return { Sucesso: true, Mensagem: fleetMessages.roleChanged(fleetRoleLabels[member.papel]), Membro: member };
    },
    { recordsOwnTrail: true },
  );

  driverRoute(
    app,
    api.removeMember,
    async (ctx) => ({ Sucesso: true, Mensagem: await members.remove(ctx.driver.id, originOf(ctx), ctx.params.id) }),
    { recordsOwnTrail: true },
  );

  driverRoute(app, api.fleetVehicles, async ({ driver, query }) => {
    const page = await members.vehicles(driver.id, query.page);
    return { Sucesso: true, Mensagem: fleetMessages.fleetVehiclesOk, Veiculos: page.rows, Paginacao: { TotalPaginas: page.totalPages } };
  });

  driverRoute(
    app,
    api.assignVehicle,
    async (ctx) => ({
      Sucesso: true,
      Mensagem: fleetMessages.assignmentsSaved,
      Veiculo: await members.assign(ctx.driver.id, originOf(ctx), ctx.params.id, ctx.body.motoristas),
    }),
    { recordsOwnTrail: true },
  );

  driverRoute(app, api.auditEvents, async ({ driver, query }) => {
    const page = await audit.list(driver.id, query);
    return { Sucesso: true, Mensagem: fleetMessages.auditOk, Registros: page.rows, Paginacao: { TotalPaginas: page.totalPages } };
  });

  driverFileRoute(app, api.auditExport, async ({ driver, query }) => ({
    contentType: 'text/csv; charset=utf-8',
    fileName: 'auditoria.csv',
    body: await audit.csv(driver.id, query),
  }));

  driverRoute(app, api.costCentres, async ({ driver }) => ({
    Sucesso: true,
    Mensagem: costCentreMessages.listOk,
    Centros: await centres.list(driver.id),
  }));

  driverRoute(
    app,
    api.createCostCentre,
    async (ctx) => ({
      Sucesso: true,
      Mensagem: costCentreMessages.created,
      Centro: await centres.create(ctx.driver.id, originOf(ctx), ctx.body),
    }),
    { status: 201, recordsOwnTrail: true },
  );

  driverRoute(
    app,
    api.updateCostCentre,
    async (ctx) => ({
      Sucesso: true,
      Mensagem: costCentreMessages.updated,
      Centro: await centres.update(ctx.driver.id, originOf(ctx), ctx.params.id, ctx.body),
    }),
    { recordsOwnTrail: true },
  );

  driverRoute(
    app,
    api.removeCostCentre,
    async (ctx) => {
      await centres.remove(ctx.driver.id, originOf(ctx), ctx.params.id);
      return { Sucesso: true, Mensagem: costCentreMessages.removed };
    },
    { recordsOwnTrail: true },
  );

  driverRoute(
    app,
    api.setVehicleCostCentre,
    async (ctx) => {
      const moved = await centres.setVehicle(ctx.driver.id, originOf(ctx), ctx.params.id, ctx.body.centroDeCusto);
      const vehicle = await members.vehicleOf(ctx.driver.id, moved.vehicle.id);
      if (!vehicle) throw refuse.notFound(costCentreMessages.vehicleNotFound);
      return { Sucesso: true, Mensagem: moved.message, Veiculo: vehicle };
    },
    { recordsOwnTrail: true },
  );

  driverFileRoute(app, api.costCentreReport, async ({ driver, params, query }) => {
    const report = await centres.report(driver.id, params.id, query.mes);
    if (!report) throw refuse.notFound(costCentreMessages.notFound);
    const fileName = `centro-de-custo-${report.centre.code.replace(/[^A-Za-z0-9-]/g, '-')}-${query.mes}`;
    return query.formato === 'pdf'
      ? { contentType: 'application/pdf', fileName: `${fileName}.pdf`, body: await costCentrePdf(report) }
      : { contentType: 'text/csv; charset=utf-8', fileName: `${fileName}.csv`, body: costCentreCsv(report) };
  });

  // Decision 78: the vehicles' monthly budgets, read and set by a Gestor or the Financeiro; every change on the trail.
  driverRoute(app, api.vehicleBudgets, async ({ driver, acting, query }) => {
    budgetsOfCompaniesOnly(acting);
    const { month, rows, pages } = await budgets.list(driver.id, query.page);
    return { Sucesso: true, Mensagem: vehicleBudgetMessages.listOk, mes: month, Orcamentos: rows, Paginacao: { TotalPaginas: pages } };
  });

  driverRoute(
    app,
    api.setVehicleBudget,
    async ({ driver, acting, params, body, req }) => {
      budgetsOfCompaniesOnly(acting);
      const { budget, message } = await budgets.set(driver.id, params.id, body, budgetTrail(audit, driver.id, acting, req.ip));
      return { Sucesso: true, Mensagem: message, Orcamento: budget };
    },
    { recordsOwnTrail: true },
  );
}
