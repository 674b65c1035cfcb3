import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, buildPath, ERROR_CODES, IDEMPOTENCY_KEY_HEADER } from '@portal/contract';
import type { Endpoint } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTemplateTermsPdf } from '../../src/modules/terms/template-pdf.js';
import { bearer, json, registerDriver } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { ownBalance, readyDriver, usePixTestApp } from '../helpers/pix.js';
import { actions, activeTag, registerTag, registrationBody } from '../helpers/tags.js';

type Name = keyof typeof api;

/**
 * Founding decision 27: the state-changing driver calls that do NOT need the current terms accepted, each
 * with its reason. Every other one must be marked requiresTerms in the contract: a new call that
 * is neither fails the first test below.
 */
const EXEMPT: Partial<Record<Name, string>> = {
  logout: 'leaving must always work',
  accept: 'the way out of the refusal (/blocked-access)',
  reject: 'a decision on the terms themselves (/blocked-access)',
  updateSettings: 'only the dashboard alert level: moves no money, changes no tag or vehicle',
  updateProfile: "correcting one's own data is a right that needs no terms (LGPD art. 18, III); moves no money",
  closeAccount:
    "leaving must always work, terms refused or not (LGPD art. 18, VI); it moves no money and is refused while any money is still the driver's",
  savePixKey: 'moves nothing: a withdrawal to the key is itself refused without the terms',
  removePixKey: 'only narrows where money may go: removing a key a thief saved must always work',
  updatePayoutLimits: 'moves nothing (withdrawals are refused without the terms), and lowering a limit must always work',
  openContest: "contesting a charge is the road user's right (Contran Res. 1.013/2024, decision 56) and moves no money by itself",
  contestFreeFlowToll: "contesting a free-flow toll is the road user's right as a passage's is (decision 76), and moves no money by itself",
  setFreeFlowPlates:
    "the consent to keep a plate's tolls is its own (LGPD art. 8, § 5º: withdrawn at any time); while the terms are refused nothing is paid automatically (decision 76)",
  cancelPixAutomatic:
    'only stops money from coming in: stopping a recurring debit must always work (and the bank app can always do it too)',
  savePushSubscription: 'moves nothing: only tells this device what already happened to the account (decision 57)',
  deletePushSubscription: 'turning notifications off must always work',
  acceptInvitation: "moves nothing: what the person then does on the company's account is refused without the terms (decision 77)",
  declineInvitation: 'saying no to an invitation must always work',
  removeMember: "ending a person's access to the company must always work, as removing a Pix key a thief saved does",
  setApprovalThreshold:
    'moves nothing: turning dual control on or lowering it must always work, and raising it or turning it off waits 24 hours',
  declineWithdrawal: "refusing a company's pending withdrawal moves nothing and must always work",
  createCostCentre: "only labels for the account's own books: moves no money, changes no tag",
  updateCostCentre: "only labels for the account's own books: moves no money, changes no tag",
  removeCostCentre: "only labels for the account's own books: moves no money, changes no tag",
  setVehicleCostCentre: "only files a vehicle under a label of the account's own books: the tag and the plate stay as they were",
};

/** Issue 21, point 5: every call that moves money or changes a tag or vehicle. */
const MONEY_TAG_VEHICLE: readonly Name[] = [
  'createPixCharge',
  'withdraw',
  'registerTag',
  'blockTag',
  'releaseTag',
  'cancelTag',
  'activateTag',
  'replaceTag',
  'removeTag',
  'updateVehicle',
  'deleteVehicle',
  'createPixAutomatic',
  'changePixAutomaticValue',
  // Decision 76: paying a free-flow toll moves money; contesting one asks the concessionaire for a
  // refund of what the portal paid or would pay; a plate's choice changes the vehicle (its consent).
  'payFreeFlowToll',
  // Decision 77: who may act on a company's money, tags and vehicles, and which vehicles a Motorista sees.
  'inviteMember',
  'changeMemberRole',
  'assignVehicle',
  // Decision 77: approving a company's pending withdrawal sends the money.
  'approveWithdrawal',
  // Decision 78: a vehicle's budget may block its tag at 100 %.
  'setVehicleBudget',
];

/** The calls /blocked-access and the dashboard's terms bar make (spec §2, 7): never refused for the terms. */
const BLOCKED_ACCESS_CALLS: readonly Name[] = ['status', 'current', 'download', 'accept', 'reject'];

const entries = Object.entries(api) as [Name, Endpoint][];
const flagged = entries.filter(([, e]) => e.requiresTerms).map(([name]) => name);

describe('founding decision 27 in the contract', () => {
  it('every state-changing driver call is marked requiresTerms or exempt with its reason', () => {
    const changing = entries.filter(([, e]) => e.auth && (e.idempotent || e.method !== 'GET'));
    for (const [name, e] of changing) {
      const reason = EXEMPT[name];
      expect(
        e.requiresTerms === true || (reason !== undefined && reason.length > 0),
        `${name} (${e.method} ${e.path}): requiresTerms, or EXEMPT with a reason`,
      ).toBe(true);
      expect(e.requiresTerms === true && reason !== undefined, `${name} is both requiresTerms and exempt`).toBe(false);
    }
    const changingNames = new Set(changing.map(([name]) => name));
    for (const name of Object.keys(EXEMPT))
      expect(changingNames.has(name as Name), `EXEMPT names ${name}, not a state-changing driver call`).toBe(true);
  });

  it('flags exactly the calls that move money or change a tag or vehicle; reads and the terms calls stay open', () => {
    expect([...flagged].sort()).toEqual([...MONEY_TAG_VEHICLE].sort());
    for (const name of flagged) expect(api[name].auth, name).toBe(true);
    for (const name of BLOCKED_ACCESS_CALLS) expect(api[name].requiresTerms, name).toBeUndefined();
  });
});

describeEachDatabase('termos exigidos pelo servidor (issue 21, ponto 5)', (dialect) => {
  const { ctx, app, db } = usePixTestApp(dialect);
  const REFUSED = { Sucesso: false, Mensagem: serverMessages.terms.notAccepted, code: ERROR_CODES.termsNotAccepted };

  const call = (
    d: Registered,
    method: 'GET' | 'POST',
    url: string,
    payload?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) => app().inject({ method, url, headers: { ...bearer(d.token), ...headers }, ...(payload ? { payload } : {}) });
  const charge = (d: Registered, headers: Record<string, string> = {}) =>
    call(d, 'POST', '/api/transacoes/gerar-qrcode', { valor: 150, cpfCnpj: d.cpfCnpj, project: 'VPO' }, headers);
  const withdraw = (d: Registered) =>
    call(d, 'POST', '/api/motorista/sacar', {
      description: 'Saque',
      receiver_document: d.cpfCnpj,
      amount: 10,
      pix: { type: 'CPF', key: d.cpfCnpj },
      senha: d.password,
    });
  const expectRefused = (res: LightMyRequestResponse, what: string) => {
    expect(res.statusCode, `${what}: ${res.body}`).toBe(403);
    expect(json(res), what).toEqual(REFUSED);
  };
  /** Every flagged call of the contract, with whatever body: refused before the body is read. */
  const expectEveryFlaggedCallRefused = async (d: Registered) => {
    for (const name of flagged) {
      const e = api[name];
      const url = buildPath(e.path, Object.fromEntries([...e.path.matchAll(/:([A-Za-z]+)/g)].map((m) => [m[1], '1'])));
      for (const payload of [{}, { qualquer: 'coisa' }]) {
        const res = await app().inject({ method: e.method, url, headers: bearer(d.token), payload });
        expectRefused(res, `${name} ${JSON.stringify(payload)}`);
      }
    }
  };
  /** What a refused call must leave alone. */
  const snapshot = async (d: Registered) => ({
    entries: (await db().kysely.selectFrom('ledger_entries').select('id').where('driver_id', '=', d.id).execute()).length,
    charges: (await db().kysely.selectFrom('pix_charges').select('id').where('driver_id', '=', d.id).execute()).length,
    withdrawals: (await db().kysely.selectFrom('withdrawals').select('id').where('driver_id', '=', d.id).execute()).length,
    tags: await db()
      .kysely.selectFrom('tags')
      .select(['serial_number', 'status_code', 'deleted_at'])
      .where('driver_id', '=', d.id)
      .orderBy('id')
      .execute(),
    vehicles: await db()
      .kysely.selectFrom('vehicles')
      .select(['license_plate', 'deleted_at'])
      .where('driver_id', '=', d.id)
      .orderBy('id')
      .execute(),
  });

  it("the issue's sequence: after rejecting, the reads answer and every call that moves money or changes a tag or vehicle is 403", async () => {
    const d = await readyDriver(app(), 200);
    const t = await activeTag(app(), d);
    const inactive = await registerTag(app(), d);
    const balance = await ownBalance(app(), d);

    expect((await call(d, 'POST', '/api/termos/rejeitar')).statusCode).toBe(200);
    const before = await snapshot(d);

    // Reads: the balance and the tags are the driver's own data, and move nothing (founding decision 27).
    const saldo = await call(d, 'GET', '/api/motorista/saldo');
    expect(saldo.statusCode).toBe(200);
    expect(json(saldo)).toMatchObject({ Saldo: balance });
    const tags = await call(d, 'GET', '/api/tag/listar');
    expect(tags.statusCode).toBe(200);
    expect(tags.body).toContain(t.serial);
    expect(json(await call(d, 'GET', '/api/motorista/verificar-saque'))).toEqual({
      Sucesso: false,
      Mensagem: serverMessages.withdrawal.termsNotAccepted,
      code: 'TERMS_NOT_ACCEPTED',
    });

    expectRefused(await charge(d), 'gerar-qrcode');
    expectRefused(await withdraw(d), 'sacar');
    expectRefused(await actions.block(app(), d, t.serial), 'bloquear');
    expectRefused(await actions.cancel(app(), d, t.serial), 'cancelar');
    expectRefused(await actions.activate(app(), d, inactive.serial, inactive.plate), 'ativar');
    expectRefused(await actions.remove(app(), d, inactive.serial), 'excluir tag');
    expectRefused(await call(d, 'POST', '/api/tag/cadastrar-tag', registrationBody(d)), 'cadastrar');
    expectRefused(await call(d, 'POST', '/api/veiculo/delete', { vehicle_id: inactive.vehicleId }), 'excluir veículo');
    await expectEveryFlaggedCallRefused(d);
    expect(await snapshot(d)).toEqual(before);
    expect(await ownBalance(app(), d)).toBe(balance);

    // What /blocked-access needs keeps working, and accepting lifts the refusal.
    expect(json<{ data: { action: string } }>(await call(d, 'GET', `/api/termos/status-atual/${d.id}`)).data.action).toBe('rejeite');
    const current = await call(d, 'GET', '/api/termos/getCurrentTerm');
    expect(current.statusCode).toBe(200);
    expect((await call(d, 'GET', `/api/termos/download-base64/${json<{ data: { id: number } }>(current).data.id}`)).statusCode).toBe(200);
    expect((await call(d, 'POST', '/api/termos/aceitar')).statusCode).toBe(200);
    expect((await charge(d)).statusCode).toBe(200);
    expect((await actions.block(app(), d, t.serial)).statusCode).toBe(200);
  });

  it('a refusal is not kept under its Idempotency-Key: the same key after accepting is done, not answered 403 again', async () => {
    const d = await registerDriver(app());
    expect((await call(d, 'POST', '/api/termos/rejeitar')).statusCode).toBe(200);
    const key = { [IDEMPOTENCY_KEY_HEADER]: 'compra-depois-do-aceite' };
    expectRefused(await charge(d, key), 'gerar-qrcode');
    expect((await call(d, 'POST', '/api/termos/aceitar')).statusCode).toBe(200);
    const done = await charge(d, key);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a driver who never answered the terms reads the dashboard but moves nothing', async () => {
    const d = await registerDriver(app(), {}, { acceptTerms: false });
    expect(json(await call(d, 'GET', `/api/termos/status-atual/${d.id}`))).toMatchObject({ data: null });
    expect((await call(d, 'GET', '/api/motorista/saldo')).statusCode).toBe(200);
    expect((await call(d, 'GET', '/api/tag/listar')).statusCode).toBe(200);
    expectRefused(await charge(d), 'gerar-qrcode');
    await expectEveryFlaggedCallRefused(d);
  });

  it('a new version published by the operator (CLI terms:publish) refuses until the driver accepts it', async () => {
    const d = await readyDriver(app(), 100);
    const t = await activeTag(app(), d);
    expect((await charge(d)).statusCode).toBe(200);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'termos-'));
    try {
      const pdf = path.join(dir, 'termos-v2.pdf');
      fs.writeFileSync(pdf, await buildTemplateTermsPdf());
      const published = await runCli(['terms:publish', pdf], { DATABASE_URL: ctx().config.databaseUrl });
      expect(published.code, published.stderr).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }

    expect(json(await call(d, 'GET', `/api/termos/status-atual/${d.id}`))).toMatchObject({ data: null });
    expectRefused(await charge(d), 'gerar-qrcode');
    expectRefused(await withdraw(d), 'sacar');
    expectRefused(await actions.block(app(), d, t.serial), 'bloquear');
    expect((await call(d, 'GET', '/api/motorista/saldo')).statusCode).toBe(200);

    expect((await call(d, 'POST', '/api/termos/aceitar')).statusCode).toBe(200);
    expect(json(await call(d, 'GET', `/api/termos/status-atual/${d.id}`))).toMatchObject({ data: { action: 'aceite', version: 2 } });
    expect((await actions.block(app(), d, t.serial)).statusCode).toBe(200);
  });

  it('without a session it is still 401 first; with an unknown token too', async () => {
    const res = await app().inject({ method: 'POST', url: '/api/transacoes/gerar-qrcode', payload: {} });
    expect(res.statusCode).toBe(401);
    const unknown = await app().inject({
      method: 'POST',
      url: '/api/transacoes/gerar-qrcode',
      headers: bearer('x'.repeat(43)),
      payload: {},
    });
    expect(unknown.statusCode).toBe(401);
  });
});
