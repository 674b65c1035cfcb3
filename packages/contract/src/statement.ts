import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { envelope, isoDateTime, pageQuery, pagination } from './common.js';

/** SPEC 3 'Extrato transaction'. value in reais, signed (debits negative). */
export const statementTransaction = z.object({
  transactionId: z.number().int(),
  placeName: z.string(),
  value: z.number(),
  created_at: isoDateTime,
  event: z.enum(['RECEIVED', 'OVERDUE', 'REFUND']).nullable(),
  origin: z.string(),
  is_third: z.boolean(),
  /** true when the driver started the movement (purchase, withdrawal, tag fee); false for partners' pushes. */
  user_transaction: z.boolean(),
});
export type StatementTransaction = z.infer<typeof statementTransaction>;

export const statementResponse = envelope.extend({
  Transacoes: z.array(statementTransaction),
  Paginacao: pagination,
});
export type StatementResponse = z.infer<typeof statementResponse>;

export const statementApi = {
  statement: endpoint({
    method: 'GET',
    path: '/api/extrato/listar',
    auth: true,
    summary: 'Extrato do motorista, mais recentes primeiro, 10 por página',
    query: pageQuery,
    response: statementResponse,
  }),
};
