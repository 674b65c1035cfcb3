import { api } from '@portal/contract';
import { fleetMessages, fleetRoleLabels } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverFileRoute, driverRoute } from '../../http/route.js';
import type { DriverRouteContext } from '../../http/route.js';
import type { AuditLog } from './audit.js';
import type { MemberService, Origin } from './members.js';

const originOf = (ctx: Pick<DriverRouteContext<typeof api.members>, 'acting' | 'req'>): Origin => ({
  acting: ctx.acting,
  address: ctx.req.ip,
});

/** Decision 77: the accounts a person may act on, their invitations, and a company's members, vehicles' drivers and trail. */
export function fleetRoutes(app: FastifyInstance, members: MemberService, audit: AuditLog): void {
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
      return { Sucesso: true, Mensagem: member.nome ? fleetMessages.invited : fleetMessages.invitedWaiting, Membro: member };
    },
    { status: 201 },
  );

  driverRoute(app, api.changeMemberRole, async (ctx) => {
    const member = await members.changeRole(ctx.driver.id, originOf(ctx), ctx.params.id, ctx.body.papel);
    return { Sucesso: true, Mensagem: fleetMessages.roleChanged(fleetRoleLabels[member.papel]), Membro: member };
  });

  driverRoute(app, api.removeMember, async (ctx) => ({
    Sucesso: true,
    Mensagem: await members.remove(ctx.driver.id, originOf(ctx), ctx.params.id),
  }));

  driverRoute(app, api.fleetVehicles, async ({ driver, query }) => {
    const page = await members.vehicles(driver.id, query.page);
    return { Sucesso: true, Mensagem: fleetMessages.membersOk, Veiculos: page.rows, Paginacao: { TotalPaginas: page.totalPages } };
  });

  driverRoute(app, api.assignVehicle, async (ctx) => ({
    Sucesso: true,
    Mensagem: fleetMessages.assignmentsSaved,
    Veiculo: await members.assign(ctx.driver.id, originOf(ctx), ctx.params.id, ctx.body.motoristas),
  }));

  driverRoute(app, api.auditEvents, async ({ driver, query }) => {
    const page = await audit.list(driver.id, query);
    return { Sucesso: true, Mensagem: fleetMessages.auditOk, Registros: page.rows, Paginacao: { TotalPaginas: page.totalPages } };
  });

  driverFileRoute(app, api.auditExport, async ({ driver, query }) => ({
    contentType: 'text/csv; charset=utf-8',
    fileName: 'auditoria.csv',
    body: await audit.csv(driver.id, query),
  }));
}
