import { api } from '@portal/contract';
import { pixAutomaticMessages, pixAutomaticValueError, reaisToCents, refuse } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../http/route.js';
import type { PixAutomaticService } from './service.js';

/** NaN (absent, not a number) asks for a value; out of bounds or fractions of a centavo name the value. */
function centsOf(valor: number): number {
  const error = pixAutomaticValueError(valor);
  if (error) throw refuse.invalid(error, 'valor');
  return reaisToCents(valor);
}

/** Decision 58: the driver's recurring top-up by Pix Automático. */
export function pixAutomaticRoutes(app: FastifyInstance, automatic: PixAutomaticService): void {
  driverRoute(app, api.pixAutomatic, async ({ driver }) => ({
    Sucesso: true,
    Mensagem: pixAutomaticMessages.ok,
    RecargaAutomatica: await automatic.current(driver.id),
    Disponivel: automatic.available,
  }));

  driverRoute(
    app,
    api.createPixAutomatic,
    async ({ driver, body }) => {
      const cents = centsOf(body.valor);
      return {
        Sucesso: true,
        Mensagem: pixAutomaticMessages.created,
        RecargaAutomatica: await automatic.create(driver.id, cents, body.frequencia),
        Disponivel: automatic.available,
      };
    },
    { status: 201 },
  );

  driverRoute(app, api.changePixAutomaticValue, async ({ driver, params, body }) => {
    const cents = centsOf(body.valor);
    return {
      Sucesso: true,
      Mensagem: pixAutomaticMessages.valueChanged,
      RecargaAutomatica: await automatic.changeValue(driver.id, params.id, cents),
      Disponivel: automatic.available,
    };
  });

  driverRoute(app, api.cancelPixAutomatic, async ({ driver, params }) => ({
    Sucesso: true,
    Mensagem: pixAutomaticMessages.cancelled,
    RecargaAutomatica: await automatic.cancel(driver.id, params.id),
    Disponivel: automatic.available,
  }));
}
