import { api, type StatementFilters } from '@portal/contract';
import { request } from '../../../lib/api';
import { statementQueryRoot } from '../../../lib/contests';
import { listQueryOptions, useLoggedQuery, useReadFailure } from '../../../lib/listQuery';
import { filterParams } from '../filters';

const statementKeys = {
  all: statementQueryRoot,
  /** ['extrato', page] without filters (as before issue 12: pages kept on the phone stay valid), else with them. */
  page: (page: number, filters: StatementFilters) => {
    const params = filterParams(filters);
    return Object.keys(params).length > 0 ? ([...statementKeys.all, page, params] as const) : ([...statementKeys.all, page] as const);
  },
};

/** GET /api/extrato/listar?page=N&periodo=&de=&ate=&tipo=: 10 movements a page, newest first. */
const statementPageQuery = (page: number, filters: StatementFilters) =>
  listQueryOptions(['statement'], statementKeys.page(page, filters), ({ signal }) =>
    request(api.statement, { query: { page, ...filterParams(filters) }, signal }),
  );

/**
 * One page of the statement with the filters; a failure is logged and the table shows empty (spec
 * §8), said at once (issue 25). With filters the contract refuses (null) nothing is asked: the form
 * shows why.
 */
export function useStatementPage(page: number, filters: StatementFilters | null) {
  const options = statementPageQuery(page, filters ?? { periodo: 'tudo' });
  const statement = useLoggedQuery({ ...options, enabled: filters !== null }, 'Falha ao carregar o extrato');
  return { statement, failure: useReadFailure(statement, options.queryKey) };
}
