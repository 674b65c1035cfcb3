import { z } from 'zod';
import { MAX_VEHICLE_BUDGET_CENTS, vehicleBudgetMessages } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, idParam, pageQuery, pagination } from './common.js';
import { reais } from './balance.js';

/** Decision 78: a company vehicle's monthly toll budget and what the month spent of it. */
export const vehicleBudget = z.lazy(() =>
  z.object({
    veiculoId: z.number().int(),
    placa: z.string(),
    /** The month's budget in reais; null: none. */
    orcamento: reais.nullable(),
    /** What the company's balances paid for the vehicle's passages this São Paulo month. */
    gasto: reais,
    /** Whole percent of the budget spent (0 without a budget). */
    percentual: z.number().int(),
    /** At 100 % the tag is blocked through its operator. */
    bloquearNoLimite: z.boolean(),
    /** The vehicle's tag is blocked by the budget now: only a Gestor releases it. */
    bloqueadaPeloOrcamento: z.boolean(),
  }),
);
export type VehicleBudget = z.infer<typeof vehicleBudget>;

export const vehicleBudgetsResponse = z.lazy(() =>
  envelope.unwrap().extend({
    /** The São Paulo month the spending is of, 'AAAA-MM'. */
    mes: z.string(),
    Orcamentos: z.array(vehicleBudget),
    Paginacao: pagination,
  }),
);
export type VehicleBudgetsResponse = z.infer<typeof vehicleBudgetsResponse>;

const cents = (v: number) => Math.round(v * 100);
const validBudget = (v: number | null) =>
  v === null || (Number.isFinite(v) && v >= 1 && cents(v) <= MAX_VEHICLE_BUDGET_CENTS && Math.abs(cents(v) - v * 100) < 1e-6);

/** A budget's value in reais: R$ 1,00 to R$ 1.000.000,00, at most two decimals (the web form's rule too). */
export const vehicleBudgetValue = z.lazy(() =>
  z.number({ error: () => vehicleBudgetMessages.invalid }).refine(validBudget, { error: () => vehicleBudgetMessages.invalid }),
);

/** The budget in reais (null: none) and whether the tag is blocked at 100 %. */
export const vehicleBudgetRequest = z.lazy(() =>
  z.object({
    // Reais with at most two decimals, R$ 1,00 to R$ 1.000.000,00; null: no budget. Text or a wrong type reads as NaN: the same message.
    valor: z
      .number()
      .nullable()
      .catch(Number.NaN)
      .refine(validBudget, { error: () => vehicleBudgetMessages.invalid }),
    bloquearNoLimite: z.boolean().default(false),
  }),
);
export type VehicleBudgetRequest = z.input<typeof vehicleBudgetRequest>;

const vehicleIdParams = z.lazy(() => z.object({ id: idParam }));

export const vehicleBudgetResponse = z.lazy(() => envelope.unwrap().extend({ Orcamento: vehicleBudget }));

export const vehicleBudgetsApi = {
  vehicleBudgets: endpoint({
    method: 'GET',
    path: '/api/empresa/orcamentos',
    auth: true,
    capability: 'limits',
    summary: 'Os orçamentos mensais dos veículos da empresa e quanto cada um já gastou no mês (Gestor e Financeiro)',
    query: pageQuery,
    response: vehicleBudgetsResponse,
  }),
  setVehicleBudget: endpoint({
    method: 'POST',
    path: '/api/empresa/veiculos/:id/orcamento',
    auth: true,
    capability: 'limits',
    idempotent: true,
    requiresTerms: true,
    summary:
      'Definir ou tirar o orçamento mensal de um veículo, e se a tag é bloqueada ao chegar a 100% (Gestor e Financeiro); passagens feitas são sempre pagas',
    params: vehicleIdParams,
    body: vehicleBudgetRequest,
    response: vehicleBudgetResponse,
  }),
};
