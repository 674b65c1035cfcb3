/**
 * Decision 77, fleets: a company's account (CNPJ) is used by people (CPF) it invites, each with a
 * role. What a role may do is this table's, and only this table's: every authenticated call of the
 * contract names the capability it needs, and the server asks `roleAllows` before it runs.
 */

export const FLEET_ROLES = ['gestor', 'financeiro', 'motorista'] as const;
export type FleetRole = (typeof FLEET_ROLES)[number];

/**
 * Who is acting on an account: its holder (the login of the account itself, a driver's CPF or the
 * company's CNPJ), or a member in one of the fleet roles.
 */
export type ActingRole = 'titular' | FleetRole;

export const fleetRoleLabels: Record<FleetRole, string> = {
  gestor: 'Gestor',
  financeiro: 'Financeiro',
  motorista: 'Motorista',
};

export function isActingRole(value: string): value is ActingRole {
  return value === 'titular' || (FLEET_ROLES as readonly string[]).includes(value);
}

export function actingRoleLabel(role: ActingRole): string {
  return role === 'titular' ? 'Titular' : fleetRoleLabels[role];
}

/** What each role may do, in the words of the Membros screen. */
export const fleetRoleDescriptions: Record<FleetRole, string> = {
  gestor: 'Tudo, inclusive membros, veículos, tags e saques.',
  financeiro:
    'Comprar crédito, extrato, exportações, comprovantes, contestações, limites de saque e orçamentos dos veículos. Não mexe em tags, veículos, membros nem saca.',
  motorista: 'Só os veículos atribuídos a ele: tags, passagens, VPOs, pedágios sem cancela e contestações.',
};

/**
 * What a call needs. 'self': the person's own (session, terms, profile, devices, their data, their
 * invitations): always the signed-in person, whatever account is chosen. 'vehicles': what hangs from
 * a vehicle (tags' state, VPOs, free-flow tolls, contests, proofs): a Motorista sees only the
 * vehicles assigned to them.
 */
export const CAPABILITIES = [
  'self',
  'balance',
  'credit',
  'books',
  'payout',
  'fleet',
  'vehicles',
  'toll-payment',
  'members',
  /** The money's limits: the payout limits and (decision 78) the vehicles' monthly budgets (Gestor and Financeiro). */
  'limits',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const ROLE_CAPABILITIES: Record<ActingRole, ReadonlySet<Capability>> = {
  titular: new Set(CAPABILITIES),
  gestor: new Set(CAPABILITIES),
  financeiro: new Set<Capability>(['self', 'balance', 'credit', 'books', 'vehicles', 'toll-payment', 'limits']),
  motorista: new Set<Capability>(['self', 'vehicles']),
};

export function roleAllows(role: ActingRole, capability: Capability): boolean {
  return ROLE_CAPABILITIES[role].has(capability);
}

/** A Motorista sees only their vehicles; every other role sees all of the account's. */
export function seesEveryVehicle(role: ActingRole): boolean {
  return role !== 'motorista';
}

/** The states of a membership: invited (waiting for the person), active, and the two ends. */
export const MEMBER_STATES = ['convidado', 'ativo', 'recusado', 'removido'] as const;
export type MemberState = (typeof MEMBER_STATES)[number];

export const memberStateLabels: Record<MemberState, string> = {
  convidado: 'Convite enviado',
  ativo: 'Ativo',
  recusado: 'Convite recusado',
  removido: 'Removido',
};

/** The header a signed-in person sends to act on a company's account (its id, from GET /api/contas). */
export const ACTING_ACCOUNT_HEADER = 'X-Conta';

/** Decision 77: a company's withdrawal waiting for a second Gestor expires unapproved after this long. */
export const DUAL_CONTROL_HOURS = 24;

export const WITHDRAWAL_APPROVAL_STATES = ['PENDENTE', 'APROVADO', 'RECUSADO', 'EXPIRADO'] as const;
export type WithdrawalApprovalStateName = (typeof WITHDRAWAL_APPROVAL_STATES)[number];
export const withdrawalApprovalStateLabels: Record<WithdrawalApprovalStateName, string> = {
  PENDENTE: 'Aguardando aprovação',
  APROVADO: 'Aprovado',
  RECUSADO: 'Recusado',
  EXPIRADO: 'Expirado sem aprovação',
};

export const dualControlMessages = {
  listOk: 'Saques da empresa que pedem dupla aprovação',
  waiting: (value: string) =>
    `Saque de ${value} registrado: ele aguarda a aprovação de outro Gestor. Sem aprovação em ${DUAL_CONTROL_HOURS} horas, ele expira e nada sai da conta.`,
  approved: 'Saque aprovado e enviado.',
  approvedProcessing: 'Saque aprovado! O valor será enviado para a chave Pix informada em instantes.',
  declined: 'Saque recusado. Nada saiu da conta.',
  notFound: 'Saque pendente não encontrado, já decidido ou expirado.',
  ownRequest: 'Quem pediu o saque não pode aprová-lo: outro Gestor precisa aprovar.',
  keyNoLongerSaved: 'A chave Pix deste saque não está mais salva na empresa. Recuse este pedido e peça um novo saque.',
  thresholdSet: (value: string) => `Dupla aprovação ligada: saques acima de ${value} esperam outro Gestor.`,
  thresholdRaised: (value: string, when: string) =>
    `O novo valor (${value}) vale a partir de ${when}: aumentar a dupla aprovação espera ${DUAL_CONTROL_HOURS} horas.`,
  thresholdOffLater: (when: string) => `A dupla aprovação será desligada em ${when}: desligar espera ${DUAL_CONTROL_HOURS} horas.`,
  thresholdOff: 'Dupla aprovação desligada.',
  thresholdInvalid: 'Informe um valor entre R$ 1,00 e R$ 1.000.000,00, ou desligue a dupla aprovação.',
  onlyCompanies: 'A dupla aprovação de saques é das contas de empresa (CNPJ).',
} as const;

/** A cost centre's name and code: what an accountant types, short. */
export const COST_CENTRE_NAME_MAX = 60;
export const COST_CENTRE_CODE_MAX = 20;

export const costCentreMessages = {
  listOk: 'Centros de custo da empresa',
  created: 'Centro de custo criado.',
  updated: 'Centro de custo alterado.',
  removed: 'Centro de custo excluído. Os veículos dele ficaram sem centro de custo.',
  notFound: 'Centro de custo não encontrado.',
  vehicleNotFound: 'Veículo não encontrado nesta empresa.',
  codeTaken: 'Já existe um centro de custo com este código.',
  nameRequired: 'Informe o nome do centro de custo.',
  codeRequired: 'Informe o código do centro de custo.',
  nameTooLong: `O nome tem no máximo ${COST_CENTRE_NAME_MAX} caracteres.`,
  codeInvalid: `O código tem até ${COST_CENTRE_CODE_MAX} letras, números, ponto, hífen ou barra.`,
  vehicleMoved: (plate: string, centre: string | null) =>
    centre ? `O veículo ${plate} agora está no centro de custo ${centre}.` : `O veículo ${plate} ficou sem centro de custo.`,
  reportMonthInvalid: 'Escolha o mês do relatório (AAAA-MM).',
  reportOk: 'Relatório do centro de custo',
} as const;

/** The monthly report's columns (CSV, where money columns add ' (R$)', and PDF), in the order an accountant reads them. */
export const costCentreReportColumns = {
  plate: 'Placa',
  passages: 'Passagens',
  tolls: 'Pedágios',
  tollsByVpo: 'Pagos por VPO',
  fees: 'Mensalidades',
  freeFlow: 'Pedágios sem cancela',
  vpoReceived: 'VPO recebido',
  spent: 'Total de despesas',
  total: 'Total',
  noVehicles: 'Nenhum veículo neste centro de custo.',
  withoutCentre: 'Sem centro de custo',
} as const;

export const fleetMessages = {
  accountsOk: 'Contas que você pode usar',
  membersOk: 'Membros da empresa',
  fleetVehiclesOk: 'Veículos da empresa e seus Motoristas',
  invitationsOk: 'Seus convites',
  auditOk: 'Registro de ações',
  onlyCompanies: 'Só uma empresa (CNPJ) tem membros. Entre na conta da empresa para convidar pessoas.',
  inviteCpfOnly: 'Convide pessoas pelo CPF. Para uma empresa, use o CPF de quem vai usar o portal.',
  inviteSelf: 'Você já é o titular desta conta.',
  alreadyMember: 'Esta pessoa já é membro ou já tem um convite desta empresa.',
  /** The same whether or not the CPF has an account: an invitation tells the company nothing about who uses the portal. */
  invited:
    'Convite enviado. A pessoa aceita no painel dela, entrando com o próprio CPF; quem ainda não tem conta encontra o convite ao se cadastrar.',
  invitationNotFound: 'Convite não encontrado ou já respondido.',
  invitationAccepted: (company: string) => `Convite aceito. Você já pode usar a conta de ${company} no seletor do topo.`,
  invitationDeclined: 'Convite recusado.',
  memberNotFound: 'Membro não encontrado.',
  roleChanged: (roleLabel: string) => `Papel alterado para ${roleLabel}.`,
  roleUnchanged: 'O membro já tem este papel.',
  removed: 'Membro removido. O acesso dele à empresa terminou agora.',
  invitationCancelled: 'Convite cancelado.',
  lastGestor: 'A empresa precisa de pelo menos um Gestor. Promova outro membro a Gestor antes.',
  noAccess: 'Você não tem acesso a esta conta. Escolha outra no seletor do topo.',
  roleForbidden: (roleLabel: string) => `O seu papel nesta empresa (${roleLabel}) não permite esta ação.`,
  vehicleNotAssigned: 'Este veículo não está atribuído a você nesta empresa.',
  assignmentsSaved: 'Motoristas do veículo atualizados.',
  vehicleNotFound: 'Veículo não encontrado nesta empresa.',
  assignOnlyDrivers: 'Só membros ativos com o papel Motorista podem ser atribuídos a um veículo.',
} as const;
