import { z } from 'zod';
import {
  STATEMENT_ORIGINS,
  SORT_DIRECTIONS,
  VPO_SORT_FIELDS,
  VPO_INITIAL_STATUS,
  VPO_STATUSES,
  axlesError,
  isValidCpfCnpj,
  isValidPlate,
  parseOffsetDateTime,
  rntrcError,
  vpoTripErrors,
  MAX_PASSAGE_CENTS,
  MAX_PLATFORM_MOVEMENT_CENTS,
  MAX_VPO_CENTS,
  messages,
  occurredAtError,
  partnerValueError,
  TEXT_MAX,
} from '@portal/domain';
import { endpoint } from './endpoint.js';
import { passageContestInfo } from './contests.js';
import { envelope, idParam, isoDateTime, pageQuery, pagination, refineWith, strictText, text } from './common.js';

/** Who paid one passage of a VPO's trip (decision 52): the VPO's money, or Saldo when the VPO ran short. */
export const VPO_PAYERS = ['VPO', 'SALDO'] as const;

/** One payment of a passage on the VPO's trip: a passage the VPO could not pay whole has two. */
export const vpoPassage = z.lazy(() =>
  z.object({
    placeName: z.string(),
    occurredAt: isoDateTime,
    value: z.number(),
    pagoPor: z.enum(VPO_PAYERS),
    /** Decision 56: the passage, to contest it from the VPO's details (the shipper reads null). */
    passagem: passageContestInfo.nullable(),
  }),
);
export type VpoPassage = z.infer<typeof vpoPassage>;

/**
 * spec §3 'VPO' (its seven fields as the specification names them), and the trip and its money
 * (decision 52): value = used + left + refunded; PagoPeloSaldo is what the VPO could not pay.
 * A VPO issued before its money was held (migration 014) has no window and holds nothing.
 */
export const vpo = z.lazy(() =>
  z.object({
    IdTransacao: z.string(),
    serialNumber: z.string(),
    PlacaVeiculo: z.string(),
    CpfCnpjEmbarcador: z.string(),
    ValorTotalVP: z.number(),
    created_at: isoDateTime,
    Status: z.string(),
    Embarcador: z.string(),
    origem: z.string().nullable(),
    destino: z.string().nullable(),
    inicioViagem: isoDateTime.nullable(),
    fimViagem: isoDateTime.nullable(),
    idVpoAntt: z.string().nullable(),
    rntrc: z.string().nullable(),
    eixos: z.number().int().nullable(),
    Utilizado: z.number(),
    Restante: z.number(),
    Devolvido: z.number(),
    PagoPeloSaldo: z.number(),
  }),
);
export type Vpo = z.infer<typeof vpo>;

export const vposQuery = z.lazy(() =>
  pageQuery.unwrap().extend({
    sort: z.enum(VPO_SORT_FIELDS).catch('data').default('data'),
    direction: z.enum(SORT_DIRECTIONS).catch('desc').default('desc'),
  }),
);
export type VposQuery = z.infer<typeof vposQuery>;

export const vposResponse = z.lazy(() => envelope.unwrap().extend({ VPOS: z.array(vpo), Paginacao: pagination }));
export type VposResponse = z.infer<typeof vposResponse>;

/** One VPO with the passages of its trip: the driver's 'Detalhes do VPO' and the shipper's GET. */
export const vpoDetails = z.lazy(() => vpo.unwrap().extend({ externalId: z.string(), Passagens: z.array(vpoPassage) }));
export type VpoDetails = z.infer<typeof vpoDetails>;

export const vpoDetailsResponse = z.lazy(() => envelope.unwrap().extend({ VPO: vpoDetails }));
export type VpoDetailsResponse = z.infer<typeof vpoDetailsResponse>;

/**
 * Answer of every partner push. A repeated push gets its first answer again (header
 * Idempotent-Replayed: true); duplicate: true only answers a push stored before migration 006.
 */
export const partnerPushResponse = z.lazy(() =>
  envelope.unwrap().extend({
    id: z.string().optional(),
    duplicate: z.boolean().optional(),
  }),
);
export type PartnerPushResponse = z.infer<typeof partnerPushResponse>;

/**
 * Partner fields: any wrong value (type included) reports the field's own Portuguese message;
 * the text rule (characters, length) first, and then, through a pipe, only the field's rule.
 */
export function checked(max: number, valid: (v: string) => boolean, message: string) {
  return text(max).pipe(z.string().refine(valid, message));
}
export function required(message: string, max: number) {
  return text(max)
    .transform((v) => v.trim())
    .refine((v) => v.length > 0, message);
}
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return text(TEXT_MAX.code).transform((v, ctx): T[number] => {
    const found = values.find((x) => x === v);
    if (found === undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return found;
  });
}
export const externalId = z.lazy(() => required(messages.partner.externalIdRequired, TEXT_MAX.externalId));
/** Reais above zero, at most 2 decimals, at most the kind's maximum (domain constants). */
export function money(maxCents: number) {
  return z
    .number()
    .catch(Number.NaN)
    .superRefine((v, ctx) => {
      const message = partnerValueError(v, maxCents);
      if (message) ctx.addIssue({ code: 'custom', message });
    });
}
const serialNumber = z.lazy(() => required(messages.partner.serialUnknown, TEXT_MAX.serial));
/** A real date-time with offset, within the accepted window of now (domain occurredAtError). */
export const occurredAt = z.lazy(() =>
  text(TEXT_MAX.dateTime).pipe(
    z.string().superRefine((v, ctx) => {
      const message = occurredAtError(v);
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
  ),
);
const vpoStatus = z.lazy(() => oneOf(VPO_STATUSES, messages.partner.statusInvalid));
/** Founding decision 29: a VPO is issued EMITIDO; another status (a known one) is refused, not ignored. */
const issueStatus = z.lazy(() =>
  vpoStatus.transform((status, ctx): typeof VPO_INITIAL_STATUS => {
    if (status !== VPO_INITIAL_STATUS) {
      ctx.addIssue({ code: 'custom', message: messages.partner.statusOnIssue });
      return z.NEVER;
    }
    return status;
  }),
);
/** A place (origin, destination, plaza): optional; when sent, a string under the text rule. */
const optionalPlace = z.lazy(() =>
  strictText(TEXT_MAX.place)
    .transform((v) => v.trim())
    .optional(),
);

/** A trip date: a real date-time with offset (the window's rules are vpoTripErrors, on the whole body). */
const tripDate = z.lazy(() =>
  text(TEXT_MAX.dateTime).pipe(z.string().refine((v) => parseOffsetDateTime(v) !== null, messages.partner.occurredAtInvalid)),
);
const isValidAnttId = (v: string) => /^[A-Za-z0-9./-]{1,64}$/.test(v);

export const partnerVpoRequest = z.lazy(() =>
  z
    .object({
      externalId,
      serialNumber,
      PlacaVeiculo: checked(TEXT_MAX.plate, isValidPlate, messages.partner.plateInvalid),
      CpfCnpjEmbarcador: checked(TEXT_MAX.document, isValidCpfCnpj, messages.partner.shipperDocumentInvalid),
      ValorTotalVP: money(MAX_VPO_CENTS),
      Status: issueStatus.optional(),
      origem: optionalPlace,
      destino: optionalPlace,
      /** Decision 52: the trip's window (ISO 8601 with offset); from the issue for VPO_DEFAULT_TRIP_DAYS days when absent. */
      inicioViagem: tripDate.optional(),
      fimViagem: tripDate.optional(),
      /** The identifier ANTT gives the VPO. */
      idVpoAntt: checked(TEXT_MAX.externalId, isValidAnttId, messages.partner.anttIdInvalid).optional(),
      /** The carrier's RNTRC: must be the one registered on the tag's vehicle. */
      rntrc: checked(TEXT_MAX.document, (v) => rntrcError(v) === null, messages.tag.rntrcInvalid).optional(),
      /** The vehicle's category by axles (Resolução ANTT 6.024/2023, art. 2º, I). */
      eixos: z
        .number()
        .catch(Number.NaN)
        .refine((v) => axlesError(v) === null, messages.tag.axlesInvalid)
        .optional(),
    })
    .superRefine(refineWith(vpoTripErrors)),
);
export type PartnerVpoRequest = z.infer<typeof partnerVpoRequest>;

export const partnerVpoUpdateRequest = z.lazy(() => z.object({ Status: vpoStatus }));
export const partnerVpoParams = z.lazy(() => z.object({ externalId: strictText(TEXT_MAX.externalId) }));
const vpoIdParams = z.lazy(() => z.object({ id: idParam }));

export const partnerPassageRequest = z.lazy(() =>
  z.object({
    externalId,
    serialNumber,
    placeName: required(messages.partner.placeNameRequired, TEXT_MAX.place),
    value: money(MAX_PASSAGE_CENTS),
    occurredAt,
    is_third: z.boolean().default(false),
  }),
);
export type PartnerPassageRequest = z.infer<typeof partnerPassageRequest>;

export const partnerMovementRequest = z.lazy(() =>
  z.object({
    externalId,
    cpfCnpj: required(messages.partner.driverUnknown, TEXT_MAX.document),
    origin: oneOf([STATEMENT_ORIGINS.thirdPartyCredit, STATEMENT_ORIGINS.thirdPartyDebit], messages.partner.originInvalid),
    value: money(MAX_PLATFORM_MOVEMENT_CENTS),
    placeName: optionalPlace,
    occurredAt,
  }),
);
export type PartnerMovementRequest = z.infer<typeof partnerMovementRequest>;

const partnerAuth = 'Autenticação do parceiro pelo cabeçalho X-Api-Key (não usa o token do motorista).';

export const vposApi = {
  driverVpos: endpoint({
    method: 'GET',
    path: '/api/pedagio/motoristaVpos',
    auth: true,
    capability: 'vehicles',
    summary: 'VPOs do motorista, ordenados pelo servidor (sort valor|placa|data, direction asc|desc), 10 por página',
    query: vposQuery,
    response: vposResponse,
  }),
  partnerIssueVpo: endpoint({
    method: 'POST',
    path: '/api/parceiro/vpos',
    auth: false,
    summary: `Embarcador emite um VPO (Status EMITIDO) e deposita o seu valor na conta do VPO, que paga as passagens da tag durante a viagem; idempotente no externalId. ${partnerAuth}`,
    body: partnerVpoRequest,
    response: partnerPushResponse,
  }),
  partnerUpdateVpo: endpoint({
    method: 'PATCH',
    path: '/api/parceiro/vpos/:externalId',
    auth: false,
    summary: `Embarcador atualiza o Status de um VPO seu: EMITIDO -> EM_VIAGEM -> ENCERRADO, EMITIDO ou EM_VIAGEM -> CANCELADO (409 para qualquer outra mudança; o mesmo Status de novo é 200 sem mudança). Ao encerrar ou cancelar, o que restou volta ao embarcador. ${partnerAuth}`,
    params: partnerVpoParams,
    body: partnerVpoUpdateRequest,
    response: partnerPushResponse,
  }),
  driverVpo: endpoint({
    method: 'GET',
    path: '/api/pedagio/motoristaVpos/:id',
    auth: true,
    capability: 'vehicles',
    summary: 'Um VPO do motorista com a rota, a janela, o utilizado, o restante e as passagens que pagou',
    params: vpoIdParams,
    response: vpoDetailsResponse,
  }),
  driverVpoPdf: endpoint({
    method: 'GET',
    path: '/api/pedagio/motoristaVpos/:id/pdf',
    auth: true,
    capability: 'vehicles',
    summary: 'O registro do VPO em PDF, para o embarcador ou a ANTT: ids, embarcador, rota e cada passagem com quem pagou',
    params: vpoIdParams,
    response: envelope,
    file: { contentTypes: ['application/pdf'] },
  }),
  partnerVpo: endpoint({
    method: 'GET',
    path: '/api/parceiro/vpos/:externalId',
    auth: false,
    summary: `Embarcador consulta um VPO seu: status, valor, utilizado, restante, devolvido e as passagens que pagou. ${partnerAuth}`,
    params: partnerVpoParams,
    response: vpoDetailsResponse,
  }),
  partnerPassage: endpoint({
    method: 'POST',
    path: '/api/parceiro/passagens',
    auth: false,
    summary: `Operadora informa uma passagem de pedágio: paga pelo VPO aberto da tag primeiro, o resto do saldo (ou do saldo de terceiro); idempotente no externalId. ${partnerAuth}`,
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
