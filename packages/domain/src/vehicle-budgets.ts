import type { Cents } from './money.js';

/**
 * Decision 78: a company's monthly toll budget per vehicle. What counts is what the company's own
 * balances paid for the vehicle's passages in the São Paulo month (a trip's VPO money is the
 * shipper's and does not count). The Gestores hear of it at these percentages, once each a month;
 * a passage is always paid, whatever the budget says.
 */
export const BUDGET_ALERT_PERCENTS = [80, 100] as const;
export type BudgetAlertPercent = (typeof BUDGET_ALERT_PERCENTS)[number];

/** R$ 1.000.000,00: a truck's month of tolls is far below; above it is a typing mistake. */
export const MAX_VEHICLE_BUDGET_CENTS = 100_000_000;

/** The levels a month's spending crossed going from `beforeCents` to `afterCents` (each at most once). */
export function budgetCrossings(budgetCents: Cents, beforeCents: Cents, afterCents: Cents): BudgetAlertPercent[] {
  if (budgetCents <= 0 || afterCents <= beforeCents) return [];
  return BUDGET_ALERT_PERCENTS.filter((percent) => {
    const level = budgetCents * percent;
    return beforeCents * 100 < level && afterCents * 100 >= level;
  });
}

/** How much of the budget is spent, in whole percent (rounded down: 79,9 % is not yet 80 %). */
export function budgetPercent(budgetCents: Cents, spentCents: Cents): number {
  if (budgetCents <= 0) return 0;
  return Math.floor((spentCents * 100) / budgetCents);
}

export const vehicleBudgetMessages = {
  listOk: 'Orçamentos mensais dos veículos da empresa',
  set: (plate: string, value: string) => `Orçamento mensal do veículo ${plate}: ${value}.`,
  setWithBlock: (plate: string, value: string) =>
    `Orçamento mensal do veículo ${plate}: ${value}. Ao chegar a 100%, a tag do veículo é bloqueada.`,
  removed: (plate: string) => `O veículo ${plate} ficou sem orçamento mensal.`,
  invalid: 'Informe um valor entre R$ 1,00 e R$ 1.000.000,00, ou deixe o veículo sem orçamento.',
  vehicleNotFound: 'Veículo não encontrado nesta empresa.',
  onlyCompanies: 'Orçamentos por veículo são das contas de empresa (CNPJ).',
  /** A notice to the Gestores (dashboard and push). */
  reachedTitle: (percent: number) => (percent >= 100 ? 'Orçamento do veículo esgotado' : `Orçamento do veículo em ${percent}%`),
  reached: (plate: string, percent: number, spent: string, budget: string) =>
    `O veículo ${plate} já usou ${percent}% do orçamento do mês: ${spent} de ${budget}. As passagens continuam pagas.`,
  /** The tag blocked at 100 %: what the Motorista and the Gestores are told. */
  blockedTitle: 'Tag bloqueada pelo orçamento',
  blocked: (plate: string) =>
    `A tag do veículo ${plate} foi bloqueada: o orçamento do mês acabou e só um Gestor da empresa pode liberá-la. Até lá, pague as praças na cabine; nas rodovias sem cancela, o pedágio fica devido pela placa e deve ser pago em até 30 dias.`,
  noticeAction: 'Ver orçamentos',
  noticeActionName: (plate: string) => `Ver o orçamento do veículo ${plate}`,
  releaseGestorOnly: 'Esta tag foi bloqueada pelo orçamento do veículo: só um Gestor da empresa pode liberá-la.',
} as const;

/** The 'Orçamentos' screen (web). */
export const budgetScreens = {
  tile: 'Orçamentos',
  tileHint: 'Pedágio do mês por veículo',
  title: 'Orçamentos dos veículos',
  subtitle:
    'Quanto cada veículo pode gastar de pedágio no mês. Os Gestores são avisados aos 80% e aos 100%; as passagens continuam sempre pagas.',
  failed: 'Não foi possível carregar os orçamentos. Verifique sua conexão e tente novamente.',
  empty: 'Nenhum veículo nesta empresa.',
  month: (month: string) => `Gasto em ${month}`,
  spentOf: (spent: string, budget: string, percent: number) => `${spent} de ${budget} (${percent}%)`,
  spentNoBudget: (spent: string) => `${spent} gastos no mês, sem orçamento`,
  blockedBadge: 'Tag bloqueada pelo orçamento',
  blockAtLimitBadge: 'Bloqueia aos 100%',
  value: 'Orçamento mensal',
  blockAtLimit: 'Bloquear a tag ao chegar a 100%',
  blockAtLimitHint: 'Só um Gestor libera a tag depois. As passagens já feitas são pagas.',
  save: 'Salvar',
  saveName: (plate: string) => `Salvar o orçamento do veículo ${plate}`,
  remove: 'Tirar orçamento',
  removeName: (plate: string) => `Tirar o orçamento do veículo ${plate}`,
  progressLabel: (plate: string) => `Orçamento do mês usado pelo veículo ${plate}`,
  /** The tag's screen, when the budget blocked it. */
  tagBlocked:
    'O orçamento do mês deste veículo acabou. Só um Gestor da empresa libera a tag; até lá, pague as praças na cabine e, nas rodovias sem cancela, o pedágio pela placa em até 30 dias.',
} as const;
