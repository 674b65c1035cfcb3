import { api } from '@portal/contract';
import { messages, serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute, publicRoute } from '../../http/route.js';
import type { Catalogue } from './catalogue.js';
import type { TagService } from './service.js';

/** The contract's tag calls (spec §7): operators, list, register, status changes, replace, remove, edit. */
export function tagRoutes(app: FastifyInstance, tags: TagService, catalogue: Catalogue): void {
  publicRoute(app, api.operators, async () => ({
    Sucesso: true,
    Mensagem: serverMessages.tag.operatorsOk,
    Operadoras: catalogue.operatorList(),
  }));

  driverRoute(app, api.tags, async ({ driver, acting, query }) => {
    const page = await tags.listTags(driver.id, query.page, acting.vehicleIds);
    return { Sucesso: true, Mensagem: serverMessages.tag.listOk, Tags: page.rows, Paginacao: { TotalPaginas: page.totalPages } };
  });

  driverRoute(
    app,
    api.registerTag,
    async ({ driver, body }) => {
      await tags.register(driver, body);
      return { Sucesso: true, Mensagem: serverMessages.tag.registered };
    },
    { status: 201 },
  );

  driverRoute(app, api.blockTag, async ({ driver, body }) => {
    await tags.block(driver, body.serialNumber);
    return { Sucesso: true, Mensagem: messages.tag.blocked };
  });

  driverRoute(app, api.releaseTag, async ({ driver, acting, body }) => {
    await tags.release(driver, body.serialNumber, acting.person.id);
    return { Sucesso: true, Mensagem: messages.tag.released };
  });

  driverRoute(app, api.cancelTag, async ({ driver, body }) => {
    await tags.cancel(driver, body.serialNumber);
    return { Sucesso: true, Mensagem: messages.tag.cancelled };
  });

  driverRoute(app, api.activateTag, async ({ driver, body }) => {
    await tags.activate(driver, body);
    return { Sucesso: true, Mensagem: messages.tag.activated };
  });

  driverRoute(app, api.replaceTag, async ({ driver, body }) => {
    await tags.replace(driver, body.serialNumber, body.newSerialNumber);
    return { Sucesso: true, Mensagem: messages.tag.replaced };
  });

  driverRoute(app, api.removeTag, async ({ driver, body }) => {
    await tags.remove(driver, body.serialNumber);
    return { Sucesso: true, Mensagem: messages.tag.removed };
  });

  driverRoute(app, api.updateVehicle, async ({ driver, body }) => {
    await tags.update(driver, body);
    return { Sucesso: true, Mensagem: serverMessages.tag.edited };
  });
}
