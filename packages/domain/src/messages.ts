/** Every text a driver reads that comes from a rule: SPEC.md sections 5 and 8, verbatim. */
export const messages = {
  login: {
    cpfCnpjRequired: 'Por favor digite seu CPF/CNPJ',
    passwordRequired: 'Por favor digite sua senha',
    invalidCredentials: 'Usuário ou senha incorretos',
    throttled:
      'Muitas tentativas de acesso. Aguarde alguns minutos e tente novamente.',
    ok: 'Login realizado com sucesso',
  },
  balance: {
    ok: 'Saldo consultado com sucesso',
  },
  support: {
    greeting: 'Olá! Preciso de ajuda com o Portal do Motorista.',
  },
  web: {
    notBuilt:
      'A aplicação web ainda não foi compilada. Execute `npm run build` na raiz do projeto (ou `npm start`) e recarregue a página.',
  },
  registration: {
    nameTooShort: 'Por favor digite seu nome completo',
    cpfCnpjRequired: 'Por favor insira seu CPF ou CNPJ',
    cpfInvalid: 'CPF inválido',
    cnpjInvalid: 'CNPJ inválido',
    cpfCnpjTaken: 'Este CPF/CNPJ já está cadastrado',
    phoneRequired: 'Por favor insira seu telefone',
    phoneInvalid: 'Número de telefone inválido',
    passwordTooShort: 'Digite uma senha de pelo menos 8 caracteres',
    passwordMismatch: 'As senhas não coincidem',
    failed: 'Não foi possível criar sua conta. Confira os campos destacados.',
    created: 'Conta criada com sucesso!',
  },
  terms: {
    acceptFailed: 'Falha ao aceitar o termo',
    rejectFailed: 'Falha ao rejeitar o termo',
    genericError: 'Ocorreu um erro ao processar sua solicitação',
    accepted: 'Termo aceito com sucesso!',
    rejected: 'Termo rejeitado. O acesso ficará restrito até que você aceite os Termos de Uso.',
    noCurrentTerm: 'Nenhum termo de uso publicado no momento',
    termNotFound: 'Termo de uso não encontrado',
    notYours: 'Você só pode consultar a sua própria situação nos termos de uso',
    statusOk: 'Situação do termo consultada com sucesso',
    currentOk: 'Termo de uso vigente',
    fileOk: 'Arquivo do termo de uso',
  },
  session: {
    unauthorized: 'Sua sessão expirou. Entre novamente.',
    loggedOut: 'Sessão encerrada',
    forbidden: 'Acesso negado',
    notFound: 'Recurso não encontrado',
    invalidRequest: 'Dados inválidos',
    internalError: 'Ocorreu um erro inesperado. Tente novamente em instantes.',
  },
  withdrawal: {
    amountRequired: 'Digite um valor para realizar o saque',
    amountAboveBalance: 'O valor do saque não pode ser maior que o saldo disponível',
    keyTypeRequired: 'Por favor selecione o tipo da chave primeiro',
    keyRequired: 'Por favor digite a chave pix para sacar seu saldo',
    keyInvalid: 'Digite uma chave pix válida',
    insufficientBalance: 'Valor do saldo insuficiente para saque',
  },
  purchase: {
    amountRequired: 'Por favor digite o valor que deseja comprar de saldo',
    belowMinimum: 'O valor mínimo para compra de saldo é de R$ 100,00',
  },
  tag: {
    serialRequired: 'Por favor digite a Tag a ser ativada',
    greenpassRefused: 'Não é possivel cadastrar tags Greenpass',
    operatorRequired: 'Por favor selecione a Operadora da Tag',
    plateRequired: 'Por favor digite a Placa do veículo',
    axlesRequired: 'Por favor selecione o número de eixos',
    modelRequired: 'Por favor selecione o modelo',
    replaceSerialInvalid: 'Digite o número da nova Tag para substituir',
  },
  dates: {
    invalidFormat: 'Invalid date format. Expected Date or string in ISO 8601 format.',
  },
} as const;
