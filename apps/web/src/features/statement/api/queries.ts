import { api } from '@portal/contract';
import { request } from '../../../lib/api';
import { listQueryOptions, useLoggedQuery } from '../../../lib/listQuery';

const statementKeys = {
  all: ['extrato'] as const,
  page: (page: number) => [...statementKeys.all, page] as const,
};

/** GET /api/extrato/listar?page=N: 10 movements a page, newest first. */
const statementPageQuery = (page: number) =>
  listQueryOptions(statementKeys.page(page), ({ signal }) => request(api.statement, { query: { page }, signal }));

/** One page of the statement; a failure is only logged (SPEC 8). */
export const useStatementPage = (page: number) => useLoggedQuery(statementPageQuery(page), 'Falha ao carregar o extrato');
