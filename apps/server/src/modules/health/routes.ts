import { api } from '@portal/contract';
import { messages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { ReadinessCheck } from './service.js';

export function healthRoutes(app: FastifyInstance, readiness: ReadinessCheck): void {
  const alive = api.health;
  app.route({
    method: alive.method,
    url: alive.path,
    schema: { summary: alive.summary, tags: ['health'], response: { 200: alive.response } },
    // Probes call these every few seconds: their request lines would drown the rest; not being ready is a warning.
    config: { probe: true },
    handler: async () => ({ Sucesso: true as const, Mensagem: messages.operations.alive, status: 'ok' as const }),
  });

  const ready = api.ready;
  app.route({
    method: ready.method,
    url: ready.path,
    schema: { summary: ready.summary, tags: ['health'], response: { 200: ready.response, 503: ready.response } },
    config: { probe: true },
    handler: async (req, reply) => {
      const state = await readiness.check();
      if (state.ready) return { Sucesso: true, Mensagem: messages.operations.ready, database: 'ok' as const, migrations: 'ok' as const };
      const Mensagem = state.database === 'down' ? messages.operations.databaseDown : messages.operations.migrationsPending.replace('{migrations}', state.pending.join(', '));
      req.log.warn({ database: state.database, migrations: state.migrations }, 'não está pronto para atender');
      return reply.code(503).send({ Sucesso: false, Mensagem, database: state.database, migrations: state.migrations });
    },
  });
}
