import { statementFilters, type StatementFilters } from '@portal/contract';
import { useCallback, useMemo } from 'react';
import { useListSearch } from '../../lib/usePageParam';
import { normalizeFilters, readFilterForm, writeFilters, type StatementFilterForm } from './filters';

export interface StatementFilterState {
  /** The URL's filters as typed (the form shows them). */
  form: StatementFilterForm;
  /** The same, valid by the contract's statementFilters; null when the URL's are not (the form says why). */
  applied: StatementFilters | null;
  /** Puts filters in the URL, back on page 1 (reload, back and a shared link keep them). */
  apply: (filters: StatementFilters) => void;
}

/** The statement's period and kind, kept in the URL (?periodo=&de=&ate=&tipo=) beside ?page=. */
export function useStatementFilters(): StatementFilterState {
  const [params, change] = useListSearch();
  const text = params.toString();
  const { form, applied } = useMemo(() => {
    const read = readFilterForm(new URLSearchParams(text));
    const parsed = statementFilters.safeParse(read);
    return { form: read, applied: parsed.success ? normalizeFilters(parsed.data) : null };
  }, [text]);
  const apply = useCallback((filters: StatementFilters) => change((current) => writeFilters(current, filters)), [change]);
  return { form, applied, apply };
}
