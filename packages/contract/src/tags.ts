import { z } from 'zod';
import {
  INVOICE_GROUP_CODE,
  TAG_ORIGEM,
  TAG_STATUS_IDS,
  messages,
  normalizePlate,
  normalizeRntrc,
  normalizeSerial,
  parseAxles,
  replaceSerialError,
  stripDocument,
  tagEditErrors,
  tagRegistrationErrors,
  TEXT_MAX,
  textError,
  vehicleTypeFor,
} from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, pageQuery, pagination, refineWith, text } from './common.js';
import { actionResponse, vehicleId, vehicleTag } from './vehicles.js';

/** A select's value: number or string; anything else reads as empty so the rules report it. */
const selectValue = z.lazy(() =>
  z
    .union([z.number(), z.string()])
    .nullable()
    .catch('')
    .superRefine((value, ctx) => {
      const message = typeof value === 'string' ? textError(value, TEXT_MAX.code) : null;
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
);
const serialText = z.lazy(() => text(TEXT_MAX.serial));
const documentText = z.lazy(() => text(TEXT_MAX.document));
const plateText = z.lazy(() => text(TEXT_MAX.plate));
const codeText = z.lazy(() => text(TEXT_MAX.code));

/** A vehicle type given with the axles must be the one the axles make (1 for 2 axles, else 2). */
type SelectValue = number | string | null | undefined;
function checkVehicleType(axlesValue: SelectValue, vehicleType: SelectValue, ctx: z.RefinementCtx): void {
  const axles = parseAxles(axlesValue);
  const typeGiven = vehicleType !== undefined && vehicleType !== null && vehicleType !== '';
  if (axles !== null && typeGiven && parseAxles(vehicleType) !== vehicleTypeFor(axles)) {
    ctx.addIssue({ code: 'custom', path: ['vehicleType'], message: messages.tag.vehicleTypeMismatch });
  }
}

/** spec §3 'Tag' of the tag list. */
export const tagRow = z.lazy(() => vehicleTag.unwrap().extend({ vehicle: z.object({ LicensePlate: z.string() }) }));
export type TagRow = z.infer<typeof tagRow>;

export const tagListResponse = z.lazy(() => envelope.unwrap().extend({ Tags: z.array(tagRow), Paginacao: pagination }));
export type TagListResponse = z.infer<typeof tagListResponse>;

/** GET /api/operadoras: the one list of operators the server enforces. Cnpj is digits only. */
export const operator = z.lazy(() => z.object({ Nome: z.string(), Cnpj: z.string() }));
export type Operator = z.infer<typeof operator>;
export const operatorsResponse = z.lazy(() => envelope.unwrap().extend({ Operadoras: z.array(operator) }));
export type OperatorsResponse = z.infer<typeof operatorsResponse>;

/** spec §3 'Tag register payload'. Rules: spec §5 'Tag register' (domain tagRegistrationErrors). */
export const tagRegistrationRequest = z.lazy(() =>
  z
    .object({
      serialNumber: serialText,
      Operadora: documentText,
      licensePlate: plateText,
      /** The signed-in driver's CPF/CNPJ. */
      cnpj: documentText,
      /** Founding decision 11: always INVOICE_GROUP_CODE. */
      invoiceGroupCode: codeText,
      /** 1 for 2 axles, otherwise 2; computed when absent. */
      vehicleType: selectValue.optional(),
      axles: selectValue,
      CpfCnpjAntt: documentText,
      RntrcAntt: text(TEXT_MAX.rntrc),
      /** modelId from GET /api/veiculo/modelos. */
      modelo: text(TEXT_MAX.modelId),
    })
    .superRefine((value, ctx) => {
      refineWith(tagRegistrationErrors)(value, ctx);
      if (value.invoiceGroupCode !== INVOICE_GROUP_CODE) {
        ctx.addIssue({ code: 'custom', path: ['invoiceGroupCode'], message: messages.tag.invoiceGroupInvalid });
      }
      checkVehicleType(value.axles, value.vehicleType, ctx);
    })
    .transform((v) => {
      const axles = parseAxles(v.axles) ?? 0;
      return {
        serialNumber: normalizeSerial(v.serialNumber),
        Operadora: stripDocument(v.Operadora),
        licensePlate: normalizePlate(v.licensePlate),
        cnpj: stripDocument(v.cnpj),
        invoiceGroupCode: v.invoiceGroupCode,
        vehicleType: vehicleTypeFor(axles),
        axles,
        CpfCnpjAntt: stripDocument(v.CpfCnpjAntt),
        RntrcAntt: normalizeRntrc(v.RntrcAntt),
        modelo: v.modelo.trim(),
      };
    }),
);
export type TagRegistrationRequest = z.input<typeof tagRegistrationRequest>;
export type TagRegistration = z.output<typeof tagRegistrationRequest>;

const serialField = z.lazy(() =>
  serialText.superRefine((value, ctx) => {
    if (normalizeSerial(value).length === 0) ctx.addIssue({ code: 'custom', message: messages.tag.serialRequired });
  }),
);

/** spec §7 status changes: {serialNumber, statusId, origem 'Pedagio motorista'}. */
function statusChangeRequest(statusId: string) {
  return z
    .object({ serialNumber: serialField, statusId: codeText, origem: codeText })
    .superRefine((value, ctx) => {
      if (value.statusId !== statusId) {
        ctx.addIssue({ code: 'custom', path: ['statusId'], message: messages.tag.statusIdInvalid });
      }
      if (value.origem !== TAG_ORIGEM) {
        ctx.addIssue({ code: 'custom', path: ['origem'], message: messages.tag.origemInvalid });
      }
    })
    .transform((v) => ({ ...v, serialNumber: normalizeSerial(v.serialNumber) }));
}
export const blockTagRequest = z.lazy(() => statusChangeRequest(TAG_STATUS_IDS.block));
export const releaseTagRequest = z.lazy(() => statusChangeRequest(TAG_STATUS_IDS.release));
export const cancelTagRequest = z.lazy(() => statusChangeRequest(TAG_STATUS_IDS.cancel));
export type TagStatusChangeRequest = z.input<typeof blockTagRequest>;

/** spec §7: {serialNumber, licensePlate, cnpj}. */
export const activateTagRequest = z.lazy(() =>
  z
    .object({ serialNumber: serialField, licensePlate: plateText, cnpj: documentText })
    .superRefine((value, ctx) => {
      if (normalizePlate(value.licensePlate).length === 0) {
        ctx.addIssue({ code: 'custom', path: ['licensePlate'], message: messages.tag.plateRequired });
      }
    })
    .transform((v) => ({
      serialNumber: normalizeSerial(v.serialNumber),
      licensePlate: normalizePlate(v.licensePlate),
      cnpj: stripDocument(v.cnpj),
    })),
);
export type ActivateTagRequest = z.input<typeof activateTagRequest>;

/** spec §7: {serialNumber, newSerialNumber}; spec §5: the new serial needs 8+ alphanumerics. */
export const replaceTagRequest = z.lazy(() =>
  z
    .object({ serialNumber: serialField, newSerialNumber: serialText })
    .superRefine((value, ctx) => {
      const error = replaceSerialError(value.newSerialNumber);
      if (error) ctx.addIssue({ code: 'custom', path: ['newSerialNumber'], message: error });
    })
    .transform((v) => ({
      serialNumber: normalizeSerial(v.serialNumber),
      newSerialNumber: normalizeSerial(v.newSerialNumber),
    })),
);
export type ReplaceTagRequest = z.input<typeof replaceTagRequest>;

/** spec §7 POST /api/veiculo/delete-tag-vehicle: {serialNumber}. */
export const removeTagRequest = z.lazy(() =>
  z.object({ serialNumber: serialField }).transform((v) => ({ serialNumber: normalizeSerial(v.serialNumber) })),
);
export type RemoveTagRequest = z.input<typeof removeTagRequest>;

/** spec §7 POST /api/veiculo/update. Rules: spec §5 'Edit tag' (domain tagEditErrors). */
export const vehicleUpdateRequest = z.lazy(() =>
  z
    .object({
      vehicle_id: vehicleId,
      serialNumber: serialText,
      Operadora: documentText,
      LicensePlate: plateText,
      CpfCnpjAntt: documentText,
      RntrcAntt: text(TEXT_MAX.rntrc),
      Axles: selectValue,
      vehicleType: selectValue.optional(),
    })
    .superRefine((value, ctx) => {
      refineWith(tagEditErrors)(value, ctx);
      checkVehicleType(value.Axles, value.vehicleType, ctx);
    })
    .transform((v) => {
      const axles = parseAxles(v.Axles) ?? 0;
      return {
        vehicle_id: v.vehicle_id,
        serialNumber: normalizeSerial(v.serialNumber),
        Operadora: stripDocument(v.Operadora),
        LicensePlate: normalizePlate(v.LicensePlate),
        CpfCnpjAntt: stripDocument(v.CpfCnpjAntt),
        RntrcAntt: normalizeRntrc(v.RntrcAntt),
        Axles: axles,
        vehicleType: vehicleTypeFor(axles),
      };
    }),
);
export type VehicleUpdateRequest = z.input<typeof vehicleUpdateRequest>;
export type VehicleUpdate = z.output<typeof vehicleUpdateRequest>;

export const tagsApi = {
  operators: endpoint({
    method: 'GET',
    path: '/api/operadoras',
    auth: false,
    summary: 'Operadoras de tag aceitas (nome e CNPJ)',
    response: operatorsResponse,
  }),
  tags: endpoint({
    method: 'GET',
    path: '/api/tag/listar',
    auth: true,
    capability: 'vehicles',
    summary: 'Tags do motorista, 10 por página',
    query: pageQuery,
    response: tagListResponse,
  }),
  registerTag: endpoint({
    method: 'POST',
    path: '/api/tag/cadastrar-tag',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    requiresTerms: true,
    summary: 'Cadastrar uma tag para um veículo (cria o veículo se preciso)',
    body: tagRegistrationRequest,
    response: actionResponse,
  }),
  blockTag: endpoint({
    method: 'POST',
    path: '/api/tag/bloquear',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    requiresTerms: true,
    summary: 'Bloquear uma tag ativa (status 200)',
    body: blockTagRequest,
    response: actionResponse,
  }),
  releaseTag: endpoint({
    method: 'POST',
    path: '/api/tag/liberar-motorista',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    requiresTerms: true,
    summary: 'Liberar uma tag bloqueada (status 100; 204 paga antes a mensalidade em aberto)',
    body: releaseTagRequest,
    response: actionResponse,
  }),
  cancelTag: endpoint({
    method: 'POST',
    path: '/api/tag/cancelar',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    requiresTerms: true,
    summary: 'Cancelar uma tag (status 300)',
    body: cancelTagRequest,
    response: actionResponse,
  }),
  activateTag: endpoint({
    method: 'POST',
    path: '/api/tag/ativar-tag-motorista',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    requiresTerms: true,
    summary: 'Ativar uma tag inativa (debita a mensalidade de R$ 15,90)',
    body: activateTagRequest,
    response: actionResponse,
  }),
  replaceTag: endpoint({
    method: 'POST',
    path: '/api/tag/substituir',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    requiresTerms: true,
    summary: 'Substituir o número de uma tag ativa ou bloqueada',
    body: replaceTagRequest,
    response: actionResponse,
  }),
  removeTag: endpoint({
    method: 'POST',
    path: '/api/veiculo/delete-tag-vehicle',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    requiresTerms: true,
    summary: 'Excluir a tag do veículo (tag inativa ou cancelada)',
    body: removeTagRequest,
    response: actionResponse,
  }),
  updateVehicle: endpoint({
    method: 'POST',
    path: '/api/veiculo/update',
    auth: true,
    capability: 'fleet',
    idempotent: true,
    requiresTerms: true,
    summary: 'Editar veículo e tag inativa',
    body: vehicleUpdateRequest,
    response: actionResponse,
  }),
};
