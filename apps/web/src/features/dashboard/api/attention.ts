import { attentionQuery } from '../../../lib/attention';
import { useLoggedQuery } from '../../../lib/listQuery';

/** The dashboard's notices and last movements; a failure is only logged (spec §8: the dashboard then says nothing). */
export const useAttention = () => useLoggedQuery(attentionQuery, 'Falha ao carregar os avisos do painel');
