/**
 * The account's vehicle list, one page at a time: the Veículos screen's pages and the first of them on
 * a Motorista's dashboard. One cache entry a page, under lib/tags.ts's keys: a tag or vehicle write
 * asks them all again.
 */
import { api } from '@portal/contract';
import { request } from './api';
import { listQueryOptions } from './listQuery';
import { tagKeys } from './tags';

/** GET /api/veiculo/listar?page=N (founding decision 7): 10 vehicles a page with their tag's status. */
export const vehiclesPageQuery = (page: number) =>
  listQueryOptions(['tags'], tagKeys.vehicleList(page), ({ signal }) => request(api.vehicles, { query: { page }, signal }));
