import { useQuery } from '@tanstack/react-query';
import { freeFlowSummaryQuery } from '../../../lib/freeFlow';

/**
 * Decision 76: the tolls' first page, for its Resumo (the tile's amount and the notice); the same
 * cache entry as the free-flow screen's first page. A failure says nothing here (spec §8: as the notices).
 * Decision 77: not asked by a role that may not read the tolls (`enabled`).
 */
export const useFreeFlowSummary = (enabled = true) => useQuery({ ...freeFlowSummaryQuery, enabled });
