import { z } from 'zod';
import {
  STATEMENT_ORIGINS,
  SORT_DIRECTIONS,
  VPO_SORT_FIELDS,
  VPO_STATUSES,
  isReaisAmount,
  isValidCpfCnpj,
  isValidPlate,
  messages,
} from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, isoDateTime, pageQuery, pagination, text } from './common.js';

/** SPEC 3 'VPO'. ValorTotalVP in reais; Status one of VPO_STATUSES (shown with vpoStatusLabel). */
export const vpo = z.object({
  IdTransacao: z.string(),
  serialNumber: z.string(),
  PlacaVeiculo: z.string(),
  CpfCnpjEmbarcador: z.string(),
  ValorTotalVP: z.number(),
  created_at: isoDateTime,
  Status: z.string(),
});
export type Vpo = z.infer<typeof vpo>;

export const vposQuery = pageQuery.extend({
  sort: z.enum(VPO_SORT_FIELDS).catch('data').default('data'),
  direction: z.enum(SORT_DIRECTIONS).catch('desc').default('desc'),
});
export type VposQuery = z.infer<typeof vposQuery>;

export const vposResponse = envelope.extend({ VPOS: z.array(vpo), Paginacao: pagination });
export type VposResponse = z.infer<typeof vposResponse>;

/** Answer of every partner push. duplicate: the same externalId was already stored; nothing changed. */
export const partnerPushResponse = envelope.extend({
  id: z.string().optional(),
  duplicate: z.boolean().optional(),
});
export type PartnerPushResponse = z.infer<typeof partnerPushResponse>;

/** Partner fields: any wrong value (type included) reports the field's own Portuguese message. */
function required(message: string, max = 200) {
  return text.transform((v) => v.trim()).refine((v) => v.length > 0 && v.length <= max, message);
}
function oneOf<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return text.transform((v, ctx): T[number] => {
    const found = values.find((x) => x === v);
    if (found === undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return found;
  });
}
const externalId = required(messages.partner.externalIdRequired, 100);
const money = z
  .number()
  .catch(Number.NaN)
  .refine((v) => v > 0 && isReaisAmount(v), messages.partner.valueInvalid);
const serialNumber = required(messages.partner.serialUnknown, 40);
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const occurredAt = text.refine((v) => ISO_WITH_OFFSET.test(v) && !Number.isNaN(Date.parse(v)), messages.partner.occurredAtInvalid);
const vpoStatus = oneOf(VPO_STATUSES, messages.partner.statusInvalid);
const optionalText = z.string().trim().max(200).optional();

export const partnerVpoRequest = z.object({
  externalId,
  serialNumber,
  PlacaVeiculo: text.refine(isValidPlate, messages.partner.plateInvalid),
  CpfCnpjEmbarcador: text.refine(isValidCpfCnpj, messages.partner.shipperDocumentInvalid),
  ValorTotalVP: money,
  Status: vpoStatus.optional(),
  origem: optionalText,
  destino: optionalText,
});
export type PartnerVpoRequest = z.infer<typeof partnerVpoRequest>;

export const partnerVpoUpdateRequest = z.object({ Status: vpoStatus });
export const partnerVpoParams = z.object({ externalId: z.string().min(1).max(100) });

export const partnerPassageRequest = z.object({
  externalId,
  serialNumber,
  placeName: required(messages.partner.placeNameRequired),
  value: money,
  occurredAt,
  is_third: z.boolean().default(false),
});
export type PartnerPassageRequest = z.infer<typeof partnerPassageRequest>;

export const partnerMovementRequest = z.object({
  externalId,
  cpfCnpj: required(messages.partner.driverUnknown, 20),
  origin: oneOf([STATEMENT_ORIGINS.thirdPartyCredit, STATEMENT_ORIGINS.thirdPartyDebit], messages.partner.originInvalid),
  value: money,
  placeName: optionalText,
  occurredAt,
});
export type PartnerMovementRequest = z.infer<typeof partnerMovementRequest>;

const partnerAuth = 'Autenticação do parceiro pelo cabeçalho X-Api-Key (não usa o token do motorista).';

export const vposApi = {
  driverVpos: endpoint({
    method: 'GET',
    path: '/api/pedagio/motoristaVpos',
    auth: true,
    summary: 'VPOs do motorista, ordenados pelo servidor (sort valor|placa|data, direction asc|desc), 10 por página',
    query: vposQuery,
    response: vposResponse,
  }),
  partnerIssueVpo: endpoint({
    method: 'POST',
    path: '/api/parceiro/vpos',
    auth: false,
    summary: `Embarcador emite um VPO; idempotente no externalId. ${partnerAuth}`,
    body: partnerVpoRequest,
    response: partnerPushResponse,
  }),
  partnerUpdateVpo: endpoint({
    method: 'PATCH',
    path: '/api/parceiro/vpos/:externalId',
    auth: false,
    summary: `Embarcador atualiza o Status de um VPO seu. ${partnerAuth}`,
    params: partnerVpoParams,
    body: partnerVpoUpdateRequest,
    response: partnerPushResponse,
  }),
  partnerPassage: endpoint({
    method: 'POST',
    path: '/api/parceiro/passagens',
    auth: false,
    summary: `Operadora informa uma passagem de pedágio (debita o saldo, ou o de terceiro); idempotente no externalId. ${partnerAuth}`,
    body: partnerPassageRequest,
    response: partnerPushResponse,
  }),
  partnerThirdPartyMovement: endpoint({
    method: 'POST',
    path: '/api/parceiro/terceiro/movimentos',
    auth: false,
    summary: `Plataforma de terceiros informa crédito ou débito do SaldoTerceiro; idempotente no externalId. ${partnerAuth}`,
    body: partnerMovementRequest,
    response: partnerPushResponse,
  }),
};
