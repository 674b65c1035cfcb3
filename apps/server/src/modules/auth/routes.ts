import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute, publicRoute } from '../../http/route.js';
import type { AuthService } from './service.js';
import { LoginThrottled } from './throttle.js';

export function authRoutes(app: FastifyInstance, auth: AuthService): void {
  publicRoute(app, api.login, async ({ body, req, reply }) => {
    try {
      const { token, driver } = await auth.login(body.cpfCnpj, body.password, req.ip);
      return { Sucesso: true as const, Mensagem: serverMessages.login.ok, Token: token, Data: driver };
    } catch (error) {
      if (error instanceof LoginThrottled) reply.header('retry-after', String(error.retryAfterSeconds));
      throw error;
    }
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
