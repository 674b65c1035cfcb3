import { api } from '@portal/contract';
import { messages, serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute, publicRoute } from '../../http/route.js';
import type { Catalogue } from '../tags/catalogue.js';
import type { VehicleService } from './service.js';

/** The contract's vehicle calls: list and delete (founding decision 7), detail and the truck models (spec §7). */
export function vehicleRoutes(app: FastifyInstance, vehicles: VehicleService, catalogue: Catalogue): void {
  publicRoute(app, api.vehicleModels, async () => ({
    Sucesso: true,
    Mensagem: serverMessages.tag.modelsOk,
    Data: [...catalogue.brands],
  }));

  driverRoute(app, api.vehicles, async ({ driver, acting, query }) => {
    const page = await vehicles.list(driver.id, query.page, acting.vehicleIds);
    return { Sucesso: true, Mensagem: serverMessages.vehicle.listOk, Veiculos: page.rows, Paginacao: { TotalPaginas: page.totalPages } };
  });

  driverRoute(app, api.vehiclePassages, async ({ driver, acting, query }) => {
    const page = await vehicles.passages(driver.id, query.page, acting.vehicleIds);
    return {
      Sucesso: true,
      Mensagem: serverMessages.vehicle.passagesOk,
      Passagens: page.rows,
      Paginacao: { TotalPaginas: page.totalPages },
    };
  });

  driverRoute(app, api.vehicleDetail, async ({ driver, acting, params }) => ({
    Sucesso: true,
    Mensagem: serverMessages.vehicle.detailOk,
    Dados: await vehicles.detail(driver.id, params.licensePlate, acting.vehicleIds),
  }));

  driverRoute(app, api.deleteVehicle, async ({ driver, body }) => {
    await vehicles.delete(driver, body.vehicle_id);
    return { Sucesso: true, Mensagem: messages.vehicle.deleted };
  });
}
