import { api } from '@portal/contract';
import { payoutMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../http/route.js';
import type { PayoutService } from './service.js';

/** 'Minhas chaves Pix' and the withdrawal limits (decision 44): Configurações reads and changes them here. */
export function payoutRoutes(app: FastifyInstance, payouts: PayoutService): void {
  driverRoute(app, api.pixKeys, async ({ driver }) => ({ Sucesso: true, Mensagem: payoutMessages.ok, Chaves: await payouts.keys(driver) }));

  driverRoute(
    app,
    api.savePixKey,
    // On a company's account the Gestor confirms with their own password (decision 77).
    async ({ driver, acting, body }) => {
      const saved = await payouts.saveKey(driver, body.tipo, body.chave, body.senha, acting.person.id);
      return { Sucesso: true, Mensagem: saved.created ? payoutMessages.keySaved : payoutMessages.keyAlreadySaved, Chave: saved.key };
    },
    { status: 201 },
  );

  driverRoute(app, api.removePixKey, async ({ driver, params }) => {
    await payouts.removeKey(driver.id, params.id);
    return { Sucesso: true, Mensagem: payoutMessages.keyRemoved };
  });

  driverRoute(app, api.payoutLimits, async ({ driver }) => ({
    Sucesso: true,
    Mensagem: payoutMessages.ok,
    Limites: await payouts.limits(driver.id),
  }));

  driverRoute(app, api.updatePayoutLimits, async ({ driver, body }) => {
    const changed = await payouts.changeLimits(driver.id, body);
    return { Sucesso: true, Mensagem: changed.message, Limites: changed.limits };
  });
}
