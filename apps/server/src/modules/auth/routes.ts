import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute, publicRoute } from '../../http/route.js';
import type { AuthService } from './service.js';

export function authRoutes(app: FastifyInstance, auth: AuthService): void {
  // A throttled attempt is a 429 with Retry-After (LoginThrottled), like every 'too-many' refusal.
  publicRoute(app, api.login, async ({ body, req }) => {
    const { token, driver } = await auth.login(body.cpfCnpj, body.password, req.ip);
    return { Sucesso: true as const, Mensagem: serverMessages.login.ok, Token: token, Data: driver };
  });

  publicRoute(
    app,
    api.register,
    async ({ body, req }) => {
      const { token, driver } = await auth.register(body, req.ip);
      return { Sucesso: true as const, Mensagem: serverMessages.registration.created, Token: token, User: driver };
    },
    { status: 201 },
  );

  driverRoute(app, api.logout, async ({ driver }) => {
    await auth.logout(driver.sessionId);
    return { Sucesso: true, Mensagem: serverMessages.session.loggedOut };
  });
}
