import type { Cents } from './money.js';
import { formatBrl } from './money.js';
import type { RefundPart } from './contests.js';
import { refundPartsText } from './contests.js';
import type { ProfileField } from './profile.js';
import { changedFieldsText } from './profile.js';
import type { FreeFlowPayer } from './free-flow.js';
import type { BudgetAlertPercent } from './vehicle-budgets.js';
import { vehicleBudgetMessages } from './vehicle-budgets.js';

/** An automatic free-flow payment's source, in a push ('pagos com o seu saldo de pedágio'). */
const paidWith: Record<FreeFlowPayer, string> = {
  SALDO: 'com o seu saldo de pedágio',
  VPO: 'pelo VPO da viagem',
  VPO_E_SALDO: 'pelo VPO da viagem e pelo seu saldo de pedágio',
};

/**
 * Issue 25: what the portal tells a driver by Web Push. The server keeps one of these per event in
 * its outbox (in the event's own transaction) and sends the text below; the ids name the event, so
 * the same event recorded twice (an idempotent replay) is one notification.
 */
export type DriverNotification =
  | { kind: 'passageDebited'; passageId: number; place: string; amountCents: Cents; at: string }
  | { kind: 'pixReceived'; chargeId: string; amountCents: Cents }
  | { kind: 'withdrawalDone'; withdrawalId: string; amountCents: Cents }
  | { kind: 'withdrawalReturned'; withdrawalId: string; amountCents: Cents }
  | { kind: 'pixKeySaved'; keyId: number; maskedKey: string }
  /** `entryId`: the debit that took the balance below the level (one notice per crossing). */
  | { kind: 'balanceBelowAlert'; entryId: number; balanceCents: Cents; alertCents: Cents }
  /** `feeId`: the unpaid fee charge that blocked the tag. */
  | { kind: 'tagBlockedUnpaidFee'; feeId: number; licensePlate: string }
  | { kind: 'vpoReceived'; vpoId: number; shipper: string; amountCents: Cents }
  /** Once per VPO: its money ran out and a passage of its trip was paid (partly) from the balance. */
  | { kind: 'vpoRunningShort'; vpoId: number; shipper: string; paidFromBalanceCents: Cents }
  /** `parts`: where the refund went (issue 33); absent in notices queued before it was told. */
  | { kind: 'contestAnswered'; contestId: number; accepted: boolean; refundedCents: Cents; parts?: RefundPart[] }
  /** Pix Automático: `receiptId` is the receipt's id (a purchase's, /comprovantes/compra/:id). */
  | { kind: 'pixAutoCyclePaid'; cycleId: string; amountCents: Cents; receiptId: string }
  | { kind: 'pixAutoCycleFailed'; cycleId: string; reason: string }
  | { kind: 'pixAutoAuthorizationActive'; authorizationId: string }
  | { kind: 'pixAutoAuthorizationCancelled'; authorizationId: string }
  /** Issue 35: the driver's name or phone corrected in Configurações (`changeId`: the change's record). */
  | { kind: 'profileChanged'; changeId: number; fields: ProfileField[] }
  /** Decision 78: a company vehicle's month reached 80 % or 100 % of its budget (to the company's Gestores). */
  | {
      kind: 'vehicleBudgetReached';
      vehicleId: number;
      plate: string;
      period: string;
      percent: BudgetAlertPercent;
      spentCents: Cents;
      budgetCents: Cents;
    }
  /** Decision 78: the vehicle's tag blocked at 100 % of its budget (to its Gestores and Motoristas). */
  | { kind: 'vehicleBudgetBlocked'; blockId: number; plate: string }
  /** Decision 76: a free-flow toll of an opted-in plate: arrived, paid, short of Saldo, near or past its deadline. */
  | ({ kind: 'freeFlowToll'; tollId: number; plate: string; gantry: string; amountCents: Cents; dueDay: string } & (
      | { event: Exclude<FreeFlowTollEvent, FreeFlowReminder | 'paid'> }
      /** `payer`: where the automatic payment's money came from. */
      | { event: 'paid'; payer: FreeFlowPayer }
      /** `daysLeft`: to the deadline when it was sent (a 'five' sent late says 2 to 4, a 'one' on the day 0). */
      | { event: FreeFlowReminder; daysLeft: number }
    ));

/** What happened to a free-flow toll that the driver is told of. */
export type FreeFlowTollEvent = 'new' | 'paid' | 'short' | 'five' | 'one' | 'overdue';
/** The reminders before the deadline. */
type FreeFlowReminder = 'five' | 'one';

export type DriverNotificationKind = DriverNotification['kind'];

/**
 * Issue 33: what an event changed, as the open app's reads name it. Every push carries the topics
 * of its event; the service worker hands them to the portal's open windows, which read again the
 * screens that show them (web lib/liveUpdates.ts). Names only: nothing about the driver.
 */
export const LIVE_TOPICS = [
  /** Saldo, Saldo em outras plataformas, what can be withdrawn. */
  'balance',
  /** The statement's rows and receipts. */
  'statement',
  /** The Recarga automática: its state, next debit and cycles. */
  'automatic',
  'withdrawals',
  'contests',
  'tags',
  'vpos',
  'pixKeys',
  /** The driver's name and phone (Configurações, the header). */
  'profile',
  /** The dashboard's notices and last movements. */
  'notices',
  /** Decision 76: the free-flow tolls of the driver's plates. */
  'freeFlow',
] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

const TOPICS_OF: Record<DriverNotificationKind, readonly LiveTopic[]> = {
  passageDebited: ['balance', 'statement', 'vpos', 'tags'],
  pixReceived: ['balance', 'statement'],
  withdrawalDone: ['withdrawals', 'statement'],
  withdrawalReturned: ['withdrawals', 'balance', 'statement'],
  pixKeySaved: ['pixKeys'],
  balanceBelowAlert: ['balance'],
  tagBlockedUnpaidFee: ['tags', 'balance', 'statement'],
  vpoReceived: ['vpos', 'statement'],
  vpoRunningShort: ['vpos', 'balance', 'statement'],
  contestAnswered: ['contests', 'balance', 'statement', 'vpos'],
  pixAutoCyclePaid: ['automatic', 'balance', 'statement'],
  pixAutoCycleFailed: ['automatic'],
  pixAutoAuthorizationActive: ['automatic'],
  pixAutoAuthorizationCancelled: ['automatic'],
  profileChanged: ['profile'],
  freeFlowToll: ['freeFlow', 'balance', 'statement'],
  vehicleBudgetReached: ['notices'],
  vehicleBudgetBlocked: ['tags'],
};

/** The topics one or several notifications (a group of passages) changed, in LIVE_TOPICS order; the notices always. */
export function liveTopicsOf(notifications: readonly DriverNotification[]): LiveTopic[] {
  const changed = new Set<LiveTopic>(['notices']);
  for (const n of notifications) for (const topic of TOPICS_OF[n.kind]) changed.add(topic);
  return LIVE_TOPICS.filter((topic) => changed.has(topic));
}

/** What one notification shows: the pushPayload of the contract without its date. */
export interface NotificationMessage {
  titulo: string;
  corpo: string;
  /** A path of the portal, opened when the driver taps it. */
  url: string;
  /** The same tag replaces the earlier notification on the device. */
  tag: string;
}

export type PassageNotice = Extract<DriverNotification, { kind: 'passageDebited' }>;

/** Texts of the notifications (Portuguese, as the driver reads them). */
export const notificationTexts = {
  passageTitle: 'Passagem debitada',
  passagesTitle: (count: number, total: string) => `${count} passagens: ${total}`,
  passagesBody: (places: string) => `${places}. Debitadas do seu saldo de pedágio.`,
  passageBody: (place: string, amount: string) => `${place}: ${amount} debitados do seu saldo de pedágio.`,
  pixReceivedTitle: 'Pix recebido',
  pixReceivedBody: (amount: string) => `${amount} entraram no seu saldo de pedágio.`,
  withdrawalDoneTitle: 'Saque concluído',
  withdrawalDoneBody: (amount: string) => `Seu saque de ${amount} foi enviado para a sua chave Pix.`,
  withdrawalReturnedTitle: 'Saque devolvido',
  withdrawalReturnedBody: (amount: string) =>
    `Seu saque de ${amount} não foi concluído e o valor voltou para o seu saldo. Veja o motivo no comprovante.`,
  pixKeySavedTitle: 'Nova chave Pix salva',
  pixKeySavedBody: (key: string) => `A chave ${key} foi salva para saques. Se não foi você, remova-a em Configurações e troque sua senha.`,
  balanceBelowAlertTitle: 'Saldo abaixo do alerta',
  balanceBelowAlertBody: (balance: string, alert: string) =>
    `Seu saldo de pedágio é ${balance}, abaixo do seu alerta de ${alert}. Compre saldo para seguir viagem.`,
  balanceNegativeTitle: 'Saldo negativo',
  balanceNegativeBody: (balance: string) =>
    `Seu saldo de pedágio está negativo (${balance}): as próximas passagens o deixam mais negativo e, sem saldo para a mensalidade, a tag é bloqueada. Compre saldo para cobrir o valor.`,
  tagBlockedTitle: 'Tag bloqueada',
  tagBlockedBody: (plate: string) => `A tag do veículo ${plate} foi bloqueada porque a mensalidade não foi paga.`,
  vpoReceivedTitle: 'VPO recebido',
  vpoReceivedBody: (shipper: string, amount: string) => `${shipper} enviou um Vale-Pedágio de ${amount} para a sua viagem.`,
  vpoRunningShortTitle: 'Vale-Pedágio acabando',
  vpoRunningShortBody: (shipper: string, amount: string) =>
    `O Vale-Pedágio de ${shipper} não cobriu a passagem: ${amount} foram debitados do seu saldo.`,
  contestAcceptedTitle: 'Contestação aceita',
  contestAcceptedBody: (amount: string) => `Sua contestação foi aceita: ${amount} foram devolvidos à conta que pagou a passagem.`,
  contestAcceptedPartsBody: (parts: string) => `Sua contestação foi aceita. ${parts}.`,
  contestAcceptedNoRefundBody: 'Sua contestação foi aceita. Veja a resposta em Contestações.',
  contestRefusedTitle: 'Contestação recusada',
  contestRefusedBody: 'Sua contestação foi recusada. Veja a resposta em Contestações.',
  pixAutoCyclePaidTitle: 'Recarga automática paga',
  pixAutoCyclePaidBody: (amount: string) => `O Pix Automático de ${amount} entrou no seu saldo de pedágio.`,
  pixAutoCycleFailedTitle: 'Recarga automática não paga',
  pixAutoCycleFailedBody: (reason: string) => `O Pix Automático deste ciclo não foi pago: ${reason}. Compre saldo para não ficar sem.`,
  pixAutoActiveTitle: 'Recarga automática ativada',
  pixAutoActiveBody: 'Seu Pix Automático foi autorizado: o saldo será recarregado a cada ciclo.',
  pixAutoCancelledTitle: 'Recarga automática cancelada',
  pixAutoCancelledBody: 'Seu Pix Automático foi cancelado: nenhuma nova recarga será feita.',
  freeFlowNewTitle: 'Pedágio sem cancela',
  freeFlowNewBody: (plate: string, gantry: string, amount: string, due: string) =>
    `${plate} passou em ${gantry}: ${amount} a pagar até ${due}. Pague pelo portal antes do vencimento.`,
  freeFlowPaidTitle: 'Pedágio sem cancela pago',
  freeFlowPaidBody: (plate: string, gantry: string, amount: string, payer: FreeFlowPayer) =>
    `${amount} de ${plate} em ${gantry} pagos ${paidWith[payer]}.`,
  freeFlowShortTitle: 'Saldo insuficiente para o pedágio sem cancela',
  freeFlowShortBody: (amount: string, due: string) =>
    `Não há saldo para pagar ${amount} de pedágio sem cancela. Compre saldo até ${due}: ele será pago assim que o dinheiro entrar.`,
  freeFlowDueTitle: (daysLeft: number) =>
    daysLeft <= 0
      ? 'Pedágio sem cancela vence hoje'
      : daysLeft === 1
        ? 'Pedágio sem cancela vence amanhã'
        : `Pedágio sem cancela vence em ${daysLeft} dias`,
  freeFlowDueBody: (plate: string, gantry: string, amount: string, due: string) =>
    `${plate} em ${gantry}: ${amount} vencem em ${due}. Pague pelo portal para não virar multa.`,
  freeFlowOverdueTitle: 'Prazo vencido: risco de multa por evasão (CTB art. 209-A)',
  freeFlowOverdueBody: (plate: string, gantry: string, amount: string) =>
    `${plate} em ${gantry}: ${amount} não foram pagos no prazo. Pague agora pelo portal e guarde o comprovante para o recurso.`,
  profileChangedTitle: 'Seus dados foram alterados',
  profileChangedBody: (fields: string) => `Alterado: ${fields}. Se não foi você, troque sua senha e fale com o suporte.`,
} as const;

const t = notificationTexts;

/** Where each notification opens and which earlier one it replaces. */
export function notificationMessage(n: DriverNotification): NotificationMessage {
  switch (n.kind) {
    case 'passageDebited':
      return passagesMessage([n]);
    case 'pixReceived':
      return {
        titulo: t.pixReceivedTitle,
        corpo: t.pixReceivedBody(formatBrl(n.amountCents)),
        url: `/comprovantes/compra/${n.chargeId}`,
        tag: `pix-${n.chargeId}`,
      };
    case 'withdrawalDone':
      return {
        titulo: t.withdrawalDoneTitle,
        corpo: t.withdrawalDoneBody(formatBrl(n.amountCents)),
        url: `/comprovantes/saque/${n.withdrawalId}`,
        tag: `saque-${n.withdrawalId}`,
      };
    case 'withdrawalReturned':
      return {
        titulo: t.withdrawalReturnedTitle,
        corpo: t.withdrawalReturnedBody(formatBrl(n.amountCents)),
        url: `/comprovantes/saque/${n.withdrawalId}`,
        tag: `saque-${n.withdrawalId}`,
      };
    case 'pixKeySaved':
      return { titulo: t.pixKeySavedTitle, corpo: t.pixKeySavedBody(n.maskedKey), url: '/configuracoes', tag: `chave-pix-${n.keyId}` };
    case 'balanceBelowAlert':
      return n.balanceCents < 0
        ? { titulo: t.balanceNegativeTitle, corpo: t.balanceNegativeBody(formatBrl(n.balanceCents)), url: '/saldo/comprar', tag: 'saldo' }
        : {
            titulo: t.balanceBelowAlertTitle,
            corpo: t.balanceBelowAlertBody(formatBrl(n.balanceCents), formatBrl(n.alertCents)),
            url: '/saldo/comprar',
            tag: 'saldo',
          };
    case 'tagBlockedUnpaidFee':
      return {
        titulo: t.tagBlockedTitle,
        corpo: t.tagBlockedBody(n.licensePlate),
        url: `/tags/detalhes/${n.licensePlate}`,
        tag: `tag-${n.licensePlate}`,
      };
    case 'vpoReceived':
      return {
        titulo: t.vpoReceivedTitle,
        corpo: t.vpoReceivedBody(n.shipper, formatBrl(n.amountCents)),
        url: '/vpos/listar',
        tag: `vpo-${n.vpoId}`,
      };
    case 'vpoRunningShort':
      return {
        titulo: t.vpoRunningShortTitle,
        corpo: t.vpoRunningShortBody(n.shipper, formatBrl(n.paidFromBalanceCents)),
        url: '/vpos/listar',
        tag: `vpo-${n.vpoId}`,
      };
    case 'contestAnswered':
      return n.accepted
        ? {
            titulo: t.contestAcceptedTitle,
            corpo:
              n.refundedCents <= 0
                ? t.contestAcceptedNoRefundBody
                : n.parts && n.parts.length > 0
                  ? t.contestAcceptedPartsBody(refundPartsText(n.parts))
                  : t.contestAcceptedBody(formatBrl(n.refundedCents)),
            url: '/contestacoes',
            tag: `contestacao-${n.contestId}`,
          }
        : { titulo: t.contestRefusedTitle, corpo: t.contestRefusedBody, url: '/contestacoes', tag: `contestacao-${n.contestId}` };
    case 'pixAutoCyclePaid':
      return {
        titulo: t.pixAutoCyclePaidTitle,
        corpo: t.pixAutoCyclePaidBody(formatBrl(n.amountCents)),
        url: `/comprovantes/compra/${n.receiptId}`,
        tag: 'pix-automatico',
      };
    case 'pixAutoCycleFailed':
      return {
        titulo: t.pixAutoCycleFailedTitle,
        corpo: t.pixAutoCycleFailedBody(n.reason),
        url: '/saldo/recarga-automatica',
        tag: 'pix-automatico',
      };
    case 'pixAutoAuthorizationActive':
      return { titulo: t.pixAutoActiveTitle, corpo: t.pixAutoActiveBody, url: '/saldo/recarga-automatica', tag: 'pix-automatico' };
    case 'pixAutoAuthorizationCancelled':
      return { titulo: t.pixAutoCancelledTitle, corpo: t.pixAutoCancelledBody, url: '/saldo/recarga-automatica', tag: 'pix-automatico' };
    case 'freeFlowToll':
      return freeFlowMessage(n);
    case 'vehicleBudgetReached':
      return {
        titulo: vehicleBudgetMessages.reachedTitle(n.percent),
        corpo: vehicleBudgetMessages.reached(n.plate, n.percent, formatBrl(n.spentCents), formatBrl(n.budgetCents)),
        url: '/empresa/orcamentos',
        tag: `orcamento-${n.vehicleId}`,
      };
    case 'vehicleBudgetBlocked':
      return {
        titulo: vehicleBudgetMessages.blockedTitle,
        corpo: vehicleBudgetMessages.blocked(n.plate),
        url: `/tags/detalhes/${n.plate}`,
        tag: `tag-${n.plate}`,
      };
    case 'profileChanged':
      return {
        titulo: t.profileChangedTitle,
        corpo: t.profileChangedBody(changedFieldsText(n.fields)),
        url: '/configuracoes',
        tag: `dados-${n.changeId}`,
      };
  }
}

/** 'AAAA-MM-DD' as dd/mm/aaaa. */
function dayText(day: string): string {
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
}

function freeFlowMessage(n: Extract<DriverNotification, { kind: 'freeFlowToll' }>): NotificationMessage {
  const amount = formatBrl(n.amountCents);
  const due = dayText(n.dueDay);
  const base = { url: '/livre-passagem', tag: `livre-passagem-${n.tollId}` };
  switch (n.event) {
    case 'new':
      return { ...base, titulo: t.freeFlowNewTitle, corpo: t.freeFlowNewBody(n.plate, n.gantry, amount, due) };
    case 'paid':
      return { ...base, titulo: t.freeFlowPaidTitle, corpo: t.freeFlowPaidBody(n.plate, n.gantry, amount, n.payer) };
    case 'short':
      return { ...base, titulo: t.freeFlowShortTitle, corpo: t.freeFlowShortBody(amount, due) };
    case 'five':
    case 'one':
      return {
        ...base,
        titulo: t.freeFlowDueTitle(n.daysLeft),
        corpo: t.freeFlowDueBody(n.plate, n.gantry, amount, due),
      };
    case 'overdue':
      return { ...base, titulo: t.freeFlowOverdueTitle, corpo: t.freeFlowOverdueBody(n.plate, n.gantry, amount) };
  }
}

/**
 * Several passages of one driver within a minute are one notification: '3 passagens: R$ 27,30'
 * with the places in order (tag 'passagens': a later group replaces the earlier one on the device).
 */
export function passagesMessage(passages: readonly PassageNotice[]): NotificationMessage {
  const [first] = passages;
  if (!first) throw new RangeError('Nenhuma passagem para notificar');
  if (passages.length === 1) {
    return {
      titulo: t.passageTitle,
      corpo: t.passageBody(first.place, formatBrl(first.amountCents)),
      url: '/extrato/listar',
      tag: 'passagens',
    };
  }
  const total = passages.reduce((sum, p) => sum + p.amountCents, 0);
  const places = passages.map((p) => `${p.place} (${formatBrl(p.amountCents)})`).join(', ');
  return {
    titulo: t.passagesTitle(passages.length, formatBrl(total)),
    corpo: t.passagesBody(places),
    url: '/extrato/listar',
    tag: 'passagens',
  };
}

/** The 422 messages of a device's push subscription (what the browser sends; a driver sees them only if it is broken). */
export const pushSubscriptionMessages = {
  endpointInvalid: 'Endereço de notificação inválido: use o endereço https do serviço de notificações do navegador',
  keyInvalid: 'Chave da inscrição de notificações inválida',
  serviceNotAccepted:
    'Este serviço de notificações não é aceito pelo portal: use um navegador atualizado (Chrome, Edge, Firefox, Safari ou Samsung Internet)',
  publicKey: 'Chave pública das notificações',
  saved: 'Notificações ativadas neste aparelho.',
  removed: 'Notificações desativadas neste aparelho.',
} as const;

/** Longest endpoint URL accepted (browsers' are about 200 to 500 characters). */
export const PUSH_ENDPOINT_MAX = 1_000;

/**
 * The opt-in of Configurações (web only): what the driver is told before allowing notifications on
 * a device, and what each state of the device means.
 */
export const pushOptInTexts = {
  title: 'Notificações',
  intro: 'Receba um aviso neste aparelho, mesmo com o portal fechado, quando:',
  events: [
    'passagens forem debitadas do seu saldo (com o local e o valor)',
    'um Pix for recebido',
    'um saque for concluído ou devolvido',
    'uma nova chave Pix for salva',
    'o saldo ficar abaixo do seu alerta',
    'uma tag for bloqueada por mensalidade não paga',
    'um Vale-Pedágio (VPO) for recebido ou não cobrir uma passagem',
    'uma contestação for respondida',
    'a recarga automática por Pix for paga ou não for paga',
    'seu nome ou seu telefone forem alterados',
  ],
  perDevice: 'Vale só para este aparelho e este navegador. Ao tocar em Sair, ele deixa de receber.',
  enabled: 'Ativadas neste aparelho.',
  disabled: 'Desativadas neste aparelho.',
  enable: 'Ativar notificações',
  disable: 'Desativar notificações',
  unsupportedTitle: 'Este navegador não recebe notificações',
  unsupportedBody:
    'Abra o portal no Chrome, Edge, Firefox ou Samsung Internet. No iPhone (iOS 16.4 ou mais novo), toque em Compartilhar, depois em Adicionar à Tela de Início, e abra o portal por esse ícone.',
  deniedTitle: 'As notificações estão bloqueadas neste navegador',
  deniedBody:
    'Para permitir: toque no ícone à esquerda do endereço do portal, abra Permissões (ou Configurações do site) e, em Notificações, escolha Permitir. No portal instalado no Android: Configurações do celular > Apps > Motorista > Notificações. Depois toque em Verificar de novo.',
  recheck: 'Verificar de novo',
  enableFailedTitle: 'Não foi possível ativar as notificações',
  disableFailedTitle: 'Não foi possível desativar as notificações',
  /** The permission prompt closed without 'Permitir'. */
  dismissed: 'Você não permitiu as notificações. Toque em Ativar notificações e escolha Permitir.',
  /** The browser's push service (Google's, Mozilla's, Apple's) did not give an address. */
  pushServiceFailed: 'O serviço de notificações do navegador não respondeu. Verifique a conexão e tente de novo.',
  /** The service worker is not installed yet (the first seconds after the first visit). */
  workerNotReady: 'O portal ainda está terminando de se instalar neste aparelho. Tente de novo em alguns segundos.',
  retry: 'Tentar novamente',
} as const;

/** What the service worker shows for a push it cannot read: never nothing (the browser would show its own). */
export const pushFallbackMessage: NotificationMessage = {
  titulo: 'Portal do Motorista',
  corpo: 'Há uma novidade na sua conta. Toque para abrir o portal.',
  url: '/dashboard',
  tag: 'portal',
};
