import { randomBytes } from 'node:crypto';
import { api, buildPath } from '@portal/contract';
import { maskCpfCnpj, proofMessages, serverMessages } from '@portal/domain';
import type { Endpoint, FreeFlowPlatesResponse, FreeFlowTollsResponse, ProofVerifyResponse } from '@portal/contract';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken, SessionStore } from '../../src/modules/auth/sessions.js';
import { PartnerService } from '../../src/modules/partners/service.js';
import { useTestApp } from '../helpers/app.js';
import { answerText } from '../helpers/files.js';
import { acceptTerms, TRANSFER_VALIDATION_TOKEN, WEBHOOK_TOKEN } from '../helpers/pix.js';
import { describeEachDatabase } from '../helpers/databases.js';
import type { DatabaseWatch } from '../helpers/db-watch.js';
import { watchDatabase } from '../helpers/db-watch.js';
import { credentialOf } from '../helpers/hostile.js';
import type { World } from '../helpers/world.js';
import { buildWorld, validRequest } from '../helpers/world.js';

type Name = keyof typeof api;

/**
 * How each driver call is scoped. 'foreign': driver A sends the very request driver B would
 * send (B's serial, plate, vehicle id, charge, user id, CPF/CNPJ): refused, nothing written.
 * 'own': the call names no driver's resource; it answers A's data only, and nothing of B's shows.
 * 'public': the same for every driver (the current terms). A driver call of the contract without
 * its row here fails the first test below.
 */
const SCOPE: Partial<Record<Name, 'foreign' | 'own' | 'public'>> = {
  logout: 'own',
  status: 'foreign',
  current: 'public',
  download: 'public',
  accept: 'own',
  reject: 'own',
  balance: 'own',
  createPixCharge: 'foreign',
  pixCharge: 'foreign',
  withdrawalEligibility: 'own',
  withdraw: 'foreign',
  statement: 'own',
  tags: 'own',
  registerTag: 'foreign',
  blockTag: 'foreign',
  releaseTag: 'foreign',
  cancelTag: 'foreign',
  activateTag: 'foreign',
  replaceTag: 'foreign',
  removeTag: 'foreign',
  updateVehicle: 'foreign',
  vehicles: 'own',
  vehicleDetail: 'foreign',
  deleteVehicle: 'foreign',
  driverVpos: 'own',
  driverVpo: 'foreign',
  driverVpoPdf: 'foreign',
  statementExport: 'own',
  statementVehicles: 'own',
  receipt: 'foreign',
  receiptPdf: 'foreign',
  attention: 'own',
  settings: 'own',
  updateSettings: 'own',
  profile: 'own',
  updateProfile: 'own',
  // Decision 69: the ZIP of everything the portal holds about the caller (its JSON files are read below).
  driverDataExport: 'own',
  // Decision 70: A has money, so closing is refused with A's own reasons (REFUSED_BY_STATE).
  accountClosure: 'own',
  closeAccount: 'own',
  pixKeys: 'own',
  savePixKey: 'own',
  removePixKey: 'foreign',
  payoutLimits: 'own',
  updatePayoutLimits: 'own',
  openContest: 'foreign',
  driverContests: 'own',
  driverContestPdf: 'foreign',
  pixAutomatic: 'own',
  createPixAutomatic: 'own',
  changePixAutomaticValue: 'foreign',
  cancelPixAutomatic: 'foreign',
  // Decision 57: the key is the server's; a subscription names only the caller's own device, and
  // removing another driver's endpoint answers as removing an unknown one (nothing of theirs is touched).
  pushPublicKey: 'public',
  savePushSubscription: 'own',
  deletePushSubscription: 'own',
  // Decision 76: a free-flow toll, a tag passage or a vehicle named by its id: another driver's is the
  // same 404 as none. The list and the plates name no one's (a plate filter of B's is checked below).
  freeFlowTolls: 'own',
  payFreeFlowToll: 'foreign',
  contestFreeFlowToll: 'foreign',
  freeFlowTollReceipt: 'foreign',
  freeFlowTollProof: 'foreign',
  passageProof: 'foreign',
  freeFlowPlates: 'own',
  // One vehicle's choice names it by veiculoId, as deleteVehicle's vehicle_id; the choice for every
  // vehicle at once (no veiculoId) is checked below.
  setFreeFlowPlates: 'foreign',
  // Decision 77: the accounts and invitations are the person's own; an invitation is named by its id
  // (another person's is the same 404 as none). A driver's CPF account has no members: the company
  // calls answer its empty lists, refuse an invitation (onlyCompanies) and find no member of B's.
  actingAccounts: 'own',
  invitations: 'own',
  acceptInvitation: 'foreign',
  declineInvitation: 'foreign',
  members: 'own',
  inviteMember: 'own',
  changeMemberRole: 'own',
  removeMember: 'own',
  fleetVehicles: 'own',
  assignVehicle: 'foreign',
  auditEvents: 'own',
  auditExport: 'own',
  vehiclePassages: 'own',
  // Dual control is a company's (a driver's CPF account sets none); a pending withdrawal is named by id.
  withdrawalApprovals: 'own',
  setApprovalThreshold: 'own',
  approveWithdrawal: 'own',
  declineWithdrawal: 'own',
  // Cost centres and their report: a centre or a vehicle named by id, another account's the same 404 as none.
  costCentres: 'own',
  createCostCentre: 'own',
  updateCostCentre: 'foreign',
  removeCostCentre: 'foreign',
  setVehicleCostCentre: 'foreign',
  costCentreReport: 'foreign',
  // Decision 78: budgets are a company's (A's CPF account is refused by its kind); a vehicle named by id.
  vehicleBudgets: 'own',
  setVehicleBudget: 'foreign',
};

const UNAUTHORIZED = 'Sua sessão expirou. Entre novamente.';

/** What of driver A's own an 'own' call must answer (not merely nothing of B's). */
const OWN_DATA: Partial<Record<Name, (w: World) => string>> = {
  tags: (w) => w.a.active.serial,
  vehicles: (w) => w.a.active.plate,
  driverVpos: (w) => w.a.active.plate,
  statement: () => 'Praça Itupeva',
  balance: () => '"Saldo":',
  statementExport: () => 'Praça Itupeva',
  statementVehicles: (w) => w.a.active.plate,
  // A's Pix still waiting for payment (the matrix checks B's never shows).
  attention: (w) => w.a.pendingChargeId,
  settings: () => '"nivelAlertaSaldo":',
  updateSettings: () => '"nivelAlertaSaldo":75.5',
  profile: (w) => w.a.cpfCnpj,
  updateProfile: (w) => w.a.cpfCnpj,
  driverDataExport: (w) => w.a.active.serial,
  accountClosure: () => 'Saque o saldo de',
  closeAccount: () => 'Saque o saldo de',
  pixKeys: () => 'ana@exemplo.com.br',
  payoutLimits: () => '"porSaque":',
  updatePayoutLimits: () => '"porSaque":{"valor":4000',
  driverContests: () => 'Praça Itupeva',
  pixAutomatic: () => '"Disponivel":true',
  createPixAutomatic: () => '"estado":"AGUARDANDO"',
  // A's tolls are of A's plate (B's toll at the same gantry would show B's, which the matrix checks never does).
  freeFlowTolls: (w) => w.a.active.plate,
  freeFlowPlates: (w) => w.a.active.plate,
  actingAccounts: (w) => maskCpfCnpj(w.a.cpfCnpj),
  invitations: () => 'Transportes Mundo Ltda',
  fleetVehicles: (w) => w.a.active.plate,
  vehiclePassages: (w) => w.a.active.plate,
  costCentres: () => 'Operação Sul',
};
/** 'own' calls A's world refuses by its state, not by whose it is (decision 70: A has money, so A cannot close): their status. */
const REFUSED_BY_STATE: Partial<Record<Name, number>> = {
  closeAccount: 409,
  inviteMember: 403,
  changeMemberRole: 404,
  removeMember: 404,
  setApprovalThreshold: 403,
  approveWithdrawal: 404,
  declineWithdrawal: 404,
  vehicleBudgets: 403,
};
const driverCalls = (Object.keys(api) as Name[]).filter((n) => api[n].auth);
/**
 * Decision 72: reads anyone may make before signing in (the privacy notice's encarregado). The same
 * answer with or without a session, whose ever it is: nothing of a driver's, nothing written.
 */
const PUBLIC_READS: Name[] = ['privacy'];
/** Asaas's calls to us, each with its own asaas-access-token (the webhook's, the transfer validation's). */
const asaasCalls = (Object.keys(api) as Name[]).filter((n) => credentialOf(api[n] as Endpoint) === 'webhook');
const asaasToken = (name: Name) => (name === 'asaasTransferValidation' ? TRANSFER_VALIDATION_TOKEN : WEBHOOK_TOKEN);
const PARTNER_KINDS = ['shipper', 'operator', 'platform', 'concessionaire'] as const;
type PartnerKind = (typeof PARTNER_KINDS)[number];
const partnerCalls = (Object.keys(api) as Name[]).filter((n) =>
  (PARTNER_KINDS as readonly string[]).includes(credentialOf(api[n] as Endpoint)),
);

describeEachDatabase('matriz de autorização, gerada do contrato', (dialect) => {
  const ctx = useTestApp(dialect);
  let world: World;
  let watch: DatabaseWatch;
  let sessions: SessionStore;
  const tokens: Record<'revoked' | 'expired', string> = { revoked: '', expired: '' };

  beforeAll(async () => {
    const { app, db } = ctx();
    world = await buildWorld(app, db);
    sessions = new SessionStore(db.kysely, 1);
    tokens.revoked = await sessions.create(db.kysely, world.a.id);
    const revoked = await app.inject({ method: 'POST', url: '/api/tokens/logout', headers: { authorization: `Bearer ${tokens.revoked}` } });
    expect(revoked.statusCode).toBe(200);
    tokens.expired = await sessions.create(db.kysely, world.a.id);
    await db.kysely
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(tokens.expired))
      .execute();
    watch = await watchDatabase(db);
  });

  /** The request driver `who` would send for their own resources, with the given headers. */
  function request(name: Name, headers: Record<string, string>, who: 'a' | 'b' = 'a'): InjectOptions {
    const e = api[name] as Endpoint;
    const owner = who === 'a' ? world.a : world.b;
    const other = who === 'a' ? world.b : world.a;
    const valid = validRequest(name, world, owner, other);
    let url = buildPath(e.path, valid.params ?? {});
    if (valid.query) url = `${url}?${valid.query}`;
    return { method: e.method, url, headers, ...(valid.body ? { payload: valid.body } : {}) };
  }

  async function expectRefusedUnchanged(options: InjectOptions, statuses: number[], message?: string) {
    const before = await watch.changes();
    const res = await ctx().app.inject(options);
    const what = `${options.method} ${options.url} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
    expect(statuses, what).toContain(res.statusCode);
    const body = res.json<{ Sucesso: boolean; Mensagem: string }>();
    expect(body.Sucesso, what).toBe(false);
    if (message) expect(body.Mensagem, what).toBe(message);
    expect(await watch.changes(), `${what}: alterou o banco`).toBe(before);
    return res;
  }

  const credentialsCases: [string, () => Record<string, string>][] = [
    ['no token', () => ({})],
    ['an empty bearer', () => ({ authorization: 'Bearer ' })],
    ['another scheme', () => ({ authorization: `Basic ${Buffer.from(`${world.a.cpfCnpj}:${world.a.password}`).toString('base64')}` })],
    ['an unknown token', () => ({ authorization: `Bearer ${randomBytes(32).toString('base64url')}` })],
    ['a token of the wrong shape', () => ({ authorization: `Bearer ${world.a.token}x` })],
    ['a revoked token', () => ({ authorization: `Bearer ${tokens.revoked}` })],
    ['an expired token', () => ({ authorization: `Bearer ${tokens.expired}` })],
    ['the token in the query string', () => ({})],
  ];

  it('every driver call of the contract has its scope written here', () => {
    expect(driverCalls.filter((n) => SCOPE[n] === undefined)).toEqual([]);
    expect(Object.keys(SCOPE).filter((n) => !driverCalls.includes(n as Name))).toEqual([]);
  });

  describe.each(driverCalls)('%s', (name) => {
    it.each(credentialsCases)('with %s: 401, nothing written', async (label, headers) => {
      const options = request(name, headers());
      if (label === 'the token in the query string')
        options.url = `${String(options.url)}${String(options.url).includes('?') ? '&' : '?'}token=${world.a.token}`;
      await expectRefusedUnchanged(options, [401], UNAUTHORIZED);
    });

    const scope = SCOPE[name];
    if (scope === 'foreign') {
      it("with another driver's identifiers: refused, nothing written, nothing of theirs answered", async () => {
        const res = await expectRefusedUnchanged(request(name, { authorization: `Bearer ${world.a.token}` }, 'b'), [403, 404]);
        for (const secret of [world.b.cpfCnpj, world.b.active.serial, world.b.active.plate, world.b.inactive.serial]) {
          expect(res.body).not.toContain(secret);
        }
        // The control: a read answers its owner, so the refusal above is about whose it is.
        if (api[name].method === 'GET') {
          const own = await ctx().app.inject(request(name, { authorization: `Bearer ${world.b.token}` }, 'b'));
          expect(own.statusCode, own.body).toBe(200);
        }
      });
    } else {
      it(`answers ${scope === 'own' ? "the driver's own data" : 'what every driver sees'}; nothing of another driver's shows`, async () => {
        // Sair revokes the session it is called with: it gets its own.
        const token = name === 'logout' ? await sessions.create(ctx().db.kysely, world.a.id) : world.a.token;
        const res = await ctx().app.inject(request(name, { authorization: `Bearer ${token}` }));
        const refusedAs = REFUSED_BY_STATE[name];
        if (refusedAs === undefined) expect(res.statusCode, res.body).toBeLessThan(300);
        else expect(res.statusCode, res.body).toBe(refusedAs);
        const body = await answerText(res);
        for (const secret of [
          world.b.cpfCnpj,
          world.b.active.serial,
          world.b.active.plate,
          world.b.inactive.serial,
          world.b.pendingChargeId,
        ]) {
          expect(body).not.toContain(secret);
        }
        const mine = OWN_DATA[name]?.(world);
        if (mine !== undefined) expect(body).toContain(mine);
        // A rejection would make the withdrawal below refuse for the terms, not for the identifiers.
        if (name === 'reject') await acceptTerms(ctx().app, world.a);
      });
    }
  });

  describe.each(PUBLIC_READS)('%s (public read)', (name) => {
    it("answers the same without a session, with each driver's and with a revoked one; nothing of a driver's, nothing written", async () => {
      expect(credentialOf(api[name] as Endpoint)).toBe('none');
      const before = await watch.changes();
      const answers = new Set<string>();
      for (const token of [null, world.a.token, world.b.token, tokens.revoked]) {
        const res = await ctx().app.inject(request(name, token === null ? {} : { authorization: `Bearer ${token}` }));
        expect(res.statusCode, res.body).toBe(200);
        for (const secret of [world.a.cpfCnpj, world.b.cpfCnpj, world.a.active.serial, world.b.active.plate]) {
          expect(res.body).not.toContain(secret);
        }
        answers.add(res.body);
      }
      expect(answers.size).toBe(1);
      expect(await watch.changes()).toBe(before);
    });
  });

  describe.each(partnerCalls)('%s (partner key)', (name) => {
    const needs = credentialOf(api[name] as Endpoint) as PartnerKind;
    it.each([
      ['no key', () => ({}), 401],
      ['an unknown key', () => ({ 'x-api-key': `pm_${randomBytes(32).toString('base64url')}` }), 401],
      ["a driver's token instead", () => ({ authorization: `Bearer ${world.a.token}` }), 401],
    ] as const)('with %s: refused, nothing written', async (_label, headers, status) => {
      await expectRefusedUnchanged(request(name, headers()), [status]);
    });

    it.each(PARTNER_KINDS.filter((kind) => kind !== needs))('with a key of another kind (%s): 403, nothing written', async (kind) => {
      await expectRefusedUnchanged(request(name, { 'x-api-key': world.keys[kind] }), [403]);
    });

    it('with a revoked key: 401, nothing written', async () => {
      const partners = new PartnerService(ctx().db);
      const created = await partners.create(needs, `Revogado ${needs}`, needs === 'operator' ? world.operatorCnpj : undefined);
      await partners.revoke(created.id);
      await expectRefusedUnchanged(request(name, { 'x-api-key': created.key }), [401]);
    });
  });

  describe('verifyProof (public read: the code is the credential)', () => {
    const verify = (codigo: string, token: string | null): InjectOptions => ({
      method: 'GET',
      url: buildPath(api.verifyProof.path, { codigo }),
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
    const sessions = () => [null, world.a.token, world.b.token, tokens.revoked];
    const othersSecrets = () => [world.b.cpfCnpj, world.b.active.serial, world.b.active.plate, world.b.inactive.serial];

    it('is a call without a session or a key', () => {
      expect(credentialOf(api.verifyProof as Endpoint)).toBe('none');
      expect(api.verifyProof.auth).toBe(false);
    });

    it("a made-up or changed code: 404 with or without a session, nothing written, nothing of a driver's answered", async () => {
      const genuine = world.a.proofCode;
      const changed = `${genuine.slice(0, -1)}${genuine.endsWith('A') ? 'B' : 'A'}`;
      for (const code of [`L1.a.${'x'.repeat(27)}`, 'qualquer-coisa', changed, genuine.toUpperCase(), genuine.replace(/^L/, 'P')]) {
        for (const token of sessions()) {
          const res = await expectRefusedUnchanged(verify(code, token), [404], proofMessages.notFound);
          for (const secret of [world.a.cpfCnpj, world.a.active.plate, world.a.active.serial, ...othersSecrets()]) {
            expect(res.body).not.toContain(secret);
          }
        }
      }
    });

    it("a genuine code: its proof's facts, the same with or without a session, the document masked; nothing written", async () => {
      const before = await watch.changes();
      const answers = new Set<string>();
      for (const token of sessions()) {
        const res = await ctx().app.inject(verify(world.a.proofCode, token));
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<ProofVerifyResponse>().Comprovante).toMatchObject({
          codigo: world.a.proofCode,
          tipo: 'PEDAGIO_SEM_CANCELA',
          placa: world.a.active.plate,
          documentoMascarado: maskCpfCnpj(world.a.cpfCnpj),
        });
        for (const secret of [world.a.cpfCnpj, world.a.password, ...othersSecrets()]) expect(res.body).not.toContain(secret);
        answers.add(res.body);
      }
      expect(answers.size).toBe(1);
      expect(await watch.changes()).toBe(before);
    });
  });

  describe('free flow (decision 76): the calls that name no toll or vehicle of their own', () => {
    it("the tolls filtered by B's plate: an empty page, nothing of B's, nothing written", async () => {
      const before = await watch.changes();
      const res = await ctx().app.inject(request('freeFlowTolls', { authorization: `Bearer ${world.a.token}` }, 'b'));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<FreeFlowTollsResponse>().Debitos).toEqual([]);
      for (const secret of [world.b.cpfCnpj, world.b.active.serial, world.b.inactive.serial, 'Pórtico'])
        expect(res.body).not.toContain(secret);
      expect(await watch.changes()).toBe(before);
    });

    it("the choice for every vehicle at once (no veiculoId): A's own plates only; B's plates and tolls untouched", async () => {
      const asB = { authorization: `Bearer ${world.b.token}` };
      const read = async (url: string) => (await ctx().app.inject({ method: 'GET', url, headers: asB })).body;
      const bPlates = await read(api.freeFlowPlates.path);
      const bTolls = await read(`${api.freeFlowTolls.path}?page=1`);
      const res = await ctx().app.inject({
        method: 'POST',
        url: api.setFreeFlowPlates.path,
        headers: { authorization: `Bearer ${world.a.token}` },
        payload: { ativo: true },
      });
      expect(res.statusCode, res.body).toBe(200);
      const placas = res.json<FreeFlowPlatesResponse>().Placas;
      expect(placas.map((p) => [p.placa, p.ativo]).sort()).toEqual(
        [
          [world.a.active.plate, true],
          [world.a.inactive.plate, true],
        ].sort(),
      );
      for (const secret of [world.b.cpfCnpj, world.b.active.serial, world.b.active.plate, world.b.inactive.plate]) {
        expect(res.body).not.toContain(secret);
      }
      expect(await read(api.freeFlowPlates.path)).toBe(bPlates);
      expect(await read(`${api.freeFlowTolls.path}?page=1`)).toBe(bTolls);
    });
  });

  describe.each(asaasCalls)('%s (asaas-access-token)', (name) => {
    const other = asaasToken(name) === WEBHOOK_TOKEN ? TRANSFER_VALIDATION_TOKEN : WEBHOOK_TOKEN;
    it.each([
      ['no token', () => ({})],
      ['a wrong token', () => ({ 'asaas-access-token': randomBytes(32).toString('base64url') })],
      ["the other Asaas call's token", () => ({ 'asaas-access-token': other })],
      ["a driver's token instead", () => ({ authorization: `Bearer ${world.a.token}` })],
    ] as const)('with %s: 401, nothing written', async (_label, headers) => {
      await expectRefusedUnchanged(request(name, headers()), [401], serverMessages.pix.webhookUnauthorized);
    });
  });

  it('the transfer validation with its token: a transfer the portal did not create is refused, nothing written', async () => {
    const before = await watch.changes();
    const res = await ctx().app.inject(request('asaasTransferValidation', { 'asaas-access-token': TRANSFER_VALIDATION_TOKEN }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'REFUSED', refuseReason: serverMessages.transferValidation.refused['unknown-withdrawal'] });
    expect(await watch.changes()).toBe(before);
  });
});
