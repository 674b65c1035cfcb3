import { ok } from './utils';

/** A vehicle with its tag as GET /api/veiculo/detail/{plate} answers it, and the catalogues its page reads. */
export const SEMPARAR = '22222222000122';
export const vehicle = {
  id: 9,
  LicensePlate: 'ABC1D23',
  CpfCnpjAntt: '52998224725',
  RntrcAntt: '123456789',
  Axles: 3,
  vehicleType: 2,
  modelo: 'volvo-fh540',
  tag: { serialNumber: '1234567812345678', Operadora: SEMPARAR, statusCode: 100, ownershipType: 'own' },
};
export const catalogue = {
  'GET /api/operadoras': ok({ Operadoras: [{ Nome: 'SemParar', Cnpj: SEMPARAR }] }),
  'GET /api/veiculo/modelos': ok({ Data: [{ brand: 'Volvo', modelos: [{ modelId: 'volvo-fh540', modelName: 'FH 540' }] }] }),
};
