import { api } from '@portal/contract';
import { profileMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../http/route.js';
import type { ProfileService } from './service.js';

/** GET and POST /api/motorista/dados: the driver's name, CPF/CNPJ and phone; the name and phone corrected (issue 35). */
export function profileRoutes(app: FastifyInstance, profile: ProfileService): void {
  driverRoute(app, api.profile, async ({ driver }) => ({
    Sucesso: true,
    Mensagem: profileMessages.loaded,
    Dados: await profile.read(driver.id),
  }));

  driverRoute(app, api.updateProfile, async ({ driver, body }) => {
    const { profile: Dados, changed } = await profile.correct(driver.id, body);
    return { Sucesso: true, Mensagem: changed.length > 0 ? profileMessages.saved : profileMessages.unchanged, Dados };
  });
}
