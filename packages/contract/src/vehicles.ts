import { z } from 'zod';
import { MAX_ID, messages, normalizePlate, TEXT_MAX } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, pageQuery, pagination, strictText } from './common.js';

/** spec §3 'Tag' as it hangs from a vehicle: {serialNumber, Operadora (operator CNPJ), statusCode, ownershipType}. */
export const vehicleTag = z.lazy(() =>
  z.object({
    serialNumber: z.string(),
    /** The operator's CNPJ. */
    Operadora: z.string(),
    statusCode: z.number().int().nullable(),
    ownershipType: z.enum(['own', 'operator']),
    /** Decision 78: blocked (200) by its vehicle's monthly budget: only a Gestor of the company releases it. */
    bloqueioOrcamento: z.boolean().optional(),
  }),
);
export type VehicleTag = z.infer<typeof vehicleTag>;

/** spec §3 'Vehicle detail response': Dados. */
export const vehicleDetail = z.lazy(() =>
  z.object({
    id: z.number().int(),
    LicensePlate: z.string(),
    CpfCnpjAntt: z.string(),
    RntrcAntt: z.string(),
    Axles: z.number().int(),
    /** 1 for 2 axles, otherwise 2 (spec §9). */
    vehicleType: z.number().int(),
    /** The model's modelId from GET /api/veiculo/modelos. */
    modelo: z.string(),
    tag: vehicleTag.unwrap().nullable(),
  }),
);
export type VehicleDetail = z.infer<typeof vehicleDetail>;

export const vehicleDetailResponse = z.lazy(() => envelope.unwrap().extend({ Dados: vehicleDetail }));
export type VehicleDetailResponse = z.infer<typeof vehicleDetailResponse>;

export const plateParams = z.lazy(() =>
  z.object({
    licensePlate: strictText(TEXT_MAX.plate).transform((v) => normalizePlate(v)),
  }),
);

/** Founding decision 7: a row of the vehicle list. Status is the tag's status code, or null ('Sem tag'). */
export const vehicleRow = z.lazy(() =>
  z.object({
    id: z.number().int(),
    LicensePlate: z.string(),
    Status: z.number().int().nullable(),
    tag: vehicleTag.unwrap().nullable(),
  }),
);
export type VehicleRow = z.infer<typeof vehicleRow>;

export const vehicleListResponse = z.lazy(() => envelope.unwrap().extend({ Veiculos: z.array(vehicleRow), Paginacao: pagination }));
export type VehicleListResponse = z.infer<typeof vehicleListResponse>;

/** A vehicle id in a body: number or numeric string naming a row (1 to MAX_ID); anything else is reported on the field. */
export const vehicleId = z.lazy(() =>
  z
    .union([z.number(), z.string()])
    .catch('')
    .transform((v, ctx) => {
      const n = typeof v === 'number' ? v : /^\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
      if (!Number.isSafeInteger(n) || n <= 0 || n > MAX_ID) {
        ctx.addIssue({ code: 'custom', message: messages.vehicle.idInvalid });
        return z.NEVER;
      }
      return n;
    }),
);

export const vehicleDeleteRequest = z.lazy(() => z.object({ vehicle_id: vehicleId }));
export type VehicleDeleteRequest = z.input<typeof vehicleDeleteRequest>;

/** Decision 77: a toll passage of one of the account's vehicles, as a Motorista sees the trucks they drive. */
export const vehiclePassage = z.lazy(() =>
  z.object({
    id: z.number().int(),
    placa: z.string(),
    praca: z.string(),
    /** When the passage happened. */
    em: z.string(),
    valor: z.number(),
    /** The passage's contest, when one was opened: ABERTA, ACEITA or RECUSADA. */
    contestacao: z.enum(['ABERTA', 'ACEITA', 'RECUSADA']).nullable(),
  }),
);
export type VehiclePassage = z.infer<typeof vehiclePassage>;
export const vehiclePassagesResponse = z.lazy(() =>
  envelope.unwrap().extend({ Passagens: z.array(vehiclePassage), Paginacao: pagination }),
);
export type VehiclePassagesResponse = z.infer<typeof vehiclePassagesResponse>;

/** spec §3 'Vehicle models response'. */
export const vehicleModel = z.lazy(() => z.object({ modelId: z.string(), modelName: z.string() }));
export const vehicleBrand = z.lazy(() => z.object({ brand: z.string(), modelos: z.array(vehicleModel) }));
export type VehicleBrand = z.infer<typeof vehicleBrand>;
export const vehicleModelsResponse = z.lazy(() => envelope.unwrap().extend({ Data: z.array(vehicleBrand) }));
export type VehicleModelsResponse = z.infer<typeof vehicleModelsResponse>;

/** Answer of the vehicle and tag actions: spec §7 'Sucesso, Mensagem' (failures add `error`). */
export const actionResponse = z.lazy(() => envelope.unwrap().extend({ error: z.string().optional() }));
export type ActionResponse = z.infer<typeof actionResponse>;

export const vehiclesApi = {
  vehiclePassages: endpoint({
    method: 'GET',
    path: '/api/veiculo/passagens',
    auth: true,
    capability: 'vehicles',
    summary:
      'As passagens de pedágio dos veículos da conta, mais recentes primeiro, 20 por página; o Motorista de uma empresa vê só as dos veículos atribuídos a ele',
    query: pageQuery,
    response: vehiclePassagesResponse,
  }),
  vehicles: endpoint({
    method: 'GET',
    path: '/api/veiculo/listar',
    auth: true,
    capability: 'vehicles',
    summary: 'Veículos do motorista com o status da tag, 10 por página',
    query: pageQuery,
    response: vehicleListResponse,
  }),
  vehicleDetail: endpoint({
    method: 'GET',
    path: '/api/veiculo/detail/:licensePlate',
    auth: true,
    capability: 'vehicles',
    summary: 'Detalhe do veículo do motorista pela placa, com a tag',
    params: plateParams,
    response: vehicleDetailResponse,
  }),
  vehicleModels: endpoint({
    method: 'GET',
    path: '/api/veiculo/modelos',
    auth: false,
    summary: 'Catálogo de marcas e modelos de caminhões (público)',
    response: vehicleModelsResponse,
  }),
  deleteVehicle: endpoint({
    method: 'POST',
    path: '/api/veiculo/delete',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    requiresTerms: true,
    summary: 'Excluir um veículo (a tag não pode estar ativa nem bloqueada)',
    body: vehicleDeleteRequest,
    response: actionResponse,
  }),
};
