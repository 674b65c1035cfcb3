import { z } from 'zod';
import {
  COST_CENTRE_CODE_MAX,
  COST_CENTRE_NAME_MAX,
  costCentreMessages,
  dualControlMessages,
  FLEET_ROLES,
  fleetMessages,
  isValidCpf,
  MEMBER_STATES,
  messages,
  stripDocument,
  TEXT_MAX,
  WITHDRAWAL_APPROVAL_STATES,
} from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, idParam, isoDateTime, pageQuery, pagination, text } from './common.js';
import { withdrawalResponse } from './withdrawal.js';

/** Decision 77: the accounts the signed-in person may act on: their own, and each company they are an active member of. */
export const actingAccount = z.lazy(() =>
  z.object({
    /** The account's id: sent back in the X-Conta header to act on it (the person's own needs no header). */
    id: z.number().int(),
    nome: z.string(),
    /** The account's CPF/CNPJ, masked. */
    documento: z.string(),
    /** 'titular' on the person's own account (and a company's own login). */
    papel: z.enum(['titular', ...FLEET_ROLES]),
    propria: z.boolean(),
    empresa: z.boolean(),
  }),
);
export type ActingAccount = z.infer<typeof actingAccount>;
export const actingAccountsResponse = z.lazy(() => envelope.unwrap().extend({ Contas: z.array(actingAccount) }));
export type ActingAccountsResponse = z.infer<typeof actingAccountsResponse>;

const fleetRole = z.lazy(() => z.enum(FLEET_ROLES, { error: () => 'Escolha o papel: Gestor, Financeiro ou Motorista' }));

/** An invitation waiting for the signed-in person's answer. */
export const invitation = z.lazy(() =>
  z.object({
    id: z.number().int(),
    empresa: z.string(),
    /** The company's CNPJ, masked. */
    documento: z.string(),
    papel: fleetRole.unwrap(),
    convidadoPor: z.string(),
    convidadoEm: isoDateTime,
  }),
);
export type Invitation = z.infer<typeof invitation>;
export const invitationsResponse = z.lazy(() => envelope.unwrap().extend({ Convites: z.array(invitation) }));
export type InvitationsResponse = z.infer<typeof invitationsResponse>;

/** A member (or an invitation) of the company, as its Gestores see it. */
export const member = z.lazy(() =>
  z.object({
    id: z.number().int(),
    /** The person's name; null while the CPF has no account yet. */
    nome: z.string().nullable(),
    /** The CPF, masked. */
    cpf: z.string(),
    papel: fleetRole.unwrap(),
    estado: z.enum(MEMBER_STATES),
    convidadoEm: isoDateTime,
    /** When the invitation was accepted. */
    desde: isoDateTime.nullable(),
    /** The plates assigned to a Motorista. */
    placas: z.array(z.string()),
    /** The member is the signed-in person. */
    voce: z.boolean(),
  }),
);
export type Member = z.infer<typeof member>;
export const membersResponse = z.lazy(() => envelope.unwrap().extend({ Membros: z.array(member) }));
export type MembersResponse = z.infer<typeof membersResponse>;
export const memberResponse = z.lazy(() => envelope.unwrap().extend({ Membro: member }));
export type MemberResponse = z.infer<typeof memberResponse>;

/** Invite a person by CPF, with a role. */
export const inviteMemberRequest = z.lazy(() =>
  z.object({
    cpf: text(TEXT_MAX.document)
      .transform((v) => stripDocument(v))
      .superRefine((v, ctx) => {
        if (v.length === 0) ctx.addIssue({ code: 'custom', message: messages.registration.cpfCnpjRequired });
        else if (v.length !== 11) ctx.addIssue({ code: 'custom', message: fleetMessages.inviteCpfOnly });
        else if (!isValidCpf(v)) ctx.addIssue({ code: 'custom', message: messages.registration.cpfInvalid });
      }),
    papel: fleetRole,
  }),
);
export type InviteMemberRequest = z.input<typeof inviteMemberRequest>;

export const memberRoleRequest = z.lazy(() => z.object({ papel: fleetRole }));
export type MemberRoleRequest = z.input<typeof memberRoleRequest>;

/** A vehicle of the company with the Motoristas assigned to it and its cost centre. */
export const fleetVehicle = z.lazy(() =>
  z.object({
    id: z.number().int(),
    placa: z.string(),
    /** Member ids of the Motoristas assigned. */
    motoristas: z.array(z.number().int()),
    /** The cost centre's id, or null. */
    centroDeCusto: z.number().int().nullable(),
  }),
);

/** A cost centre: a name and a code, with how many vehicles it holds. */
export const costCentre = z.lazy(() =>
  z.object({ id: z.number().int(), nome: z.string(), codigo: z.string(), veiculos: z.number().int() }),
);
export type CostCentre = z.infer<typeof costCentre>;
export const costCentresResponse = z.lazy(() => envelope.unwrap().extend({ Centros: z.array(costCentre) }));
export type CostCentresResponse = z.infer<typeof costCentresResponse>;
export const costCentreResponse = z.lazy(() => envelope.unwrap().extend({ Centro: costCentre }));

export const costCentreRequest = z.lazy(() =>
  z.object({
    nome: text(COST_CENTRE_NAME_MAX + 1)
      .transform((v) => v.trim())
      .superRefine((v, ctx) => {
        if (!v) ctx.addIssue({ code: 'custom', message: costCentreMessages.nameRequired });
        else if (v.length > COST_CENTRE_NAME_MAX) ctx.addIssue({ code: 'custom', message: costCentreMessages.nameTooLong });
      }),
    codigo: text(COST_CENTRE_CODE_MAX + 1)
      .transform((v) => v.trim().toUpperCase())
      .superRefine((v, ctx) => {
        if (!v) ctx.addIssue({ code: 'custom', message: costCentreMessages.codeRequired });
        else if (!new RegExp(`^[A-Z0-9./-]{1,${COST_CENTRE_CODE_MAX}}$`).test(v))
          ctx.addIssue({ code: 'custom', message: costCentreMessages.codeInvalid });
      }),
  }),
);
export type CostCentreRequest = z.input<typeof costCentreRequest>;

/** The vehicle's cost centre (its id), or null to leave it without one. */
export const vehicleCostCentreRequest = z.lazy(() => z.object({ centroDeCusto: z.number().int().positive().nullable() }));
export type VehicleCostCentreRequest = z.input<typeof vehicleCostCentreRequest>;

/** The monthly report of one cost centre: a São Paulo month and the file's format. */
export const costCentreReportQuery = z.lazy(() =>
  z.object({
    mes: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: () => costCentreMessages.reportMonthInvalid }),
    formato: z.enum(['csv', 'pdf']).catch('csv'),
  }),
);
export type CostCentreReportQuery = z.input<typeof costCentreReportQuery>;
export type FleetVehicle = z.infer<typeof fleetVehicle>;
export const fleetVehiclesResponse = z.lazy(() => envelope.unwrap().extend({ Veiculos: z.array(fleetVehicle), Paginacao: pagination }));
export type FleetVehiclesResponse = z.infer<typeof fleetVehiclesResponse>;

/** The Motoristas of one vehicle, replacing the ones it had (member ids; an empty list leaves it with none). */
export const vehicleAssignmentRequest = z.lazy(() =>
  z.object({
    motoristas: z
      .array(z.number().int().positive(), { error: () => fleetMessages.assignOnlyDrivers })
      .max(200)
      .transform((ids) => [...new Set(ids)]),
  }),
);
export type VehicleAssignmentRequest = z.input<typeof vehicleAssignmentRequest>;
export const vehicleAssignmentResponse = z.lazy(() => envelope.unwrap().extend({ Veiculo: fleetVehicle }));

/** One recorded action on the company's account (append-only). */
export const auditEvent = z.lazy(() =>
  z.object({
    id: z.number().int(),
    em: isoDateTime,
    /** Who acted: name and masked document, as they were then. */
    quem: z.string(),
    documento: z.string(),
    papel: z.string(),
    /** The action, in Portuguese (the call's summary, or the member action). */
    acao: z.string(),
    /** ok or negado (refused by the role). */
    resultado: z.enum(['ok', 'negado']),
    endereco: z.string(),
    antes: z.string().nullable(),
    depois: z.string().nullable(),
  }),
);
export type AuditEvent = z.infer<typeof auditEvent>;

const isoDay = z.lazy(() =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: () => 'Data inválida: use AAAA-MM-DD' })
    .optional(),
);

export const auditQuery = z.lazy(() =>
  pageQuery.unwrap().extend({
    /** A member id: only that person's actions. */
    membro: z.coerce.number().int().positive().optional().catch(undefined),
    resultado: z.enum(['ok', 'negado']).optional().catch(undefined),
    desde: isoDay,
    ate: isoDay,
  }),
);
export type AuditQuery = z.input<typeof auditQuery>;
export type AuditFilters = z.output<typeof auditQuery>;
export const auditResponse = z.lazy(() => envelope.unwrap().extend({ Registros: z.array(auditEvent), Paginacao: pagination }));
export type AuditResponse = z.infer<typeof auditResponse>;

const idParams = z.lazy(() => z.object({ id: idParam }));

/** Decision 77: a company's withdrawal above its threshold, waiting for a second Gestor (or decided). */
export const pendingWithdrawal = z.lazy(() =>
  z.object({
    id: z.number().int(),
    valor: z.number(),
    /** The key, masked, with its type ('E-mail a***@x.com'). */
    chave: z.string(),
    descricao: z.string(),
    pedidoPor: z.string(),
    pedidoEm: isoDateTime,
    expiraEm: isoDateTime,
    estado: z.enum(WITHDRAWAL_APPROVAL_STATES),
    decididoPor: z.string().nullable(),
    decididoEm: isoDateTime.nullable(),
    /** The signed-in Gestor may approve it (they did not ask for it, and it waits). */
    podeAprovar: z.boolean(),
  }),
);
export type PendingWithdrawal = z.infer<typeof pendingWithdrawal>;

export const withdrawalApprovalsResponse = z.lazy(() =>
  envelope.unwrap().extend({
    /** Withdrawals above this many reais wait for a second Gestor; null: off. */
    limite: z.number().nullable(),
    /** A raise (or turning it off) waiting its 24 hours: the value then (null: off) and when. */
    pendente: z.object({ valor: z.number().nullable(), aPartirDe: isoDateTime }).nullable(),
    Saques: z.array(pendingWithdrawal),
  }),
);
export type WithdrawalApprovalsResponse = z.infer<typeof withdrawalApprovalsResponse>;

/** The threshold in reais, or null to turn dual control off. */
export const approvalThresholdRequest = z.lazy(() =>
  z.object({
    valor: z
      .number({ error: () => dualControlMessages.thresholdInvalid })
      .min(1, { error: () => dualControlMessages.thresholdInvalid })
      .max(1_000_000, { error: () => dualControlMessages.thresholdInvalid })
      .multipleOf(0.01, { error: () => dualControlMessages.thresholdInvalid })
      .nullable(),
  }),
);
export type ApprovalThresholdRequest = z.input<typeof approvalThresholdRequest>;

export const fleetApi = {
  actingAccounts: endpoint({
    method: 'GET',
    path: '/api/contas',
    auth: true,
    capability: 'self',
    summary:
      'As contas que a pessoa pode usar: a sua e a de cada empresa de que é membro ativo, com o papel (o id vai no cabeçalho X-Conta)',
    response: actingAccountsResponse,
  }),
  invitations: endpoint({
    method: 'GET',
    path: '/api/convites',
    auth: true,
    capability: 'self',
    summary: 'Os convites de empresas esperando a resposta da pessoa (pelo CPF da sua conta)',
    response: invitationsResponse,
  }),
  acceptInvitation: endpoint({
    method: 'POST',
    path: '/api/convites/:id/aceitar',
    auth: true,
    capability: 'self',
    idempotent: true,
    summary: 'Aceitar o convite de uma empresa: a pessoa passa a usar a conta da empresa com o papel do convite',
    params: idParams,
    response: envelope,
  }),
  declineInvitation: endpoint({
    method: 'POST',
    path: '/api/convites/:id/recusar',
    auth: true,
    capability: 'self',
    idempotent: true,
    summary: 'Recusar o convite de uma empresa',
    params: idParams,
    response: envelope,
  }),
  members: endpoint({
    method: 'GET',
    path: '/api/empresa/membros',
    auth: true,
    capability: 'members',
    summary: 'Os membros da empresa e os convites, com papel, estado e placas atribuídas (Gestor)',
    response: membersResponse,
  }),
  inviteMember: endpoint({
    method: 'POST',
    path: '/api/empresa/membros',
    auth: true,
    capability: 'members',
    requiresTerms: true,
    idempotent: true,
    summary: 'Convidar uma pessoa pelo CPF, com um papel; quem ainda não tem conta encontra o convite ao se cadastrar (Gestor)',
    body: inviteMemberRequest,
    response: memberResponse,
  }),
  changeMemberRole: endpoint({
    method: 'POST',
    path: '/api/empresa/membros/:id/papel',
    auth: true,
    capability: 'members',
    requiresTerms: true,
    idempotent: true,
    summary: 'Mudar o papel de um membro; a empresa mantém ao menos um Gestor (Gestor)',
    params: idParams,
    body: memberRoleRequest,
    response: memberResponse,
  }),
  removeMember: endpoint({
    method: 'DELETE',
    path: '/api/empresa/membros/:id',
    auth: true,
    capability: 'members',
    idempotent: true,
    summary: 'Remover um membro ou cancelar um convite: o acesso termina na hora, inclusive nas sessões abertas (Gestor)',
    params: idParams,
    response: envelope,
  }),
  fleetVehicles: endpoint({
    method: 'GET',
    path: '/api/empresa/veiculos',
    auth: true,
    capability: 'members',
    summary: 'Os veículos da empresa com os Motoristas atribuídos, 20 por página (Gestor)',
    query: pageQuery,
    response: fleetVehiclesResponse,
  }),
  assignVehicle: endpoint({
    method: 'POST',
    path: '/api/empresa/veiculos/:id/motoristas',
    auth: true,
    capability: 'members',
    requiresTerms: true,
    idempotent: true,
    summary: 'Definir os Motoristas de um veículo (substitui os que tinha) (Gestor)',
    params: idParams,
    body: vehicleAssignmentRequest,
    response: vehicleAssignmentResponse,
  }),
  auditEvents: endpoint({
    method: 'GET',
    path: '/api/empresa/auditoria',
    auth: true,
    capability: 'members',
    summary:
      'O registro das ações na conta da empresa (quem, o quê, quando, de onde, antes e depois), mais recentes primeiro, 20 por página (Gestor)',
    query: auditQuery,
    response: auditResponse,
  }),
  auditExport: endpoint({
    method: 'GET',
    path: '/api/empresa/auditoria/exportar',
    auth: true,
    capability: 'members',
    summary: 'O registro das ações em CSV, com os mesmos filtros (Gestor)',
    query: auditQuery,
    response: envelope,
    file: { contentTypes: ['text/csv; charset=utf-8'] },
  }),
  withdrawalApprovals: endpoint({
    method: 'GET',
    path: '/api/empresa/aprovacao-saques',
    auth: true,
    capability: 'payout',
    summary:
      'A dupla aprovação de saques da empresa: o valor acima do qual um saque espera outro Gestor, e os saques pendentes e decididos (Gestor)',
    response: withdrawalApprovalsResponse,
  }),
  setApprovalThreshold: endpoint({
    method: 'POST',
    path: '/api/empresa/aprovacao-saques',
    auth: true,
    capability: 'payout',
    idempotent: true,
    summary:
      'Ligar, baixar, aumentar ou desligar a dupla aprovação: baixar ou ligar vale na hora; aumentar ou desligar, 24 horas depois (Gestor)',
    body: approvalThresholdRequest,
    response: withdrawalApprovalsResponse,
  }),
  approveWithdrawal: endpoint({
    method: 'POST',
    path: '/api/empresa/aprovacao-saques/:id/aprovar',
    auth: true,
    capability: 'payout',
    idempotent: true,
    requiresTerms: true,
    summary: 'Aprovar o saque pendente que outro Gestor pediu: ele sai com todas as proteções de saque, pesadas agora (Gestor)',
    params: idParams,
    response: withdrawalResponse,
  }),
  declineWithdrawal: endpoint({
    method: 'POST',
    path: '/api/empresa/aprovacao-saques/:id/recusar',
    auth: true,
    capability: 'payout',
    idempotent: true,
    summary: 'Recusar um saque pendente: nada sai da conta (Gestor)',
    params: idParams,
    response: envelope,
  }),
  costCentres: endpoint({
    method: 'GET',
    path: '/api/empresa/centros-de-custo',
    auth: true,
    capability: 'books',
    summary: 'Os centros de custo da empresa (nome, código e quantos veículos têm) (Gestor e Financeiro)',
    response: costCentresResponse,
  }),
  createCostCentre: endpoint({
    method: 'POST',
    path: '/api/empresa/centros-de-custo',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    summary: 'Criar um centro de custo: nome e código, único na empresa (Gestor)',
    body: costCentreRequest,
    response: costCentreResponse,
  }),
  updateCostCentre: endpoint({
    method: 'POST',
    path: '/api/empresa/centros-de-custo/:id',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    summary: 'Alterar o nome e o código de um centro de custo (Gestor)',
    params: idParams,
    body: costCentreRequest,
    response: costCentreResponse,
  }),
  removeCostCentre: endpoint({
    method: 'DELETE',
    path: '/api/empresa/centros-de-custo/:id',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    summary: 'Excluir um centro de custo; os veículos dele ficam sem centro de custo (Gestor)',
    params: idParams,
    response: envelope,
  }),
  setVehicleCostCentre: endpoint({
    method: 'POST',
    path: '/api/empresa/veiculos/:id/centro-de-custo',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    summary: 'Pôr um veículo num centro de custo, ou tirá-lo (null) (Gestor)',
    params: idParams,
    body: vehicleCostCentreRequest,
    response: vehicleAssignmentResponse,
  }),
  costCentreReport: endpoint({
    method: 'GET',
    path: '/api/empresa/centros-de-custo/:id/relatorio',
    auth: true,
    capability: 'books',
    summary:
      'O relatório mensal de um centro de custo (CSV ou PDF): por placa, passagens, pedágios (e quanto o VPO pagou), mensalidades, pedágios sem cancela, VPO recebido e o total (Gestor e Financeiro)',
    params: idParams,
    query: costCentreReportQuery,
    response: envelope,
    file: { contentTypes: ['text/csv; charset=utf-8', 'application/pdf'] },
  }),
};
