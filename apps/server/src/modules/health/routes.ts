import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
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
    handler: async () => ({ Sucesso: true as const, Mensagem: serverMessages.operations.alive, status: 'ok' as const }),
  });

  const ready = api.ready;
  app.route({
    method: ready.method,
    url: ready.path,
    schema: { summary: ready.summary, tags: ['health'], response: { 200: ready.response, 503: ready.response } },
    config: { probe: true },
    handler: async (req, reply) => {
      const state = await readiness.check();
      if (state.ready)
        return { Sucesso: true, Mensagem: serverMessages.operations.ready, database: 'ok' as const, migrations: 'ok' as const };
      const Mensagem =
        state.database === 'down'
          ? serverMessages.operations.databaseDown
          : serverMessages.operations.migrationsPending.replace('{migrations}', state.pending.join(', '));
      req.log.warn({ database: state.database, migrations: state.migrations }, 'não está pronto para atender');
      return reply.code(503).send({ Sucesso: false, Mensagem, database: state.database, migrations: state.migrations });
    },
  });
}
