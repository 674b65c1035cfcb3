import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import type { api } from '@portal/contract';
import { MAX_ID, sinceSaoPauloMonthStart, TAG_ORIGEM } from '@portal/domain';
import { cnpj } from 'cpf-cnpj-validator';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../src/db/connection.js';
import { SigningKeys } from '../../src/db/signing-keys.js';
import { PartnerService } from '../../src/modules/partners/service.js';
import { ProofService } from '../../src/modules/receipts/proof.js';
import { newCpf, registerDriver } from './app.js';
import type { Registered } from './app.js';
import { createCharge, fund, paymentEvent } from './pix.js';
import { actions, newSerial, registerTag, registrationBody, SEMPARAR } from './tags.js';
import type { RegisteredTag } from './tags.js';

/** One driver with something of everything: balance, an active and an inactive tag, a pending Pix, a VPO. */
export interface DriverWorld extends Registered {
  active: RegisteredTag;
  inactive: RegisteredTag;
  pendingChargeId: string;
  /** The settled purchase that funded the driver (it has a receipt). */
  paidChargeId: string;
  vpoExternalId: string;
  /** That VPO's id (IdTransacao), as the driver's calls name it. */
  vpoId: number;
  /** A Pix key the driver saved (decision 44). */
  pixKeyId: number;
  /** Decision 56: a contest the driver opened on the passage at Praça Itupeva, and a passage nobody contested. */
  contestId: number;
  freePassageId: number;
  /** Decision 58: a recurring top-up by Pix Automático, waiting for its first Pix. */
  automaticId: string;
  /**
   * Decision 76: the active tag's plate opted in to free-flow tolls, and three tolls the
   * concessionaire sent for it: one open (tollId), one the driver paid (paidTollId, it has a
   * receipt), and one left for the concessionaire to withdraw (tollExternalId).
   */
  tollId: number;
  paidTollId: number;
  tollExternalId: string;
  /** The verification code of the open toll's proof for an appeal (GET /api/verificar/:codigo). */
  proofCode: string;
  /** Decision 77: a company's invitation waiting for this person's answer (set by buildWorld). */
  invitationId: number;
  /** Decision 77: two cost centres of the account; the active tag's vehicle is in the first. */
  costCentreId: number;
  spareCostCentreId: number;
}

export interface World {
  a: DriverWorld;
  b: DriverWorld;
  keys: { shipper: string; operator: string; platform: string; concessionaire: string };
  termId: number;
  /** The operator the operator key belongs to (the tags are registered with it). */
  operatorCnpj: string;
  /** Decision 77: a company ('Transportes Mundo Ltda', its own login) that invited A and B. */
  company: Registered;
}

/** `minutesAgo` before now in São Paulo time, as partners send it, and the same instant in UTC. */
export function saoPaulo(minutesAgo: number): { local: string; utc: string } {
  const at = new Date(Math.floor((Date.now() - minutesAgo * 60_000) / 60_000) * 60_000);
  const local = `${new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 16)}:00-03:00`;
  return { local, utc: at.toISOString() };
}

/** saoPaulo(minutesAgo), but never before São Paulo's month began: for what a month's report must count. */
export function saoPauloThisMonth(minutesAgo: number): { local: string; utc: string } {
  return saoPaulo(Math.min(minutesAgo, Math.floor(sinceSaoPauloMonthStart(new Date()) / 60_000)));
}

/** One account with something of everything (a driver's CPF, or a company's CNPJ when `cpfCnpj` is one). */
export async function driverWorld(app: FastifyInstance, db: Db, keys: World['keys'], name: string, cpfCnpj?: string): Promise<DriverWorld> {
  const d = await registerDriver(app, { name, ...(cpfCnpj ? { cpfCnpj } : {}) });
  const paidChargeId = await fund(app, d, 500);
  const active = await registerTag(app, d, { Operadora: SEMPARAR });
  expect((await actions.activate(app, d, active.serial, active.plate)).statusCode).toBe(200);
  const inactive = await registerTag(app, d, { Operadora: SEMPARAR });
  const pending = await createCharge(app, d, 120);
  const vpoExternalId = `vpo-${active.serial}`;
  const vpo = await app.inject({
    method: 'POST',
    url: '/api/parceiro/vpos',
    headers: { 'x-api-key': keys.shipper },
    payload: {
      externalId: vpoExternalId,
      serialNumber: active.serial,
      PlacaVeiculo: active.plate,
      CpfCnpjEmbarcador: cnpj.generate(),
      ValorTotalVP: 250.5,
    },
  });
  expect([200, 201], vpo.body).toContain(vpo.statusCode);
  const vpoId = Number(vpo.json<{ id: string }>().id);
  // Two passages an hour and 50 minutes ago: the first one contested (decision 56), the other not.
  const passed = async (externalId: string, placeName: string, value: number, minutesAgo: number) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/parceiro/passagens',
      headers: { 'x-api-key': keys.operator },
      payload: { externalId, serialNumber: active.serial, placeName, value, occurredAt: saoPaulo(minutesAgo).local, is_third: false },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  await passed(`p-${active.serial}`, 'Praça Itupeva', 18.9, 60);
  const contestId = await contestOf(app, d);
  await passed(`p2-${active.serial}`, 'Praça Louveira', 7.4, 50);
  const freePassageId = await passageIdOf(app, d, 'Praça Louveira');
  const savedKey = await app.inject({
    method: 'POST',
    url: '/api/motorista/chaves-pix',
    headers: { authorization: `Bearer ${d.token}` },
    payload: { tipo: 'EMAIL', chave: `${name.split(' ')[0]?.toLowerCase() ?? 'motorista'}@exemplo.com.br`, senha: d.password },
  });
  expect(savedKey.statusCode, savedKey.body).toBe(201);
  const pixKeyId = savedKey.json<{ Chave: { id: number } }>().Chave.id;
  const automatic = await app.inject({
    method: 'POST',
    url: '/api/motorista/pix-automatico',
    headers: { authorization: `Bearer ${d.token}` },
    payload: { valor: 130, frequencia: 'MENSAL' },
  });
  expect(automatic.statusCode, automatic.body).toBe(201);
  const automaticId = automatic.json<{ RecargaAutomatica: { id: string } }>().RecargaAutomatica.id;
  const tolls = await freeFlowTolls(app, db, d, keys.concessionaire, active);
  const centre = async (nome: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/empresa/centros-de-custo',
      headers: { authorization: `Bearer ${d.token}` },
      payload: { nome, codigo: `CC-${newSerial().slice(-6)}` },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ Centro: { id: number } }>().Centro.id;
  };
  const costCentreId = await centre('Operação Sul');
  const spareCostCentreId = await centre('Reserva');
  const placed = await app.inject({
    method: 'POST',
    url: `/api/empresa/veiculos/${active.vehicleId}/centro-de-custo`,
    headers: { authorization: `Bearer ${d.token}` },
    payload: { centroDeCusto: costCentreId },
  });
  expect(placed.statusCode, placed.body).toBe(200);
  return {
    ...d,
    active,
    inactive,
    pendingChargeId: pending.id,
    paidChargeId,
    vpoExternalId,
    vpoId,
    pixKeyId,
    contestId,
    freePassageId,
    automaticId,
    ...tolls,
    invitationId: 0,
    costCentreId,
    spareCostCentreId,
  };
}

/** A free-flow toll of `plate` as the concessionaire sends it (decision 76). */
function tollBody(plate: string, portico: string, valor: number, minutesAgo: number): Record<string, unknown> {
  return {
    externalId: `lp-${newSerial()}`,
    placa: plate,
    portico,
    rodovia: 'BR-116',
    km: 204.5,
    sentido: 'São Paulo',
    eixos: 3,
    valor,
    occurredAt: saoPaulo(minutesAgo).local,
  };
}

/** Decision 76: the driver opts the active tag's plate in; the concessionaire sends three tolls; the driver pays one. */
async function freeFlowTolls(
  app: FastifyInstance,
  db: Db,
  d: Registered,
  concessionaireKey: string,
  active: RegisteredTag,
): Promise<Pick<DriverWorld, 'tollId' | 'paidTollId' | 'tollExternalId' | 'proofCode'>> {
  const driver = { authorization: `Bearer ${d.token}` };
  const optIn = await app.inject({
    method: 'POST',
    url: '/api/livre-passagem/placas',
    headers: driver,
    payload: { veiculoId: active.vehicleId, ativo: true },
  });
  expect(optIn.statusCode, optIn.body).toBe(200);
  const sent = async (portico: string, valor: number, minutesAgo: number) => {
    const body = tollBody(active.plate, portico, valor, minutesAgo);
    const res = await app.inject({
      method: 'POST',
      url: '/api/parceiro/livre-passagem',
      headers: { 'x-api-key': concessionaireKey },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(202);
    return String(body.externalId);
  };
  await sent('Pórtico Arujá', 9.15, 45);
  await sent('Pórtico Guarulhos', 6.4, 40);
  const tollExternalId = await sent('Pórtico Itaquaquecetuba', 4.3, 35);
  const listed = await app.inject({ method: 'GET', url: '/api/livre-passagem?page=1', headers: driver });
  expect(listed.statusCode, listed.body).toBe(200);
  const debitos = listed.json<{ Debitos: { id: number; portico: string }[] }>().Debitos;
  const idOf = (portico: string) => {
    const found = debitos.find((t) => t.portico === portico);
    if (!found) throw new Error(`pedágio sem cancela ${portico} sem registro`);
    return found.id;
  };
  const paidTollId = idOf('Pórtico Guarulhos');
  const paid = await app.inject({ method: 'POST', url: `/api/livre-passagem/${paidTollId}/pagar`, headers: driver });
  expect(paid.statusCode, paid.body).toBe(200);
  const tollId = idOf('Pórtico Arujá');
  // The code a proof of the open toll would print: the portal's signing key is the same for every instance.
  const proofCode = (await new ProofService(db, new SigningKeys(db)).forToll(d.id, tollId)).codigo;
  return { tollId, paidTollId, tollExternalId, proofCode };
}

/** The passage's id as the driver's statement shows it (decision 56). */
async function passageIdOf(app: FastifyInstance, d: Registered, place: string): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/api/extrato/listar?page=1', headers: { authorization: `Bearer ${d.token}` } });
  const row = res
    .json<{ Transacoes: { placeName: string; passagem: { id: number } | null }[] }>()
    .Transacoes.find((r) => r.placeName === place);
  if (!row?.passagem) throw new Error(`passagem ${place} sem registro`);
  return row.passagem.id;
}

/** A contest the driver opens on the passage at Praça Itupeva. */
async function contestOf(app: FastifyInstance, d: Registered): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/motorista/contestacoes',
    headers: { authorization: `Bearer ${d.token}` },
    payload: { passagemId: await passageIdOf(app, d, 'Praça Itupeva'), motivo: 'CATEGORIA' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ Contestacao: { id: number } }>().Contestacao.id;
}

/** Two drivers, A (the one who calls) and B (whose identifiers A must never reach), and a key of each partner kind. */
export async function buildWorld(app: FastifyInstance, db: Db): Promise<World> {
  const partners = new PartnerService(db);
  const keys = {
    shipper: (await partners.create('shipper', 'Transportes Fuzz')).key,
    operator: (await partners.create('operator', 'SemParar Fuzz', SEMPARAR)).key,
    platform: (await partners.create('platform', 'MoveMais Fuzz')).key,
    concessionaire: (await partners.create('concessionaire', 'Rota Fuzz Concessionária')).key,
  };
  const a = await driverWorld(app, db, keys, 'Ana Motorista Alves');
  const b = await driverWorld(app, db, keys, 'Bruno Motorista Borges');
  // Decision 77: a company invites both as Motoristas; the invitations wait for their answers.
  const company = await registerDriver(app, { name: 'Transportes Mundo Ltda', cpfCnpj: cnpj.generate() });
  for (const person of [a, b]) {
    const invited = await app.inject({
      method: 'POST',
      url: '/api/empresa/membros',
      headers: { authorization: `Bearer ${company.token}` },
      payload: { cpf: person.cpfCnpj, papel: 'motorista' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    person.invitationId = invited.json<{ Membro: { id: number } }>().Membro.id;
  }
  const term = await db.kysely.selectFrom('terms').select('id').orderBy('version', 'desc').executeTakeFirstOrThrow();
  return { a, b, keys, termId: term.id, operatorCnpj: SEMPARAR, company };
}

/** A toll passage on `a`'s active tag, alone or as a batch's one item. */
function fuzzPassage(a: DriverWorld): Record<string, unknown> {
  return {
    externalId: `fz-${newSerial()}`,
    serialNumber: a.active.serial,
    placeName: 'Praça Fuzz',
    value: 0.5,
    occurredAt: saoPaulo(5).local,
    is_third: false,
  };
}

/** Decision 57: a browser's push subscription (a P-256 public key and a 16-byte secret), one per driver. */
const pushKeys = { p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };
function pushSubscriptionOf(a: DriverWorld): { endpoint: string; keys: { p256dh: string; auth: string } } {
  return { endpoint: `https://fcm.googleapis.com/fcm/send/portal-${a.id}`, keys: pushKeys };
}

/** A request that the server accepts from driver `a`: the fuzzer mutates it field by field. */
export function validRequest(
  name: keyof typeof api,
  w: World,
  a: DriverWorld = w.a,
  b: DriverWorld = w.b,
): { body?: Record<string, unknown>; params?: Record<string, string | number>; query?: string } {
  switch (name) {
    // Accepted as they stand (a sign-in that succeeds, a new CPF), so that a single hostile field
    // is what reaches the session insert or the registration's transaction.
    case 'login':
      return { body: { cpfCnpj: a.cpfCnpj, password: a.password } };
    case 'register':
      return {
        body: {
          name: 'Fulano de Tal Fuzz',
          cpfCnpj: newCpf(),
          phoneNumber: '(11) 98765-4321',
          password: 'segredo123',
          password_confirmation: 'segredo123',
          type: 'driver',
        },
      };
    case 'status':
      return { params: { userId: a.id } };
    case 'download':
      return { params: { termId: w.termId } };
    case 'createPixCharge':
      return { body: { valor: 150, cpfCnpj: a.cpfCnpj, project: 'VPO' } };
    case 'pixCharge':
      return { params: { id: a.pendingChargeId } };
    case 'asaasWebhook':
      return { body: paymentEvent('PAYMENT_RECEIVED', { id: b.pendingChargeId, valor: 120 }) };
    case 'asaasTransferValidation':
      return {
        body: {
          type: 'TRANSFER',
          transfer: {
            id: 'tr_fuzz',
            value: 1,
            status: 'PENDING',
            externalReference: 'wd_fuzz',
            operationType: 'PIX',
            bankAccount: { pixAddressKey: a.cpfCnpj },
          },
        },
      };
    case 'withdraw':
      return { body: { description: 'Saque fuzz', receiver_document: a.cpfCnpj, amount: 1, pix: { key: a.cpfCnpj, type: 'CPF' } } };
    case 'savePixKey':
      return { body: { tipo: 'EVP', chave: randomUUID(), senha: a.password } };
    case 'removePixKey':
      return { params: { id: a.pixKeyId } };
    case 'updatePayoutLimits':
      return { body: { porSaque: 4000, diario: 8000, noturno: 800 } };
    case 'statementExport':
      return { query: 'formato=csv&periodo=tudo' };
    case 'receipt':
    case 'receiptPdf':
      return { params: { tipo: 'compra', id: a.paidChargeId } };
    case 'updateSettings':
      return { body: { nivelAlertaSaldo: 75.5 } };
    case 'updateProfile':
      return { body: { nome: 'Fulano de Tal Corrigido', telefone: '(21) 99876-5432', senha: a.password } };
    // Decision 70: refused while A has money (what the matrix and the fuzzer then check).
    case 'closeAccount':
      return { body: { senha: a.password, confirmacao: true } };
    case 'closureReceipt':
      return { params: { token: 'Zm9yLWEtY2xvc2VkLWFjY291bnQtbm90LXRoaXMtb25lLQ' } };
    case 'statement':
    case 'tags':
    case 'vehicles':
    case 'fleetVehicles':
    case 'vehiclePassages':
    case 'auditEvents':
    case 'auditExport':
      return { query: 'page=1' };
    case 'acceptInvitation':
    case 'declineInvitation':
      return { params: { id: a.invitationId } };
    case 'inviteMember':
      return { body: { cpf: newCpf(), papel: 'financeiro' } };
    // No member of the caller's: the calls are answered 'not found' past the authorization.
    case 'changeMemberRole':
      return { params: { id: MAX_ID }, body: { papel: 'gestor' } };
    case 'removeMember':
    case 'approveWithdrawal':
    case 'declineWithdrawal':
      return { params: { id: MAX_ID } };
    case 'setApprovalThreshold':
      return { body: { valor: 300 } };
    case 'createCostCentre':
      return { body: { nome: 'Operação Norte', codigo: `CN-${newSerial().slice(-6)}` } };
    case 'updateCostCentre':
      return { params: { id: a.costCentreId }, body: { nome: 'Operação Sul e Sudeste', codigo: `CS-${newSerial().slice(-6)}` } };
    case 'removeCostCentre':
      return { params: { id: a.spareCostCentreId } };
    case 'setVehicleCostCentre':
      return { params: { id: a.active.vehicleId }, body: { centroDeCusto: a.costCentreId } };
    case 'setVehicleBudget':
      return { params: { id: a.active.vehicleId }, body: { valor: 1500, bloquearNoLimite: true } };
    case 'vehicleBudgets':
      return { query: 'page=1' };
    case 'costCentreReport':
      return { params: { id: a.costCentreId }, query: 'mes=2026-11&formato=csv' };
    case 'assignVehicle':
      return { params: { id: a.inactive.vehicleId }, body: { motoristas: [] } };
    case 'driverVpos':
      return { query: 'page=1&sort=valor&direction=asc' };
    case 'registerTag':
      return { body: registrationBody(a, { Operadora: SEMPARAR }) };
    case 'blockTag':
      return { body: { serialNumber: a.active.serial, statusId: '200', origem: TAG_ORIGEM } };
    case 'releaseTag':
      return { body: { serialNumber: a.active.serial, statusId: '100', origem: TAG_ORIGEM } };
    case 'cancelTag':
      return { body: { serialNumber: a.inactive.serial, statusId: '300', origem: TAG_ORIGEM } };
    case 'activateTag':
      return { body: { serialNumber: a.inactive.serial, licensePlate: a.inactive.plate, cnpj: a.cpfCnpj } };
    case 'replaceTag':
      return { body: { serialNumber: a.active.serial, newSerialNumber: newSerial() } };
    case 'removeTag':
      return { body: { serialNumber: a.inactive.serial } };
    case 'updateVehicle':
      return {
        body: {
          vehicle_id: a.inactive.vehicleId,
          serialNumber: a.inactive.serial,
          Operadora: SEMPARAR,
          LicensePlate: a.inactive.plate,
          CpfCnpjAntt: a.cpfCnpj,
          RntrcAntt: '12345678',
          Axles: 3,
          vehicleType: 2,
        },
      };
    case 'vehicleDetail':
      return { params: { licensePlate: a.active.plate } };
    case 'deleteVehicle':
      return { body: { vehicle_id: a.inactive.vehicleId } };
    case 'partnerIssueVpo':
      return {
        body: {
          externalId: `fz-${newSerial()}`,
          serialNumber: a.active.serial,
          PlacaVeiculo: a.active.plate,
          CpfCnpjEmbarcador: '11222333000181',
          ValorTotalVP: 99.9,
        },
      };
    case 'driverVpo':
    case 'driverVpoPdf':
      return { params: { id: a.vpoId } };
    case 'openContest':
      return { body: { passagemId: a.freePassageId, motivo: 'NAO_PASSOU' } };
    case 'driverContests':
      return { query: 'page=1' };
    case 'driverContestPdf':
      return { params: { id: a.contestId } };
    case 'partnerContests':
      return { query: 'page=1&estado=ABERTA' };
    case 'partnerAnswerContest':
      return { params: { id: a.contestId }, body: { decisao: 'RECUSADA', motivo: 'Passagem confirmada pela câmera' } };
    case 'createPixAutomatic':
      return { body: { valor: 150, frequencia: 'SEMANAL' } };
    case 'changePixAutomaticValue':
      return { params: { id: a.automaticId }, body: { valor: 175.5 } };
    case 'cancelPixAutomatic':
      return { params: { id: a.automaticId } };
    case 'savePushSubscription':
      return { body: pushSubscriptionOf(a) };
    case 'deletePushSubscription':
      return { body: { endpoint: pushSubscriptionOf(a).endpoint } };
    case 'partnerVpo':
      return { params: { externalId: a.vpoExternalId } };
    case 'partnerUpdateVpo':
      return { params: { externalId: a.vpoExternalId }, body: { Status: 'EM_VIAGEM' } };
    case 'partnerPassage':
      return { body: fuzzPassage(a) };
    case 'partnerPassageBatch':
      return { body: { passagens: [fuzzPassage(a)] } };
    case 'partnerToll':
      return { body: tollBody(a.active.plate, 'Pórtico Fuzz', 0.5, 5) };
    case 'partnerTollBatch':
      return { body: { debitos: [tollBody(a.active.plate, 'Pórtico Fuzz', 0.5, 5)] } };
    case 'partnerTollPayments':
      return { query: 'page=1' };
    case 'partnerTollDelete':
      return { params: { externalId: a.tollExternalId } };
    case 'freeFlowTolls':
      return { query: `page=1&placa=${a.active.plate}` };
    case 'payFreeFlowToll':
    case 'freeFlowTollProof':
      return { params: { id: a.tollId } };
    case 'contestFreeFlowToll':
      return { params: { id: a.tollId }, body: { motivo: 'NAO_PASSOU_PORTICO' } };
    case 'freeFlowTollReceipt':
      return { params: { id: a.paidTollId } };
    case 'passageProof':
      return { params: { id: a.freePassageId } };
    case 'verifyProof':
      return { params: { codigo: a.proofCode } };
    // One vehicle's choice (without veiculoId it is every vehicle of the caller's at once).
    case 'setFreeFlowPlates':
      return { body: { veiculoId: a.active.vehicleId, ativo: true } };
    case 'partnerThirdPartyMovement':
      return {
        body: {
          externalId: `fz-${newSerial()}`,
          cpfCnpj: a.cpfCnpj,
          origin: 'credito-terceiro-movemais',
          value: 1,
          occurredAt: saoPaulo(5).local,
        },
      };
    default:
      return {};
  }
}
