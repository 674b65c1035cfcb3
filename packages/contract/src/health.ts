import { z } from 'zod';
import { endpoint } from './endpoint.js';

export const healthResponse = z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['ok', 'down']) });

export const healthApi = {
  health: endpoint({
    method: 'GET',
    path: '/api/health',
    auth: false,
    summary: 'Saúde do serviço e do banco',
    response: healthResponse,
  }),
};
