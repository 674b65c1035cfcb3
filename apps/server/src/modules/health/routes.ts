import { api } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { databaseIsUp } from './service.js';

export function healthRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  const e = api.health;
  app.route({
    method: e.method,
    url: e.path,
    schema: { summary: e.summary, tags: ['health'], response: { 200: e.response, 503: e.response } },
    logLevel: 'warn',
    handler: async (_req, reply) => {
      if (await databaseIsUp(db)) return reply.send({ status: 'ok', database: 'ok' });
      return reply.code(503).send({ status: 'degraded', database: 'down' });
    },
  });
}
