import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

const DOCS_PREFIX = '/api/docs';

/**
 * OpenAPI generated from the contract's zod schemas, served at /api/docs when config.apiDocs
 * (outside production, or API_DOCS=true): the app registers it only then.
 */
export async function registerDocs(app: FastifyInstance, options: { hsts: boolean }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Portal do Motorista — API', version: '1.0.0', description: 'API do Portal do Motorista' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  // swagger-ui's own CSP (hashes of its scripts), aligned with ours: no framing, no https upgrade on plain http.
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: true,
    transformStaticCSP: (header) => {
      const csp = header.replace("frame-ancestors 'self'", "frame-ancestors 'none'");
      return options.hsts ? csp : csp.replace(/\s*upgrade-insecure-requests;?/, '');
    },
  });
}
