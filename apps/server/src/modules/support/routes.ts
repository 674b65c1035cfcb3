import { api } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { whatsappUrl } from './service.js';

export function supportRoutes(app: FastifyInstance, supportNumber: string): void {
  const e = api.supportWhatsapp;
  const target = whatsappUrl(supportNumber);
  app.route({
    method: e.method,
    url: e.path,
    schema: { summary: e.summary, tags: ['suporte'] },
    handler: async (_req, reply) => reply.redirect(target, 302),
  });
}
