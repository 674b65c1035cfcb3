import { z } from 'zod';
import {
  messages,
  normalizePlate,
  STATEMENT_ACCOUNTS,
  STATEMENT_KINDS,
  STATEMENT_PERIODS,
  statementPeriodErrors,
  TEXT_MAX,
} from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, idParam, isoDateTime, pageQuery, pagination, text } from './common.js';
import { receiptKind } from './receipts.js';
import { VPO_PAYERS } from './vpos.js';
import { passageContestInfo } from './contests.js';

/**
 * Issue 33: whose money a row moved: Saldo, SaldoTerceiro or one VPO's (vpoId, its shipper's name
 * and its route, which tell apart several VPOs of one shipper); domain statementAccountName names
 * it ('VPO de <embarcador>: <rota>').
 */
export const statementAccount = z.lazy(() =>
  z.object({
    tipo: z.enum(STATEMENT_ACCOUNTS),
    vpoId: z.string().nullable(),
    embarcador: z.string().nullable(),
    rota: z.string().nullable(),
  }),
);
export type StatementAccountRef = z.infer<typeof statementAccount>;

/** spec §3 'Extrato transaction'. value in reais, signed (debits negative). */
export const statementTransaction = z.lazy(() =>
  z.object({
    transactionId: z.number().int(),
    placeName: z.string(),
    value: z.number(),
    created_at: isoDateTime,
    event: z.enum(['RECEIVED', 'OVERDUE', 'REFUND']).nullable(),
    origin: z.string(),
    is_third: z.boolean(),
    /** true when the driver started the movement (purchase, withdrawal, tag fee); false for partners' pushes. */
    user_transaction: z.boolean(),
    /** Issue 12: the entry's one kind (domain statementKindOf); null for an origin the portal does not know. */
    kind: z.enum(STATEMENT_KINDS).nullable(),
    /** Issue 12: the receipt of the Pix purchase or withdrawal the entry belongs to (its refund or reversal too). */
    receipt: z.object({ tipo: receiptKind, id: z.string() }).nullable(),
    /** Decision 52: the VPO whose money this entry moved (pagoPor VPO), or that ran short for this passage (pagoPor SALDO). */
    vpo: z.object({ IdTransacao: z.string(), Embarcador: z.string(), pagoPor: z.enum(VPO_PAYERS) }).nullable(),
    /** Decision 56: the toll passage this entry paid (or gave back), to contest it; null for any other movement. */
    passagem: passageContestInfo.nullable(),
    /** Issue 33: the account the entry moved, and that account's balance right after it (reais). */
    conta: statementAccount,
    saldoApos: z.number(),
    /** Decision 79: the vehicle the entry was for, and the cost centre it was posted to; null: no vehicle's. */
    veiculo: z.object({ placa: z.string(), centroDeCusto: z.object({ codigo: z.string(), nome: z.string() }).nullable() }).nullable(),
  }),
);
export type StatementTransaction = z.infer<typeof statementTransaction>;

/** One account's net movement in the period (reais, signed). */
export const statementAccountTotal = z.lazy(() =>
  z.object({
    conta: statementAccount,
    total: z.number(),
    /** Decision 83: the net of the period's other VPOs, those past the ones named (conta.vpoId null). */
    outrosVpos: z.boolean(),
  }),
);
export type StatementAccountTotal = z.infer<typeof statementAccountTotal>;

export const statementResponse = z.lazy(() =>
  envelope.unwrap().extend({
    Transacoes: z.array(statementTransaction),
    Paginacao: pagination,
    /** Issue 33: the filtered period's total per account (reais, signed), never summed across accounts. */
    Totais: z.array(statementAccountTotal),
  }),
);
export type StatementResponse = z.infer<typeof statementResponse>;

/** An empty query value ('?tipo=') is the same as none. */
const optionalParam = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/**
 * Issue 12 filters, kept in the web app's URL with the same names: the period in São Paulo days
 * ('intervalo' with de and ate, YYYY-MM-DD) and one kind of movement. Refused with a 422 naming
 * the field, never read as something else.
 */
export const statementFilters = z.lazy(() =>
  z
    .object({
      periodo: optionalParam(z.enum(STATEMENT_PERIODS, { error: () => messages.statement.periodInvalid })).transform((v) => v ?? 'tudo'),
      de: optionalParam(z.string({ error: () => messages.statement.dayInvalid })),
      ate: optionalParam(z.string({ error: () => messages.statement.dayInvalid })),
      tipo: optionalParam(z.enum(STATEMENT_KINDS, { error: () => messages.statement.kindInvalid })),
      /** Decision 79: one of the account's plates, cost centres (id) or drivers (membership id): one at a time. */
      placa: optionalParam(text(TEXT_MAX.plate).transform((v) => normalizePlate(v))),
      centro: optionalParam(idParam),
      motorista: optionalParam(idParam),
    })
    .superRefine((value, ctx) => {
      for (const [field, message] of Object.entries(statementPeriodErrors(value))) ctx.addIssue({ code: 'custom', path: [field], message });
      const whose = (['placa', 'centro', 'motorista'] as const).filter((field) => value[field] !== undefined);
      if (whose.length > 1) ctx.addIssue({ code: 'custom', path: [whose[1] ?? 'placa'], message: messages.statement.oneWhoseFilter });
    }),
);
export type StatementFilters = z.output<typeof statementFilters>;
export type StatementFiltersInput = z.input<typeof statementFilters>;

export const statementQuery = z.lazy(() => z.intersection(pageQuery, statementFilters));

export const STATEMENT_EXPORT_FORMATS = ['csv', 'pdf'] as const;
export type StatementExportFormat = (typeof STATEMENT_EXPORT_FORMATS)[number];

export const statementExportQuery = z.lazy(() =>
  z.intersection(
    z.object({ formato: z.enum(STATEMENT_EXPORT_FORMATS, { error: () => messages.statement.formatInvalid }) }),
    statementFilters,
  ),
);

/** Decision 79: every plate of the account, for the statement's filter (a removed truck's history stays). */
export const statementVehiclesResponse = z.lazy(() =>
  envelope.unwrap().extend({ Veiculos: z.array(z.object({ placa: z.string(), removido: z.boolean() })) }),
);
export type StatementVehiclesResponse = z.infer<typeof statementVehiclesResponse>;

export const statementApi = {
  statement: endpoint({
    method: 'GET',
    path: '/api/extrato/listar',
    auth: true,
    capability: 'books',
    summary: 'Extrato do motorista, mais recentes primeiro, 10 por página; filtros de período e tipo',
    query: statementQuery,
    response: statementResponse,
  }),
  statementVehicles: endpoint({
    method: 'GET',
    path: '/api/extrato/veiculos',
    auth: true,
    capability: 'books',
    summary: 'As placas da conta, para filtrar o extrato por veículo (também as de veículos removidos)',
    response: statementVehiclesResponse,
  }),
  statementExport: endpoint({
    method: 'GET',
    path: '/api/extrato/exportar',
    auth: true,
    capability: 'books',
    summary: 'Extrato do período e tipo escolhidos como CSV (Excel pt-BR) ou PDF, transmitido aos poucos',
    query: statementExportQuery,
    response: envelope,
    file: { contentTypes: ['text/csv; charset=utf-8', 'application/pdf'] },
  }),
};
