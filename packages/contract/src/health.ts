import { z } from 'zod';
import { endpoint } from './endpoint.js';

/** The process answers: nothing else is checked (cheap enough for every few seconds). */
export const healthResponse = z.lazy(() => z.object({ Sucesso: z.literal(true), Mensagem: z.string(), status: z.literal('ok') }));

/** 200 when the database answers and every migration this build knows is applied; 503 otherwise. */
export const readyResponse = z.lazy(() =>
  z.object({
    Sucesso: z.boolean(),
    Mensagem: z.string(),
    database: z.enum(['ok', 'down']),
    migrations: z.enum(['ok', 'pending', 'unknown']),
  }),
);

export const healthApi = {
  health: endpoint({
    method: 'GET',
    path: '/api/health',
    auth: false,
    summary: 'O processo está no ar (não consulta o banco)',
    response: healthResponse,
  }),
  ready: endpoint({
    method: 'GET',
    path: '/api/ready',
    auth: false,
    summary: 'Pronto para atender: banco acessível e todas as migrações aplicadas (503 se não)',
    response: readyResponse,
  }),
};
