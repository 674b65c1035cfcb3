import { endpoint } from './endpoint.js';
import { envelope } from './common.js';

export const driverDataApi = {
  driverDataExport: endpoint({
    method: 'GET',
    path: '/api/motorista/dados/exportar',
    auth: true,
    capability: 'self',
    summary: 'Tudo o que o portal guarda sobre o motorista: um ZIP com um JSON por tipo de dado e um resumo em PDF, transmitido aos poucos',
    response: envelope,
    file: { contentTypes: ['application/zip'] },
  }),
};
