/** Every text a driver reads that comes from a rule: docs/spec.md sections 5 and 8, verbatim. */
export const messages = {
  toast: {
    errorTitle: 'Ops, ocorreu um erro!',
    successTitle: 'Sucesso!',
  },
  login: {
    cpfCnpjRequired: 'Por favor digite seu CPF/CNPJ',
    passwordRequired: 'Por favor digite sua senha',
    invalidCredentials: 'Usuário ou senha incorretos',
  },
  /** 429 of the request limits (registration, Pix webhook, partner API). */
  registration: {
    nameTooShort: 'Por favor digite seu nome completo',
    cpfCnpjRequired: 'Por favor insira seu CPF ou CNPJ',
    cpfInvalid: 'CPF inválido',
    cnpjInvalid: 'CNPJ inválido',
    phoneRequired: 'Por favor insira seu telefone',
    phoneInvalid: 'Número de telefone inválido',
    passwordTooShort: 'Digite uma senha de pelo menos 8 caracteres',
    passwordMismatch: 'As senhas não coincidem',
    typeInvalid: 'Tipo de usuário inválido',
    failed: 'Não foi possível criar sua conta. Confira os campos destacados.',
  },
  terms: {
    acceptFailed: 'Falha ao aceitar o termo',
    rejectFailed: 'Falha ao rejeitar o termo',
    genericError: 'Ocorreu um erro ao processar sua solicitação',
    accepted: 'Termo aceito com sucesso!',
    rejected: 'Termo rejeitado. O acesso ficará restrito até que você aceite os Termos de Uso.',
    /** Issue 25: the terms bar, at the top of every signed-in screen (decision 45: reads stay open). */
    pending: 'Para movimentar o saldo e mudar tags e veículos, aceite os Termos de Uso.',
    /** Issue 25: under a refusal for the terms, on the withdrawal screen: where to accept them. */
    acceptHere: 'Leia e aceite os Termos de Uso no pé desta tela: o saque continua aqui.',
  },
  session: {
    internalError: 'Ocorreu um erro inesperado. Tente novamente em instantes.',
  },
  /**
   * Issue 25: a list whose read failed says so at once, with 'Tentar novamente' (components/ui/ReadFailed);
   * the table itself still shows empty, 'Nenhum item.' (spec §2, §8).
   */
  readFailed: {
    tags: 'Não foi possível carregar as tags.',
    vehicles: 'Não foi possível carregar os veículos.',
    vpos: 'Não foi possível carregar os VPOs.',
    statement: 'Não foi possível carregar o extrato.',
  },
  /** The one rule of every text field and id of the contract (domain text.ts). */
  input: {
    invalidCharacters: 'Texto com caracteres inválidos',
    invisibleCharacters: 'Texto com caracteres invisíveis (de direção ou formatação, como U+202E): remova-os',
    tooLong: 'Use no máximo {max} caracteres',
    idInvalid: 'Identificador inválido',
  },
  /** The Idempotency-Key header of the calls that move money or change state (founding architecture §21). */
  idempotency: {
    keyInvalid: 'Chave de idempotência (Idempotency-Key) inválida: use de 1 a 255 caracteres visíveis, sem espaços.',
    inProgress: 'Esta operação ainda está em processamento. Aguarde alguns instantes e confira o resultado antes de tentar de novo.',
  },
  /** Refusals the HTTP layer gives before any route runs (plugins/error-handler.ts). */
  /** What probes, Prometheus and the operator read (GET /api/health, /api/ready, /api/metrics). */
  withdrawal: {
    amountRequired: 'Digite um valor para realizar o saque',
    amountAboveBalance: 'O valor do saque não pode ser maior que o saldo disponível',
    keyTypeRequired: 'Por favor selecione o tipo da chave primeiro',
    keyRequired: 'Por favor digite a chave pix para sacar seu saldo',
    keyInvalid: 'Digite uma chave pix válida',
    insufficientBalance: 'Valor do saldo insuficiente para saque',
    defaultDescription: 'Saque Portal do Motorista',
  },
  pix: {
    /** Decision 61: a development server's purchase screen says how to pay its local provider. */
    payInTerminal: {
      title: 'Servidor de desenvolvimento',
      text: 'Ninguém paga o provedor local de verdade. Para simular o pagamento, cole no terminal:',
    },
    webhookAmountMismatch: 'Valor do pagamento diferente do valor da cobrança',
    /** 200 to Asaas: authenticated and well formed, but kept for the operator instead of applied. */
    withdrawalNotFound: 'Saque não encontrado',
    /** GET /api/transacoes/qrcode/{id}: Mensagem by the charge's status. */
    chargeStatus: {
      PENDING: 'Aguardando o pagamento do Pix',
      RECEIVED: 'Pagamento recebido! Seu saldo foi atualizado.',
      OVERDUE: 'Este Pix expirou. Gere um novo Pix para comprar saldo.',
      REFUNDED: 'O pagamento deste Pix foi estornado.',
    },
  },
  statement: {
    periodInvalid: 'Período inválido',
    kindInvalid: 'Tipo de movimentação inválido',
    formatInvalid: 'Formato inválido: escolha CSV ou PDF',
    fromRequired: 'Informe a data inicial',
    toRequired: 'Informe a data final',
    dayInvalid: 'Data inválida',
    toBeforeFrom: 'A data final deve ser igual ou posterior à data inicial',
    rangeTooLong: 'Escolha um período de no máximo 366 dias',
    /** Decision 79: a company's statement by plate, cost centre or driver, one at a time. */
    oneWhoseFilter: 'Filtre por uma placa, um centro de custo ou um motorista de cada vez.',
    plateNotFound: 'Nenhum veículo com esta placa nesta conta.',
    centreNotFound: 'Centro de custo não encontrado nesta conta.',
    memberNotFound: 'Motorista não encontrado nesta empresa.',
    exportPeriod: (first: string, last: string) => `${first} a ${last}`,
  },
  /** Every PDF the portal makes (apps/server/src/pdf): statement exports and receipts. */
  pdf: {
    generatedAt: (when: string) => `Gerado em ${when} (horário de Brasília)`,
  },
  receipt: {
    notFound: 'Comprovante não encontrado',
    status: {
      RECEIVED: 'Pagamento recebido',
      REFUNDED: 'Pagamento estornado',
      PARTIALLY_REFUNDED: 'Pagamento estornado em parte',
      PROCESSING: 'Saque em processamento',
      DONE: 'Saque concluído',
      FAILED: 'Saque não concluído: o valor voltou para o seu saldo',
    },
    /** The portal as payer (withdrawal) or receiver (purchase). */
    portal: 'Portal do Motorista',
    /** The receipt's lines, on the PDF and the printable page. */
    labels: {
      value: 'Valor',
      dateTime: 'Data e hora',
      completedAt: 'Concluído em',
      status: 'Situação',
      payer: 'Pagador',
      receiver: 'Recebedor',
      name: 'Nome',
      document: 'CPF/CNPJ',
      pixKey: 'Chave Pix',
      description: 'Descrição',
      reason: 'Motivo',
      returned: 'Valor devolvido',
      provider: 'Instituição de pagamento',
      providerId: 'ID da transação no provedor',
      ourId: 'ID no Portal do Motorista',
      ids: 'Identificação',
      /** A withdrawal's receiver: whose account the key leads to, in the provider's words. */
      holder: 'Titular informado pelo banco',
    },
    /** The provider did not report the key's holder: said so, never filled in with the driver. */
    holderUnavailable: 'indisponível',
    reversedNotice: 'SAQUE ESTORNADO: este Pix não foi concluído e o valor voltou para o seu saldo.',
  },
  attention: {
    tagBlockedAction: 'Liberar tag',
    lowBalanceAction: 'Comprar saldo',
    pendingPurchaseAction: 'Ver Pix',
    /** The dashboard's one-line forms of the notices above (web, 360 px). */
    tagBlockedShort: (plate: string) => `Tag ${plate} bloqueada por mensalidade`,
    lowBalanceShort: (level: string) => `Saldo abaixo do alerta de ${level}`,
    /** Issue 25: serverMessages.attention.negativeBalance, as short as the truth allows. */
    negativeBalanceTitle: (balance: string) => `Saldo negativo: ${balance}`,
    negativeBalanceMeaning: (fee: string) =>
      `Com a tag ativa, a próxima passagem ainda é debitada e o saldo fica mais negativo; no início do mês, sem ${fee} para a mensalidade, a tag é bloqueada.`,
    /** The balance panel's mark beside 'Saldo de pedágio' when it is below zero. */
    negativeBalanceMark: 'negativo',
    pendingPurchaseShort: (value: string) => `Compra de ${value} aguardando o Pix`,
    lastMovements: 'Últimas movimentações',
    seeStatement: 'Ver extrato completo',
  },
  settings: {
    saved: 'Preferências salvas com sucesso',
    alertLevelInvalid: 'Informe um valor entre R$ 0,00 e R$ 50.000,00',
  },
  vpo: {
    title: 'VPOs',
    subtitle: 'Listagem de VPOs',
    hint: 'Clique em cima do VPO para ver mais detalhes',
    detailsTitle: 'Detalhes do VPO',
    close: 'Fechar',
    fields: {
      serialNumber: 'Número da Tag',
      plate: 'Placa do Veículo',
      shipper: 'Embarcador',
      value: 'Valor',
      date: 'Data',
      status: 'Status',
      route: 'Rota',
      trip: 'Janela da viagem',
      used: 'Utilizado',
      left: 'Restante',
      refunded: 'Devolvido ao embarcador',
      fromSaldo: 'Pago do seu saldo',
      anttId: 'Identificador na ANTT',
      rntrc: 'RNTRC do transportador',
      axles: 'Categoria (eixos)',
      shipperName: 'Nome do embarcador',
    },
    passagesTitle: 'Passagens da viagem',
    passagesEmpty: 'Nenhuma passagem paga por este VPO até agora.',
    paidByVpo: 'Paga pelo VPO',
    paidBySaldo: 'VPO insuficiente: paga do seu saldo',
    routeUnknown: 'Rota não informada',
    axlesValue: '{n} eixos',
    exportPdf: 'Baixar registro do VPO (PDF)',
    detailsFailed: 'Não foi possível carregar as passagens deste VPO.',
    /** The web's 'Detalhes do VPO': while the passages load; between the trip window's two dates. */
    passagesLoading: 'Carregando as passagens...',
    tripUntil: 'a',
    /** The statement's mark on an entry of a VPO's money (its shipper's name); 'VPO' when the name is unknown. */
    shipperBadge: 'VPO de {shipper}',
    /** The dashboard's 'vpo-insuficiente' notice: its action (to /vpos/listar) and the action's accessible name. */
    noticeAction: 'Ver VPOs',
    noticeActionName: 'Ver VPOs (VPO de {shipper})',
  },
  partner: {
    invalidBody: 'Dados inválidos. Confira os campos destacados.',
    externalIdRequired: 'Informe o identificador do parceiro (externalId)',
    serialUnknown: 'Nenhuma tag cadastrada com este número (serialNumber)',
    driverUnknown: 'Nenhum motorista cadastrado com este CPF/CNPJ',
    valueInvalid: 'O valor deve ser maior que zero, com no máximo 2 casas decimais',
    valueAboveMaximum: 'O valor máximo é de {max}',
    shipperDocumentInvalid: 'CPF/CNPJ do embarcador inválido',
    plateInvalid: 'Placa inválida. Use o formato ABC1234 ou ABC1D23.',
    statusInvalid: 'Status inválido. Use EMITIDO, EM_VIAGEM, ENCERRADO ou CANCELADO.',
    /** Founding decision 29: a VPO is issued EMITIDO; its status changes afterwards, through PATCH. */
    statusOnIssue: 'Um VPO é emitido com o status EMITIDO. Mude o status depois, pelo PATCH /api/parceiro/vpos/{externalId}.',
    placeNameRequired: 'Informe o local da passagem (placeName)',
    occurredAtInvalid: 'Data inválida. Use ISO 8601 com fuso (ex.: 2026-01-31T10:00:00-03:00).',
    /** The window of constants.ts (PARTNER_EVENT_MAX_AGE_DAYS, PARTNER_EVENT_MAX_AHEAD_HOURS). */
    occurredAtOutOfRange: 'Data fora do período aceito: no máximo 1 ano atrás e 1 dia à frente',
    /** Decision 52: the trip window of a VPO (domain vpoTripErrors). */
    tripStartTooFar: 'O início da viagem (inicioViagem) pode ser no máximo 60 dias à frente',
    tripEndBeforeStart: 'O fim da viagem (fimViagem) deve ser depois do início (inicioViagem)',
    tripTooLong: 'A viagem pode durar no máximo 60 dias (de inicioViagem a fimViagem)',
    tripEnded: 'O fim da viagem (fimViagem) já passou: o VPO é pago antes da viagem',
    anttIdInvalid: 'Identificador do VPO na ANTT (idVpoAntt) inválido: até 64 letras, números, pontos, barras ou hífens',
    originInvalid: "Origem inválida: use 'credito-terceiro-movemais' ou 'debito-terceiro-movemais'",
    /** Decision 55: the body of POST /api/parceiro/passagens/lote (the contract checks it, so the text lives here). */
    batchInvalid: 'Envie um objeto com a lista de passagens: {"passagens": [ ... ]}',
    batchSize: 'O lote deve ter de 1 a 1.000 passagens (passagens)',
  },
  purchase: {
    amountRequired: 'Por favor digite o valor que deseja comprar de saldo',
    belowMinimum: 'O valor mínimo para compra de saldo é de R$ 100,00',
    aboveMaximum: 'O valor máximo para compra de saldo é de R$ 50.000,00',
    valueInvalid: 'Digite um valor válido, com no máximo 2 casas decimais',
  },
  tag: {
    /** The vehicle's and the tag's fields, named alike in the forms and on the tag's page. */
    labels: {
      serial: 'Número da Tag',
      operator: 'Operadora',
      model: 'Modelo',
      anttDocument: 'CPF/CNPJ da ANTT',
      rntrc: 'RNTRC da ANTT',
    },
    serialRequired: 'Por favor digite a Tag a ser ativada',
    greenpassRefused: 'Não é possivel cadastrar tags Greenpass',
    operatorRequired: 'Por favor selecione a Operadora da Tag',
    plateRequired: 'Por favor digite a Placa do veículo',
    axlesRequired: 'Por favor selecione o número de eixos',
    modelRequired: 'Por favor selecione o modelo',
    replaceSerialInvalid: 'Digite o número da nova Tag para substituir',
    serialInvalid: 'Número da Tag inválido: use somente números, de 8 a 16 dígitos',
    serialTooLong: 'O número da Tag pode ter no máximo 19 caracteres',
    plateInvalid: 'Placa inválida. Use o formato ABC1234 ou ABC1D23.',
    anttDocumentRequired: 'Por favor digite o CPF/CNPJ da ANTT',
    anttDocumentInvalid: 'CPF/CNPJ da ANTT inválido',
    rntrcRequired: 'Por favor digite o RNTRC da ANTT',
    rntrcInvalid: 'RNTRC inválido: deve ter 8 ou 9 dígitos',
    axlesInvalid: 'O número de eixos deve ser de 2 a 20',
    vehicleTypeMismatch: 'Tipo de veículo inválido: use 1 para 2 eixos e 2 para 3 eixos ou mais',
    invoiceGroupInvalid: 'Código do grupo de faturamento inválido',
    statusIdInvalid: 'Código de status inválido para esta ação',
    origemInvalid: "Origem inválida: use 'Pedagio motorista'",
    /** spec §9 / founding decision 16: shown for 60 s for Taggy tags whose serial starts with 5666. */
    greenpassWarning:
      'Atenção: as tags Greenpass da Taggy (iniciadas em 5666) estão sendo canceladas e devem ser substituídas por tags MoveMais. Entre em contato com o suporte.',
    notManageable: 'Esta tag é gerenciada pela operadora e não pode ser alterada pelo portal. Entre em contato com o suporte.',
    cannotBlock: 'Somente tags ativas podem ser bloqueadas',
    cannotRelease: 'Somente tags bloqueadas por você ou por mensalidade em aberto podem ser liberadas',
    cannotCancel: 'Esta tag já está cancelada',
    cannotActivate: 'Somente tags inativas podem ser ativadas',
    /** Issue 33: 'Ativar' asks first, the price and what it is said ('Ativar a tag {serial}' before it). */
    activateQuestionRest: (fee: string) => ` por ${fee} por mês? A mensalidade é debitada do seu saldo agora.`,
    cannotReplace: 'Não é possível substituir uma tag cancelada ou inativa',
    /** Why this tag cannot be edited, its state named ('ativa', 'bloqueada', 'cancelada'). */
    cannotEditState: 'Esta tag está {state}: somente tags inativas podem ser editadas',
    cannotRemove: 'Cancele a tag antes de excluí-la',
    sameSerial: 'O número da nova Tag deve ser diferente do atual',
    feePlaceName: 'Mensalidade da tag {serial}',
    feeWaiverPlaceName: 'Mensalidade da tag {serial} devolvida: uso só com VPO em {period}',
    /** Decision 53 (Ofício Circular ANTT 117/2025), on the tag's page. */
    vpoFree:
      'Usar esta tag para VPO não custa nada: o embarcador paga as passagens da viagem, a tag recebe VPOs mesmo bloqueada por mensalidade, e um mês em que ela só foi usada com VPO não paga mensalidade (o valor cobrado volta ao seu saldo).',
    blocked: 'Tag bloqueada com sucesso!',
    released: 'Tag liberada com sucesso!',
    cancelled: 'Tag cancelada com sucesso!',
    activated: 'Tag ativada com sucesso!',
    replaced: 'Tag substituída com sucesso!',
    removed: 'Exclusão de Tag/Veículo',
    removeFailed: 'Erro ao excluir Tag',
    operatorUnavailable: 'A operadora não respondeu. Tente novamente em instantes.',
    /** Friendly explanations of why an action is disabled (web). */
    whyNotManageable:
      'Esta tag pertence à operadora. Somente tags próprias ou tags Taggy iniciadas em 5666 podem ser gerenciadas pelo portal.',
  },
  vehicle: {
    notFound: 'Veículo não encontrado',
    deleted: 'Exclusão de Tag/Veículo',
    deleteFailed: 'Erro ao excluir Veículo',
    noTag: 'Sem tag',
    idInvalid: 'Veículo inválido',
  },
  dates: {
    invalidFormat: 'Invalid date format. Expected Date or string in ISO 8601 format.',
  },
} as const;
