/**
 * Texts only the server writes: its HTTP errors, rate limits, health and operations, the ledger's
 * refusals, and every Mensagem of an answer that the web app shows as it comes (the API's successes
 * and refusals, the partners' and the Pix provider's, the exports' and receipts' words). The same
 * catalogue as messages.ts, kept apart so that the web app, which never shows them from here, does
 * not ship them to every page (/login's budget, README). A text moves back to messages.ts when the
 * web app or the contract needs it.
 */
import { contestMessages } from './contests.js';
import { pixAutomaticMessages } from './pix-automatic.js';
import { pushSubscriptionMessages } from './notifications.js';

export const serverMessages = {
  /** Decision 56: contests of passages (domain contests.ts). */
  contest: contestMessages,
  /** Decision 58: the recurring top-up by Pix Automático (domain pix-automatic.ts). */
  pixAutomatic: pixAutomaticMessages,
  /** Decision 57: a device's push subscription (domain notifications.ts). */
  pushSubscription: pushSubscriptionMessages,
  limits: {
    tooManyRequests: 'Muitas requisições. Aguarde um pouco e tente novamente.',
  },
  balance: {
    ok: 'Saldo consultado com sucesso',
  },
  support: {
    greeting: 'Olá! Preciso de ajuda com o Portal do Motorista.',
  },
  web: {
    notBuilt: 'A aplicação web ainda não foi compilada. Execute `npm run build` na raiz do projeto (ou `npm start`) e recarregue a página.',
    /** Founding decision 28: the banner every page carries when DEMONSTRATION=true (plugins/web.ts). */
    demonstration: 'Demonstração: nenhum pagamento é real',
  },
  /** Founding decision 28: why a production start is refused, after the variable's name (production-settings.ts). */
  /** Decision 61: the start line says where the server listens. */
  startup: {
    listening: 'Portal do Motorista em {url}',
    thisMachineOnly: '(só nesta máquina; para abrir à rede, HOST=0.0.0.0)',
    everyInterface: '(em todas as interfaces da máquina, HOST={host})',
    oneAddress: '(no endereço {host})',
    /** São Paulo's time: the zone's data reads a summer time the arithmetic UTC−3 does not (domain dates.ts). */
    summerTimeInZoneData:
      'os dados de fuso horário leem horário de verão em São Paulo (a partir do dia {dia}): as datas passam a seguir esses dados, não mais UTC−3',
  },
  productionSettings: {
    shippedSecret:
      'é um valor publicado no próprio repositório (README, docs ou exemplos), que qualquer um conhece; gere outro, ex.: openssl rand -hex 32',
    secretTooShort: 'pelo menos {min} caracteres em produção; gere um, ex.: openssl rand -hex 32',
    /** Decision 61: a secret anyone could guess, and why. */
    secretGuessable: 'fácil de adivinhar ({reason}); gere um, ex.: openssl rand -hex 32',
    guessable: {
      fewDistinct: 'poucos caracteres diferentes',
      repeatedPattern: 'um trecho curto repetido',
      sequence: 'uma sequência, como 0123 ou abcd',
      lowEntropy: 'caracteres repetidos demais',
    },
    secretEqualTo:
      'igual a {other}: cada segredo precisa ser diferente (quem conhece um não pode usar o outro, ex.: quem envia eventos de pagamento aprovaria transferências); gere outro, ex.: openssl rand -hex 32',
    localPixProvider:
      'em produção use PIX_PROVIDER=asaas: com o provedor local (o padrão) qualquer um confirma um pagamento que não houve e saca o dinheiro. ' +
      'Para uma demonstração sem dinheiro real, declare DEMONSTRATION=true (todas as páginas dirão isso)',
    demoSeed: 'o motorista de demonstração tem a senha publicada no README; em produção, só com DEMONSTRATION=true',
    demonstrationWithRealMoney:
      'uma demonstração não usa o Asaas de produção (api.asaas.com), pois as páginas diriam que nenhum pagamento é real; use o sandbox (https://api-sandbox.asaas.com) ou PIX_PROVIDER=local',
    demonstrationStarted: 'DEMONSTRAÇÃO (DEMONSTRATION=true): nenhum pagamento é real, e todas as páginas dizem isso',
    /** Decision 57: the push notifications' VAPID keys and contact. */
    vapidRequired:
      'obrigatório em produção (notificações Web Push): gere o par com npx web-push generate-vapid-keys e informe VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY e VAPID_SUBJECT (mailto: ou https:)',
    /** Decision 72: LGPD art. 41 § 1 asks the encarregado's identity and contact published; the portal shows them. */
    privacyOfficerRequired:
      'obrigatório em produção (LGPD art. 41): o nome e o e-mail reais do encarregado pelos dados pessoais, que o Aviso de Privacidade mostra aos motoristas; informe PRIVACY_OFFICER_NAME e PRIVACY_OFFICER_EMAIL',
    privacyOfficerExample:
      'é o exemplo da documentação, não o encarregado real: informe o nome e o e-mail de quem responde pelos dados pessoais',
  },
  ledger: {
    limitExceeded: 'Movimento recusado: o saldo ficaria fora do limite permitido',
  },
  http: {
    badRequest: 'Requisição inválida',
    badUrl: 'Endereço inválido',
    urlTooLong: 'Endereço longo demais',
    bodyTooLarge: 'Os dados enviados são grandes demais',
    unsupportedMediaType: 'Envie os dados em JSON (Content-Type: application/json)',
    timeout: 'A requisição demorou demais para chegar. Tente novamente.',
    headersTooLarge: 'Os cabeçalhos da requisição são grandes demais',
    closing: 'O serviço está reiniciando. Tente novamente em instantes.',
  },
  operations: {
    alive: 'Serviço no ar',
    ready: 'Pronto para atender',
    databaseDown: 'Banco de dados inacessível',
    migrationsPending: 'Migrações pendentes: {migrations}. Execute npm run cli -- migrate ou reinicie o servidor.',
    metricsUnauthorized: 'Token de métricas ausente ou inválido.',
  },
  login: {
    throttled: 'Muitas tentativas de acesso. Aguarde alguns minutos e tente novamente.',
    ok: 'Login realizado com sucesso',
  },
  registration: {
    cpfCnpjTaken: 'Este CPF/CNPJ já está cadastrado',
    created: 'Conta criada com sucesso!',
  },
  terms: {
    noCurrentTerm: 'Nenhum termo de uso publicado no momento',
    termNotFound: 'Termo de uso não encontrado',
    notYours: 'Você só pode consultar a sua própria situação nos termos de uso',
    statusOk: 'Situação do termo consultada com sucesso',
    currentOk: 'Termo de uso vigente',
    fileOk: 'Arquivo do termo de uso',
    /** Founding decision 27: 403 of every call the contract marks requiresTerms. */
    notAccepted:
      'Aceite os Termos de Uso vigentes para continuar: sem o aceite não é possível movimentar o saldo nem alterar tags e veículos.',
  },
  session: {
    unauthorized: 'Sua sessão expirou. Entre novamente.',
    loggedOut: 'Sessão encerrada',
    forbidden: 'Acesso negado',
    notFound: 'Recurso não encontrado',
    invalidRequest: 'Dados inválidos',
  },
  idempotency: {
    keyReused: 'Esta chave de idempotência (Idempotency-Key) já foi usada com outros dados. Para uma nova operação, use outra chave.',
  },
  withdrawal: {
    termsNotAccepted: 'Para sacar o saldo é preciso aceitar os Termos de Uso.',
    alreadyProcessing: 'Você já tem um saque em processamento. Aguarde a conclusão para solicitar outro.',
    allowed: 'Saque disponível',
    notYourDocument: 'O saque só pode ser feito para a sua própria conta',
    done: 'Saque realizado com sucesso! O valor será enviado para a chave Pix informada.',
    processing: 'Saque solicitado! O valor será enviado para a chave Pix informada em instantes.',
    payoutFailed: 'Não foi possível concluir o saque: {reason}. O valor foi devolvido ao seu saldo.',
    providerUnavailable: 'o serviço de pagamentos não respondeu',
    payoutRejected: 'a transferência foi recusada pelo banco',
  },
  pix: {
    chargeCreated: 'Pix gerado com sucesso!',
    chargeNotFound: 'Cobrança Pix não encontrada',
    providerUnavailable: 'Não foi possível gerar o Pix agora. Tente novamente em instantes.',
    notYourDocument: 'O Pix só pode ser gerado para o CPF/CNPJ da sua conta',
    webhookUnauthorized: 'Token do webhook inválido',
    webhookProcessed: 'Evento processado',
    webhookIgnored: 'Evento ignorado',
    webhookRecorded: 'Evento registrado para análise do operador',
    /** Why an event was not applied (operator: pix:events). Nothing changed in any balance. */
    unapplied: {
      'unknown-charge': 'Cobrança não encontrada no portal; nenhum crédito lançado',
      'unknown-withdrawal': 'Saque não encontrado no portal; nada mudou',
      'amount-mismatch': 'Valor pago diferente do valor da cobrança; nenhum crédito lançado',
      'not-confirmed': 'O Asaas não confirmou o evento; nada mudou',
      'provider-unavailable': 'Não foi possível confirmar o evento com o Asaas; rode pix:reconcile',
      'refund-amount-unknown': 'Estorno parcial sem valor informado; nada foi retirado do saldo',
      'refund-before-credit': 'Estorno de uma cobrança que não foi creditada; nada foi retirado do saldo',
      'deleted-after-payment': 'Cobrança removida no Asaas depois de paga; o crédito foi mantido',
      chargeback: 'Contestação do pagamento (chargeback); nenhum valor retirado: acompanhe no painel do Asaas',
      'refund-in-progress': 'Estorno em andamento no Asaas; o valor sai do saldo quando o estorno for concluído',
      'transfer-blocked':
        'Transferência bloqueada no Asaas; o saque segue em processamento (libere no painel do Asaas ou use withdrawal:resolve)',
      contradiction:
        'O Asaas contradiz o que o portal já encerrou (saque ou cobrança); nenhum saldo mudou: confira e aplique com pix:contradiction:apply <id do saque ou da cobrança>',
      'reference-mismatch':
        'O evento cita uma transferência ou cobrança que não é a registrada no portal para essa referência; nada mudou (confira no painel do Asaas)',
      /** Decision 58: Pix Automático events. */
      'unknown-authorization': 'Autorização de Pix Automático não encontrada no portal; nada mudou',
      'unknown-instruction': 'Instrução de pagamento do Pix Automático de uma cobrança que não é do portal; nada mudou',
      'first-payment-unconfirmed':
        'Primeiro Pix de uma autorização de Pix Automático sem confirmação do Asaas (valor ou QR Code diferentes); nenhum crédito lançado',
    },
    /** The detail of a 'reference-mismatch' (ids only, never a key, a name or a document). */
    mismatch: {
      paymentOfAnother: (payment: string, charge: string) => `o pagamento ${payment} é da cobrança ${charge}`,
      chargeHasAnother: (charge: string) => `a cobrança ${charge} tem outro pagamento registrado`,
      transferOfAnother: (transfer: string, withdrawal: string) => `a transferência ${transfer} é do saque ${withdrawal}`,
      withdrawalHasAnother: (withdrawal: string) => `o saque ${withdrawal} tem outra transferência registrada`,
      providerReference: (reference: string | null) =>
        `o Asaas vincula o objeto a ${reference === null ? 'nenhuma referência' : `"${reference}"`}`,
      transferUnconfirmed: 'transferência não registrada no saque, e o provedor não a confirma com o valor e a chave do saque',
      authorizationOfAnother: (authorization: string) => `a autorização ${authorization} não é a do pagamento registrado`,
    },
    /** Decision 60: what a contradiction says (ids and statuses only). */
    contradiction: {
      withdrawal: (withdrawal: string, ours: string, theirs: string) => `saque ${withdrawal}: ${ours} no portal, ${theirs} no Asaas`,
      charge: (charge: string, ours: string, theirs: string) => `cobrança ${charge}: ${ours} no portal, ${theirs} no Asaas`,
    },
    chargeDescription: 'Compra de saldo - Portal do Motorista',
  },
  /**
   * Asaas's transfer validation (founding decision 25): why a transfer is refused, in the refuseReason Asaas
   * shows in its panel. Only a Pix transfer this portal created, as it created it, is approved.
   */
  transferValidation: {
    refused: {
      'not-a-transfer': 'Operação não criada pelo Portal do Motorista: só transferências Pix de saques são aprovadas',
      'not-pix': 'Só transferências Pix para a chave do saque são aprovadas',
      'unknown-withdrawal': 'Transferência não criada pelo Portal do Motorista: nenhum saque com esta referência',
      'other-transfer': 'O saque desta referência já tem outra transferência',
      'not-processing': 'O saque desta referência não está aguardando transferência',
      'value-mismatch': 'Valor diferente do saque solicitado no portal',
      'key-mismatch': 'Chave Pix diferente da do saque solicitado no portal',
    },
  },
  statement: {
    ok: 'Extrato consultado com sucesso',
    /** Decision 79: the plates the statement can be filtered by. */
    vehiclesOk: 'Placas dos veículos da conta',
    exportTitle: 'Extrato de movimentações',
    exportEmpty: 'Nenhuma movimentação no período',
    exportBusy: 'Já há uma exportação do seu extrato em andamento. Aguarde ela terminar e tente novamente.',
    exportServerBusy: 'Muitas exportações em andamento agora. Tente novamente em instantes.',
    /** The PDF's columns; the CSV's header row adds ' (R$)' to the two amounts (issue 12 export). */
    exportColumns: {
      date: 'Data',
      description: 'Descrição',
      kind: 'Tipo',
      account: 'Conta',
      value: 'Valor',
      balanceAfter: 'Saldo após',
      /** Decision 79: the vehicle an entry was for, and the cost centre it was posted to (the CSV's last columns). */
      plate: 'Placa',
      costCentre: 'Centro de custo',
    },
    exportLabels: {
      driver: 'Motorista',
      document: 'CPF/CNPJ',
      period: 'Período',
      kind: 'Tipo',
      /** Decision 79: the plate, cost centre or driver the export was filtered by. */
      whose: 'Filtro',
      openingBalance: 'Saldo inicial',
      closingBalance: 'Saldo final',
      openingThirdBalance: 'Saldo em outras plataformas inicial',
      closingThirdBalance: 'Saldo em outras plataformas final',
      openingVpoBalance: 'Saldo dos VPOs inicial (dinheiro dos embarcadores, não é seu saldo)',
      closingVpoBalance: 'Saldo dos VPOs final',
      totalsByKind: 'Totais por tipo',
      /** Issue 33: one line per account, never summed across accounts. */
      totalsByAccount: 'Totais do período por conta',
      total: 'Total do período',
      otherKind: 'Outros',
      movements: (n: number) => (n === 1 ? '1 movimentação' : `${n.toLocaleString('pt-BR')} movimentações`),
    },
  },
  pdf: {
    brand: 'Portal do Motorista',
    page: (n: number, total?: number) => (total === undefined ? `Página ${n}` : `Página ${n} de ${total}`),
  },
  receipt: {
    ok: 'Comprovante consultado com sucesso',
    purchaseNotPaid: 'Esta compra ainda não foi paga: o comprovante fica disponível quando o Pix for recebido',
    purchaseTitle: 'Comprovante de compra de saldo via Pix',
    withdrawalTitle: 'Comprovante de saque via Pix',
    automaticTitle: 'Comprovante de recarga automática via Pix',
    providers: { asaas: 'Asaas', local: 'Portal (ambiente local)' },
  },
  attention: {
    ok: 'Avisos consultados com sucesso',
    tagBlockedForFee: (plate: string) => `A tag do veículo ${plate} está bloqueada por falta de pagamento da mensalidade`,
    lowBalance: (level: string) => `Seu saldo de pedágio está abaixo do seu nível de alerta (${level})`,
    /**
     * Issue 25: what a balance below zero means. A passage is never refused for it (the truck already
     * passed: founding architecture §4), a VPO pays its trip first (decision 52), and the month's fee is
     * a guarded debit: without it the billing blocks the tag (founding decision 13).
     */
    negativeBalance: (balance: string, fee: string) =>
      `Seu saldo de pedágio está negativo (${balance}). As passagens continuam sendo debitadas do saldo (fora de um VPO) e o deixam mais negativo; no início do mês, a tag sem saldo para a mensalidade (${fee}) é bloqueada e suas passagens deixam de ser aceitas. Compre saldo para cobrir o valor.`,
    pendingPurchase: (value: string) => `Sua compra de ${value} aguarda o pagamento do Pix`,
    /** Decision 52 (issue 23's words). */
    shortVpo: (shipper: string, value: string) => `VPO de ${shipper} insuficiente: ${value} pagos do seu saldo`,
    /** Decision 56: a passage flagged on arrival as a possible double charge. */
    possibleDuplicate: (place: string, value: string, when: string) => `Possível cobrança duplicada: ${place}, ${value} em ${when}`,
  },
  settings: {
    ok: 'Preferências consultadas com sucesso',
  },
  /** Issue 21, point 4: calls that cost the operator money, per driver. */
  payouts: {
    tooManyWithdrawals: (minutes: number) =>
      `Você fez muitos saques na última hora. Tente de novo em ${minutes} minuto${minutes === 1 ? '' : 's'}.`,
    tooManyCharges: (minutes: number) =>
      `Você gerou muitos Pix na última hora. Tente de novo em ${minutes} minuto${minutes === 1 ? '' : 's'}.`,
    tooManyPending: (max: number) => `Você já tem ${max} Pix aguardando pagamento. Pague um deles ou espere que expire para gerar outro.`,
  },
  vpo: {
    ok: 'VPOs consultados com sucesso',
    found: 'VPO consultado com sucesso',
    notFound: 'VPO não encontrado',
  },
  partner: {
    keyMissing: 'Informe a chave de API no cabeçalho X-Api-Key',
    keyInvalid: 'Chave de API inválida ou revogada',
    wrongKind: 'Esta chave de API não tem permissão para esta operação',
    vpoNotFound: 'VPO não encontrado',
    vpoIssued: 'VPO registrado com sucesso',
    vpoUpdated: 'VPO atualizado com sucesso',
    vpoStatusUnchanged: 'O VPO já está com este status; nada foi alterado',
    passageRecorded: 'Passagem registrada com sucesso',
    movementRecorded: 'Movimento registrado com sucesso',
    duplicate: 'Já recebido anteriormente; nada foi alterado',
    operatorUnscoped: 'Esta chave de operadora não está vinculada a nenhuma operadora. Peça ao portal que vincule a chave à sua operadora.',
    operatorTagNotFound: 'Nenhuma tag desta operadora com este número (serialNumber)',
    tagNotActive: 'Esta tag não está ativa: passagens e VPOs só são aceitos para tags ativas',
    /** Issue 21, point 7: an unknown serial and a known serial with another plate get this one answer. */
    vpoTagNotFound: 'Nenhuma tag cadastrada com este número (serialNumber) para esta placa (PlacaVeiculo)',
    /** 409 of a VPO status change the state machine refuses (domain vpoTransitionRefusal). */
    vpoTransitionRefused: 'Um VPO {from} não pode passar para {to}',
    /** Decision 52: the carrier's RNTRC must be the one registered on the tag's vehicle. */
    rntrcMismatch: 'O RNTRC informado não é o do veículo desta tag',
    /** Decision 52: a tag blocked for an unpaid fee (204) still takes VPOs and the passages they pay. */
    tagNotActiveForPassage: 'Esta tag está bloqueada: só passagens pagas por um VPO aberto são aceitas',
    externalIdConflict: 'Este externalId já foi usado com outros dados. Para um novo envio, use outro externalId.',
    /** Decision 55: the answer of a batch of passages, each item answered as the single call would. */
    batchProcessed: (accepted: number, replayed: number, refused: number) =>
      `Lote processado. Aceitas: ${accepted}; repetidas: ${replayed}; recusadas: ${refused}.`,
  },
  tag: {
    operatorUnknown: 'Operadora não encontrada. Selecione uma operadora da lista.',
    modelUnknown: 'Modelo não encontrado. Selecione um modelo da lista.',
    documentMismatch: 'O CPF/CNPJ informado não é o da sua conta',
    notFound: 'Tag não encontrada',
    serialUnavailable: 'Esta tag não está disponível para cadastro. Confira o número da tag ou fale com a operadora.',
    serialYours: 'Esta tag já está cadastrada em um dos seus veículos',
    plateHasTag: 'Este veículo já possui uma tag. Cancele e exclua a tag atual antes de cadastrar outra.',
    cannotEdit: 'Somente tags inativas (e não canceladas) podem ser editadas',
    plateMismatch: 'A placa informada não é a do veículo desta tag',
    insufficientBalance: 'Saldo insuficiente para ativar a tag. Compre créditos e tente novamente.',
    insufficientBalanceRelease: 'Saldo insuficiente para pagar a mensalidade em aberto e liberar a tag. Compre créditos e tente novamente.',
    listOk: 'Tags consultadas com sucesso',
    registered: 'Sucesso!',
    edited: 'Sucesso!',
    operatorsOk: 'Operadoras consultadas com sucesso',
    modelsOk: 'Modelos consultados com sucesso',
  },
  vehicle: {
    listOk: 'Veículos consultados com sucesso',
    detailOk: 'Veículo consultado com sucesso',
    passagesOk: 'Passagens dos veículos consultadas com sucesso',
    plateTaken: 'Você já tem um veículo com esta placa',
    hasLiveTag: 'Este veículo tem uma tag ativa ou bloqueada. Cancele a tag antes de excluir o veículo.',
  },
} as const;
