/**
 * Decision 76 (free flow, 'pedágio sem cancela'): the screens' own words (titles, labels, names of
 * controls), as each feature keeps its screens' texts; what the server also says (states, refusals,
 * the consent) is the domain's freeFlowMessages. Here, in lib/, because the free-flow screen, the
 * dashboard, Configurações, Veículos and the statement's passages all read them (a feature does not
 * import another).
 */
import { formatCalendarDay, freeFlowPayerLabels } from '@portal/domain';

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/** 'faltam 3 dias' from the toll's diasRestantes (0 on the due day, negative once past). */
export function daysLeftText(days: number): string {
  if (days === 0) return 'vence hoje';
  if (days === 1) return 'vence amanhã';
  if (days > 1) return `faltam ${days} dias`;
  return days === -1 ? 'venceu há 1 dia' : `venceu há ${-days} dias`;
}

/** 'AAAA-MM-DD' as dd/mm/aaaa; the text itself when it is not a day. */
export function dueDayText(day: string): string {
  try {
    return formatCalendarDay(day);
  } catch {
    return day;
  }
}

/** 123.4 -> '123,4' (a gantry's km, up to 3 decimals). */
function kmText(km: number): string {
  return new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 3 }).format(km);
}

/** Who paid a toll (pagoPor: the domain's freeFlowPayerLabels); an unknown code as it came. */
export function payerLabel(code: string): string {
  return (freeFlowPayerLabels as Record<string, string>)[code] ?? code;
}

export const freeFlowTexts = {
  /** /livre-passagem. */
  title: 'Pedágios sem cancela',
  subtitle: 'Pedágios cobrados pela placa nos pórticos sem cancela. Pague até o vencimento para não virar multa.',
  summaryLabel: 'Resumo dos pedágios sem cancela',
  owed: 'A pagar',
  openCount: (n: number) => `${plural(n, 'pedágio', 'pedágios')} em aberto`,
  overdueCount: (n: number) => plural(n, 'vencido', 'vencidos'),
  nearestDue: 'Próximo vencimento',
  nothingOwed: 'Nada a pagar',
  flaggedCount: (n: number) => (n === 1 ? '1 cobrança pode ser indevida' : `${n} cobranças podem ser indevidas`),
  filterPlate: 'Placa',
  allPlates: 'Todas',
  filterState: 'Estado',
  allStates: 'Todos',
  loading: 'Carregando os pedágios sem cancela...',
  failed: 'Não foi possível carregar os pedágios sem cancela.',
  empty: 'Nenhum pedágio sem cancela das suas placas até agora.',
  emptyFiltered: 'Nenhum pedágio sem cancela com estes filtros.',
  offTitle: 'O pedágio sem cancela está desligado nas suas placas',
  offBody:
    'Ligue “Pedágio sem cancela” em cada veículo (em Veículos ou em Configurações): as concessionárias passam a enviar ao portal as passagens da placa pelos pórticos sem cancela, e você as vê e paga aqui com o seu Saldo antes do vencimento.',
  /** Decision 77: a Motorista cannot turn it on; the company's Gestor can. */
  offTitleMember: 'O pedágio sem cancela está desligado nas placas dos seus veículos',
  offBodyMember:
    'Quem liga “Pedágio sem cancela” nos veículos da empresa é um Gestor. Com ele ligado, as passagens da placa pelos pórticos sem cancela aparecem aqui, e você pode contestá-las e tirar o comprovante.',
  offVehicles: 'Ligar nos veículos',
  offSettings: 'Abrir Configurações',
  /** One toll. */
  highwayKm: (rodovia: string, km: number) => `${rodovia}, km ${kmText(km)}`,
  direction: (sentido: string) => `sentido ${sentido}`,
  plate: 'Placa',
  passage: 'Passagem',
  value: 'Valor',
  due: 'Vencimento',
  paidAt: 'Pago em',
  paidBy: 'Pago com',
  waitingBalance: 'Saldo insuficiente: este pedágio será pago assim que entrar dinheiro no seu Saldo.',
  buyCredit: 'Comprar saldo',
  pay: 'Pagar',
  payName: (value: string, portico: string) => `Pagar ${value} do pedágio em ${portico}`,
  payTitle: 'Pagar pedágio sem cancela',
  payQuestion: (value: string, portico: string, plate: string) => `Pagar ${value} do pedágio sem cancela em ${portico}, placa ${plate}?`,
  payFrom: 'O valor é pago com o seu Saldo (o saldo de pedágio), agora.',
  receipt: 'Ver comprovante',
  receiptName: (portico: string) => `Ver comprovante do pagamento do pedágio em ${portico}`,
  proof: 'Comprovante para recurso',
  proofName: (portico: string) => `Comprovante para recurso do pedágio em ${portico}`,
  contest: 'Contestar',
  contestName: (portico: string) => `Contestar a cobrança do pedágio em ${portico}`,
  contestTitle: 'Contestar cobrança',
  contestIntro: 'Toque no motivo: a contestação é enviada à concessionária na hora.',
  /** The vehicle's choice (Veículos, Configurações). */
  optInName: (plate: string) => `Pedágio sem cancela da placa ${plate}`,
  autoPayName: (plate: string) => `Pagar automaticamente os pedágios sem cancela da placa ${plate}`,
  consentTitle: 'Ligar pedágio sem cancela',
  consentTitleAll: 'Ligar pedágio sem cancela em todas as placas',
  consentPlate: (plate: string) => `Placa ${plate}`,
  consentConfirm: 'Autorizar',
  offTitleDialog: 'Desligar pedágio sem cancela',
  offQuestion: (plate: string) =>
    `Desligar “Pedágio sem cancela” da placa ${plate}? Os débitos em aberto guardados desta placa são apagados do portal: se houver algum, pague-o no site da concessionária.`,
  offConfirm: 'Desligar',
  since: (when: string) => `Ligado desde ${when}`,
  allOn: 'Ligar em todas as placas',
  allOnDone: 'Ligado em todas as placas',
  platesFailed: 'Não foi possível carregar suas placas',
  platesEmpty: 'Nenhum veículo cadastrado. Cadastre um veículo para ligar o pedágio sem cancela na placa dele.',
  addVehicle: 'Cadastrar veículo',
  choiceUnavailable: 'Indisponível agora',
  sectionIntro:
    'Ligue por placa para receber aqui os pedágios dos pórticos sem cancela (cobrados pela placa, sem parar) e pagá-los com o seu Saldo. Com “Pagar automaticamente”, cada um é pago assim que chega, se houver saldo.',
  /** The dashboard. */
  tileHint: 'Cobrados pela placa',
  tileOwed: (value: string) => `${value} a pagar`,
  tileOff: 'Desligado',
  noticeOverdue: (n: number) => `${plural(n, 'pedágio sem cancela vencido', 'pedágios sem cancela vencidos')}: risco de multa por evasão`,
  noticeOpen: (n: number, value: string, due: string) =>
    `${plural(n, 'pedágio sem cancela', 'pedágios sem cancela')} em aberto: ${value}, vence em ${due}`,
  noticeAction: 'Pagar',
  noticeActionName: 'Pagar os pedágios sem cancela',
  /** A tag passage's proof (the statement, a VPO's passages). */
  passageProof: 'Comprovante para recurso',
  passageProofName: (place: string, when: string) => `Comprovante para recurso da passagem por ${place} de ${when}`,
  /** /verificar/:codigo. */
  verifyTitle: 'Verificação de comprovante',
  verifyIntro: 'Confira os fatos do comprovante para recurso emitido pelo Portal do Motorista com este código.',
  verifyLoading: 'Verificando o código...',
  verifyNotFoundBody:
    'Confira o código digitado ou leia de novo o QR Code do comprovante. Um comprovante alterado ou inventado não é encontrado.',
  verifyFailed: 'Não foi possível verificar o comprovante agora.',
  verifyOffline: 'Sem conexão: a verificação é feita quando o sinal voltar.',
  verifyHome: 'Ir para o Portal do Motorista',
} as const;
