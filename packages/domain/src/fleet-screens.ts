/**
 * Decision 77, fleets: what the web app's screens say about the account in use, the invitations and
 * the company's pages (Membros, Veículos da frota, Auditoria). The server's own answers are
 * fleet.ts's fleetMessages; these are the screens' words around them.
 */

export const fleetScreens = {
  /** The header's line: 'Conta: <nome> · <papel>'. */
  accountLabel: 'Conta',
  ownAccount: 'Minha conta',
  accountLine: (name: string, role: string) => `${name} · ${role}`,
  switchAccount: 'Trocar de conta',
  /** The switch's list. */
  switchTitle: 'Usar a conta de',
  currentAccount: 'em uso',
  accountsFailed: 'Não foi possível carregar as suas contas. Tente novamente em instantes.',
  switched: (name: string) => `Agora você está usando a conta de ${name}.`,
  switchedOwn: 'Agora você está usando a sua conta.',
  accessEndedTitle: 'Acesso à empresa encerrado',

  /** The dashboard's company menu (Gestor). */
  companyMenu: 'Empresa',
  membersTile: 'Membros',
  membersHint: 'Pessoas, papéis e convites',
  fleetVehiclesTile: 'Veículos da frota',
  fleetVehiclesHint: 'Motoristas de cada veículo',
  auditTile: 'Auditoria',
  auditHint: 'Quem fez o quê, e quando',
  /** A Motorista's dashboard: no balance, their vehicles. */
  driverIntro: (company: string) => `Você usa a conta de ${company} como Motorista: aqui estão os veículos atribuídos a você.`,
  driverVehicles: {
    title: 'Seus veículos',
    seeAll: 'Ver todos',
    empty: 'Nenhum veículo atribuído a você nesta empresa ainda. Peça ao Gestor da empresa.',
  },

  /** A page of the company opened by someone who cannot use it. */
  companyOnlyTitle: 'Página do Gestor da empresa',
  companyOnly:
    'Esta página é só para quem gerencia a conta de uma empresa. Escolha a conta da empresa no topo da tela, se você for Gestor dela.',
  backToDashboard: 'Voltar ao painel',

  invitations: {
    title: 'Convites de empresas',
    text: (company: string, document: string, role: string) => `${company} (${document}) convidou você como ${role}`,
    invitedBy: (name: string) => `Convite de ${name}`,
    accept: 'Aceitar',
    decline: 'Recusar',
    acceptName: (company: string) => `Aceitar o convite de ${company}`,
    declineName: (company: string) => `Recusar o convite de ${company}`,
    declineTitle: 'Recusar convite',
    declineQuestion: (company: string) => `Recusar o convite de ${company}? Para entrar depois, a empresa terá de convidar você de novo.`,
  },

  members: {
    title: 'Membros',
    subtitle: 'Quem usa a conta da empresa, com qual papel, e os convites enviados.',
    listLabel: 'Membros e convites',
    failed: 'Não foi possível carregar os membros.',
    empty: 'Ninguém foi convidado ainda. Convide pelo CPF no formulário acima.',
    /** Until the person accepts, the company sees only the CPF it typed: not whether it has an account, nor its name. */
    waitingSignup: 'Aguardando aceite',
    you: 'você',
    cpf: 'CPF',
    role: 'Papel',
    state: 'Situação',
    plates: 'Placas',
    noPlates: 'Nenhuma placa atribuída',
    since: 'Desde',
    invitedAt: 'Convidado em',
    changeRole: (name: string) => `Papel de ${name}`,
    remove: 'Remover',
    removeName: (name: string) => `Remover ${name}`,
    removeTitle: 'Remover membro',
    removeQuestion: (name: string) => `Remover ${name}? O acesso dele à empresa termina na hora.`,
    cancelInvitation: 'Cancelar convite',
    cancelInvitationName: (cpf: string) => `Cancelar o convite do CPF ${cpf}`,
    cancelInvitationQuestion: (cpf: string) => `Cancelar o convite do CPF ${cpf}? A pessoa não poderá mais aceitá-lo.`,
    inviteTitle: 'Convidar pessoa',
    inviteHint: 'A pessoa entra no portal com o próprio CPF e aceita o convite no painel dela.',
    inviteCpf: 'CPF de quem vai usar o portal',
    inviteRole: 'Papel',
    inviteRolePlaceholder: 'Escolha o papel',
    inviteSubmit: 'Enviar convite',
  },

  vehicles: {
    title: 'Veículos da frota',
    subtitle: 'Escolha os Motoristas de cada veículo: cada um vê só os veículos atribuídos a ele.',
    failed: 'Não foi possível carregar os veículos da empresa.',
    empty: 'A empresa ainda não tem veículos.',
    drivers: 'Motoristas',
    driversPlaceholder: 'Nenhum Motorista',
    noDrivers: 'Nenhum membro ativo tem o papel Motorista. Convide um em Membros, ou mude o papel de um membro.',
    save: 'Salvar',
    saveName: (plate: string) => `Salvar Motoristas do veículo ${plate}`,
  },

  audit: {
    title: 'Auditoria',
    subtitle: 'O registro das ações na conta da empresa, as mais recentes primeiro. Nada nele pode ser apagado.',
    filtersLabel: 'Filtrar registro',
    member: 'Membro',
    allMembers: 'Todos os membros',
    result: 'Resultado',
    allResults: 'Todos os resultados',
    resultLabels: { ok: 'Feito', negado: 'Negado' } as Record<'ok' | 'negado', string>,
    since: 'Desde',
    until: 'Até',
    clear: 'Limpar filtros',
    download: 'Baixar CSV',
    downloading: 'Preparando o arquivo do registro...',
    failed: 'Não foi possível carregar o registro.',
    empty: 'Nenhuma ação registrada.',
    emptyFiltered: 'Nenhuma ação com estes filtros.',
    who: 'Quem',
    address: 'Endereço',
    before: 'Antes',
    after: 'Depois',
    when: 'Quando',
    deniedNote: 'O papel não permitia esta ação: ela não foi feita.',
  },
} as const;
