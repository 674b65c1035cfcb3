import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { PixProvider } from './adapters/pix/port.js';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import { trustProxyOption } from './http/client-address.js';
import { registerRequestLimits } from './http/rate-limit.js';
import { RateLimitStore } from './http/rate-limit-store.js';
import { createLogger } from './logger.js';
import { authRoutes } from './modules/auth/routes.js';
import { balanceRoutes } from './modules/balance/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { partnerRoutes } from './modules/partners/routes.js';
import { pixRoutes } from './modules/pix/routes.js';
import { statementRoutes } from './modules/statement/routes.js';
import { withdrawalRoutes } from './modules/withdrawal/routes.js';
import { supportRoutes } from './modules/support/routes.js';
import { tagRoutes } from './modules/tags/routes.js';
import { termsRoutes } from './modules/terms/routes.js';
import { registerDocs } from './plugins/docs.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './plugins/error-handler.js';
import { registerRequestLog } from './plugins/request-log.js';
import { registerSecurityHeaders } from './plugins/security.js';
import { registerWeb } from './plugins/web.js';
import { createServices } from './services.js';

export interface AppDeps {
  config: Config;
  db: Db;
  logger?: FastifyBaseLogger;
  /** Tests inject a fake Pix provider; otherwise PIX_PROVIDER builds one. */
  pixProvider?: PixProvider;
}

/** The HTTP app, ready to listen or to answer app.inject (tests, bench). */
export async function buildApp({ config, db, logger, pixProvider }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger ?? createLogger(config.logLevel),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 64 * 1024,
    requestTimeout: config.http.requestMs,
    keepAliveTimeout: config.http.keepAliveMs,
    connectionTimeout: config.http.connectionMs,
    // Node checks these two every connectionsCheckingInterval (30 s by default).
    http: {
      requestTimeout: config.http.requestMs,
      headersTimeout: config.http.headersMs,
      connectionsCheckingInterval: Math.min(config.http.headersMs, 1000),
    },
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
    // Every refusal is our Portuguese envelope, also those Fastify and Node give before any route.
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  acceptEmptyJsonBodies(app);
  registerErrorHandling(app);
  registerRequestLog(app);
  registerRequestLimits(app, new RateLimitStore(db.kysely), config.limits);

  const services = createServices(config, db, app.log, { pixProvider });
  app.decorate('sessions', services.sessions);
  app.decorateRequest('driver', null);

  registerSecurityHeaders(app, { hsts: config.hsts });
  if (config.apiDocs) await registerDocs(app, { hsts: config.hsts });

  healthRoutes(app, db.kysely);
  authRoutes(app, services.auth);
  termsRoutes(app, services.terms);
  balanceRoutes(app, db.kysely);
  supportRoutes(app, config.supportWhatsapp);
  pixRoutes(app, services.charges, services.webhook, config.pix.webhookToken);
  withdrawalRoutes(app, services.eligibility, services.withdrawals);
  statementRoutes(app, db.kysely);
  tagRoutes(app, services.tags, services.catalogue);
  partnerRoutes(app, db.kysely, services.partners);
  await registerWeb(app, config.webDist);

  await app.ready();
  return app;
}

/** SPEC 7 sends "empty body" POSTs (terms accept/reject); a JSON content type with no body is not an error. */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(req, text, done);
  });
}
