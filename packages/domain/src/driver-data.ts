/**
 * Issue 35, point 1 (LGPD art. 18, I, II and V; art. 19): 'Meus dados', everything the portal
 * holds about the driver in one ZIP: a JSON file per kind and a PDF summary in Portuguese.
 */

/** Downloads a driver may start in 24 hours: enough to retry a broken one, not to load the server. */
export const DRIVER_DATA_EXPORTS_PER_DAY = 5;

/** Sessions and access records go back this many months (Marco Civil da Internet, art. 15). */
export const ACCESS_RECORDS_MONTHS = 6;

/** The kinds in the ZIP, in the order the summary lists them: the file's name, what it is, what it holds. */
export const DRIVER_DATA_KINDS = {
  profile: {
    file: 'cadastro.json',
    title: 'Cadastro',
    holds: 'Nome, CPF/CNPJ, telefone, data do cadastro, saldos, nível de alerta e correções de dados',
  },
  terms: { file: 'termos-de-uso.json', title: 'Termos de uso', holds: 'Cada aceite ou recusa, com a versão e a data' },
  sessions: { file: 'sessoes.json', title: 'Sessões', holds: 'Entradas no portal dos últimos 6 meses: início, validade e saída' },
  access: {
    file: 'registros-de-acesso.json',
    title: 'Registros de acesso',
    holds: 'Data, hora e endereço IP de cada entrada, cadastro e download dos seus dados, dos últimos 6 meses',
  },
  pixKeys: { file: 'chaves-pix.json', title: 'Chaves Pix', holds: 'As chaves Pix salvas para saque' },
  payoutLimits: {
    file: 'limites-de-saque.json',
    title: 'Limites de saque',
    holds: 'Os limites que você alterou e os aumentos que aguardam',
  },
  vehicles: { file: 'veiculos.json', title: 'Veículos', holds: 'Placa, eixos, tipo e dados da ANTT de cada veículo, inclusive excluídos' },
  tags: { file: 'tags.json', title: 'Tags', holds: 'Número, operadora, situação, ativação, cancelamento e exclusão de cada tag' },
  tagFees: { file: 'mensalidades-das-tags.json', title: 'Mensalidades das tags', holds: 'Cada mensalidade cobrada, paga ou dispensada' },
  tagUsage: {
    file: 'uso-das-tags-por-mes.json',
    title: 'Uso das tags por mês',
    holds: 'Passagens de cada tag por mês, pagas por VPO ou não',
  },
  movements: {
    file: 'movimentacoes.json',
    title: 'Movimentações',
    holds: 'Todas as movimentações do extrato, com conta, valor, origem e data',
  },
  purchases: {
    file: 'compras-pix.json',
    title: 'Compras de crédito',
    holds: 'Cada cobrança Pix de compra de crédito e o que aconteceu com ela',
  },
  withdrawals: { file: 'saques.json', title: 'Saques', holds: 'Cada saque por Pix: valor, chave, recebedor e situação' },
  vpos: { file: 'vpos.json', title: 'VPOs', holds: 'Cada Vale-Pedágio recebido: embarcador, viagem, valores usados e devolvidos' },
  passages: { file: 'passagens.json', title: 'Passagens', holds: 'Cada passagem de pedágio: praça, data, valor e tag' },
  passagePayments: {
    file: 'pagamentos-das-passagens.json',
    title: 'Pagamentos das passagens',
    holds: 'De qual conta saiu cada passagem e o que foi devolvido',
  },
  freeFlowTolls: {
    file: 'pedagios-sem-cancela.json',
    title: 'Pedágios sem cancela',
    holds: 'Cada pedágio sem cancela enviado por uma concessionária para as suas placas: pórtico, data, valor, vencimento e pagamento',
  },
  contests: {
    file: 'contestacoes.json',
    title: 'Contestações',
    holds: 'Cada contestação, o motivo, a resposta da operadora e o valor devolvido',
  },
  pushDevices: {
    file: 'aparelhos-com-notificacoes.json',
    title: 'Aparelhos com notificações',
    holds: 'Os aparelhos que recebem notificações (sem as chaves secretas)',
  },
  notices: { file: 'avisos.json', title: 'Avisos', holds: 'Os avisos enviados a você por notificação' },
  automaticTopUps: {
    file: 'recarga-automatica.json',
    title: 'Recarga automática',
    holds: 'Cada autorização de Pix Automático: valor, frequência e situação',
  },
  automaticTopUpCycles: {
    file: 'recarga-automatica-ciclos.json',
    title: 'Ciclos da recarga automática',
    holds: 'Cada débito agendado da recarga automática e seu resultado',
  },
  fleet: {
    file: 'empresas.json',
    title: 'Empresas e frota',
    holds:
      'As empresas de que você participa e o seu papel; na conta de uma empresa, os membros e convites, os veículos atribuídos, os centros de custo e a dupla aprovação de saques',
  },
  audit: {
    file: 'registro-de-acoes.json',
    title: 'Registro de ações',
    holds: 'As ações feitas na conta da empresa, e as suas numa empresa: quem, o quê, quando, de onde, antes e depois',
  },
} as const;

export type DriverDataKind = keyof typeof DRIVER_DATA_KINDS;

export const driverDataMessages = {
  /** Configurações' section. */
  section: {
    heading: 'Meus dados',
    text:
      'Baixe tudo o que o portal guarda sobre você: cadastro, acessos dos últimos 6 meses, chaves Pix, veículos, tags, ' +
      'movimentações, compras, saques, VPOs, passagens, pedágios sem cancela, contestações e avisos.',
    format: 'Vem num arquivo ZIP com um resumo em PDF e os dados em arquivos JSON, que outro serviço pode abrir.',
    button: 'Baixar meus dados',
    preparing: 'Preparando seus dados...',
    limit: `Até ${DRIVER_DATA_EXPORTS_PER_DAY} downloads por dia.`,
    downloaded: (fileName: string) => `Seus dados foram baixados: ${fileName}.`,
  },
  busy: 'Seus dados já estão sendo preparados. Aguarde o download terminar e tente novamente.',
  serverBusy: 'Muitos downloads de dados em andamento agora. Tente novamente em instantes.',
  dailyLimit: `Você já baixou seus dados ${DRIVER_DATA_EXPORTS_PER_DAY} vezes nas últimas 24 horas. Tente novamente amanhã.`,
  fileName: (day: string) => `meus-dados-${day}.zip`,
  summary: {
    title: 'Meus dados',
    intro:
      'Este arquivo reúne tudo o que o Portal do Motorista guarda sobre você (Lei Geral de Proteção de Dados, art. 18 e 19). ' +
      'Cada tipo de dado está em um arquivo JSON dentro do ZIP, que pode ser aberto por outro serviço.',
    you: 'Você',
    name: 'Nome',
    document: 'CPF/CNPJ',
    phone: 'Telefone',
    since: 'Cadastro em',
    balances: 'Saldos',
    balanceOwn: 'Saldo',
    balanceThird: 'Saldo em outras plataformas',
    balanceVpo: 'Em VPOs',
    files: 'Arquivos deste ZIP',
    records: (n: number) => (n === 1 ? '1 registro' : `${n.toLocaleString('pt-BR')} registros`),
    notExported: 'O que não vai no ZIP',
    notExportedItems: [
      'Sua senha: guardamos só uma versão embaralhada (hash), que não serve para entrar e não é sua senha.',
      'As chaves secretas das notificações e os códigos das sessões: protegem sua conta e não dizem nada sobre você.',
      'Cópias técnicas de respostas e somas de controle: repetem o que já está nos arquivos.',
    ],
    rights: 'Seus direitos',
    rightsItems: [
      'Corrigir nome e telefone: Configurações, Seus dados.',
      'Encerrar a conta: Configurações, Encerrar conta.',
      'Dúvidas sobre seus dados: fale com o encarregado indicado no Aviso de Privacidade.',
    ],
  },
} as const;
