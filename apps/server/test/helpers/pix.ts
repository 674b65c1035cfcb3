import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { beforeEach, expect } from 'vitest';
import { LocalPixProvider } from '../../src/adapters/pix/local.js';
import type {
  AutomaticAuthorizationRequest,
  AutomaticCycleRequest,
  ChargeRequest,
  CreatedAutomaticAuthorization,
  CreatedAutomaticCycle,
  CreatedCharge,
  ListedTransfer,
  PayoutRequest,
  PayoutResult,
  PixProvider,
  ProviderAuthorization,
  ProviderInstruction,
  ProviderPayment,
  ProviderTransfer,
  TransferReceiver,
} from '../../src/adapters/pix/port.js';
import { PayoutRejected, PixProviderUnavailable } from '../../src/adapters/pix/port.js';
import { DEV_PIX_WEBHOOK_TOKEN, DEV_TRANSFER_VALIDATION_TOKEN } from '../../src/config.js';
import { toIso } from '../../src/db/connection.js';
import type { Db, Dialect } from '../../src/db/connection.js';
import { bearer, registerDriver, useTestApp } from './app.js';
import type { Registered } from './app.js';

/** `reject` with a `transferId`: the provider created the transfer and it failed at once. */
export type PayoutBehaviour = 'DONE' | 'PENDING' | { reject: string; transferId?: string } | 'unavailable' | 'unreachable' | 'crash';

/** A provider for tests: real local BR Codes, scripted payouts, every call recorded. */
export class FakePixProvider implements PixProvider {
  readonly name = 'local' as const;
  private readonly local = new LocalPixProvider({
    receiverKey: 'pix@portaldomotorista.com.br',
    merchantName: 'PORTAL DO MOTORISTA',
    merchantCity: 'SAO PAULO',
  });
  readonly charges: ChargeRequest[] = [];
  readonly payouts: PayoutRequest[] = [];
  payout: PayoutBehaviour = 'DONE';
  payoutDelayMs = 0;
  /** The key's holder the payout answer reports (null: not reported, as the local provider). */
  receiver: TransferReceiver | null = null;
  failCharges = false;
  /** Provider charge ids cancelled after expiring here. */
  readonly cancelled: string[] = [];
  /** Names corrected by drivers, as told to the provider (issue 35). */
  readonly renamed: { name: string; cpfCnpj: string }[] = [];
  failRenames = false;

  async createCharge(request: ChargeRequest): Promise<CreatedCharge> {
    if (this.failCharges) throw new PixProviderUnavailable('fora do ar');
    this.charges.push(request);
    return this.local.createCharge(request);
  }

  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    this.payouts.push(request);
    if (this.payoutDelayMs) await new Promise((r) => setTimeout(r, this.payoutDelayMs));
    const b = this.payout;
    if (b === 'DONE' || b === 'PENDING') return { status: b, providerTransferId: `tr_${request.withdrawalId}`, receiver: this.receiver };
    if (b === 'unavailable') throw new PixProviderUnavailable('timeout');
    if (b === 'unreachable') throw new PixProviderUnavailable('connection refused', false);
    if (b === 'crash') throw new Error('boom');
    throw new PayoutRejected(b.reject, b.transferId ?? null);
  }

  async updateCustomerName(driver: { name: string; cpfCnpj: string }): Promise<void> {
    if (this.failRenames) throw new PixProviderUnavailable('fora do ar');
    this.renamed.push(driver);
  }

  /** Like the local provider: the event is the truth. */
  async getPayment(): Promise<ProviderPayment | null> {
    return null;
  }

  async getTransfer(): Promise<ProviderTransfer | null> {
    return null;
  }

  async transfersSince(): Promise<ListedTransfer[] | null> {
    return null;
  }

  async cancelCharge(providerChargeId: string): Promise<boolean> {
    this.cancelled.push(providerChargeId);
    return true;
  }

  /** Decision 58: the local provider's Pix Automático, every call recorded. */
  readonly authorizations: AutomaticAuthorizationRequest[] = [];
  readonly cycles: AutomaticCycleRequest[] = [];
  readonly cancelledAuthorizations: string[] = [];
  failAutomatic = false;

  async createAutomaticAuthorization(request: AutomaticAuthorizationRequest): Promise<CreatedAutomaticAuthorization> {
    if (this.failAutomatic) throw new PixProviderUnavailable('fora do ar');
    this.authorizations.push(request);
    return this.local.createAutomaticAuthorization(request);
  }

  async getAutomaticAuthorization(): Promise<ProviderAuthorization | null> {
    return null;
  }

  async cancelAutomaticAuthorization(providerAuthorizationId: string): Promise<boolean> {
    if (this.failAutomatic) throw new PixProviderUnavailable('fora do ar');
    this.cancelledAuthorizations.push(providerAuthorizationId);
    return true;
  }

  async createAutomaticCycle(request: AutomaticCycleRequest): Promise<CreatedAutomaticCycle> {
    if (this.failAutomatic) throw new PixProviderUnavailable('fora do ar');
    this.cycles.push(request);
    return this.local.createAutomaticCycle(request);
  }

  async getAutomaticInstruction(): Promise<ProviderInstruction | null> {
    return null;
  }
}

export const WEBHOOK_TOKEN = DEV_PIX_WEBHOOK_TOKEN;
/** The Asaas transfer validation's token (its own, not the webhook's). */
export const TRANSFER_VALIDATION_TOKEN = DEV_TRANSFER_VALIDATION_TOKEN;

export async function acceptTerms(app: FastifyInstance, d: Registered): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/api/termos/aceitar', headers: bearer(d.token) });
  expect(res.statusCode).toBe(200);
}

export async function createCharge(
  app: FastifyInstance,
  d: Registered,
  valor: number,
): Promise<{ id: string; payload: string; valor: number; status: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/transacoes/gerar-qrcode',
    headers: bearer(d.token),
    payload: { valor, cpfCnpj: d.cpfCnpj, project: 'VPO' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ qrCode: { id: string; payload: string; valor: number; status: string } }>().qrCode;
}

export function paymentEvent(event: string, charge: { id: string; valor: number }, extra: Record<string, unknown> = {}) {
  return {
    id: `evt_${Math.random().toString(36).slice(2)}`,
    event,
    payment: { id: `local_${charge.id}`, value: charge.valor, externalReference: charge.id, ...extra },
  };
}

export function sendWebhook(app: FastifyInstance, body: unknown, token: string | null = WEBHOOK_TOKEN): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/webhooks/asaas',
    headers: token === null ? {} : { 'asaas-access-token': token },
    payload: body as Record<string, unknown>,
  });
}

/** Buys and settles credit through the HTTP calls: the driver's own balance grows by valor. */
export async function fund(app: FastifyInstance, d: Registered, valor: number): Promise<string> {
  const charge = await createCharge(app, d, valor);
  const res = await sendWebhook(app, paymentEvent('PAYMENT_RECEIVED', charge));
  expect(res.statusCode, res.body).toBe(200);
  return charge.id;
}

export async function ownBalance(app: FastifyInstance, d: Registered): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/api/motorista/saldo', headers: bearer(d.token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ Saldo: number }>().Saldo;
}

/** founding architecture §4 invariant for every account: balance = sum of entries. */
export async function expectLedgerInvariant(db: Db): Promise<void> {
  const accounts = await db.kysely.selectFrom('accounts').select(['id', 'balance_cents']).execute();
  const sums = await db.kysely
    .selectFrom('ledger_entries')
    .select(['account_id', (eb) => eb.fn.sum<number | string>('amount_cents').as('total')])
    .groupBy('account_id')
    .execute();
  const byAccount = new Map(sums.map((s) => [s.account_id, Number(s.total)]));
  for (const a of accounts) expect(Number(a.balance_cents), `conta ${a.id}`).toBe(byAccount.get(a.id) ?? 0);
  await expectNoVpoMoneyBeforeItsHold(db);
}

/**
 * Decision 86: no entry of a VPO's money is dated before the VPO was issued or its trip began,
 * whichever was first (the export reads each VPO's balance before a period from there).
 */
async function expectNoVpoMoneyBeforeItsHold(db: Db): Promise<void> {
  const firsts = await db.kysely
    .selectFrom('ledger_entries as e')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .innerJoin('vpos as v', 'v.id', 'e.vpo_id')
    .select(['v.id', 'v.created_at', 'v.trip_start', (eb) => eb.fn.min('e.created_at').as('first')])
    .where('a.kind', '=', 'vpo')
    .groupBy(['v.id', 'v.created_at', 'v.trip_start'])
    .execute();
  for (const f of firsts) {
    const issued = Math.min(Date.parse(toIso(f.created_at)), f.trip_start === null ? Infinity : Date.parse(toIso(f.trip_start)));
    expect(Date.parse(toIso(f.first)), `VPO ${f.id}`).toBeGreaterThanOrEqual(issued);
  }
}

export async function entriesOf(db: Db, driverId: number) {
  const rows = await db.kysely
    .selectFrom('ledger_entries')
    .select(['amount_cents', 'origin', 'event', 'place_name', 'reference', 'idempotency_key'])
    // The entry's place in the statement, 1 the oldest (decision 54: by created_at, then id).
    .select(sql<number>`row_number() over (order by created_at, id)`.as('driver_seq'))
    .where('driver_id', '=', driverId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents), driver_seq: Number(r.driver_seq) }));
}

/** A new driver who accepted the terms and, when `reais` > 0, bought that much by Pix. */
export async function readyDriver(app: FastifyInstance, reais: number): Promise<Registered> {
  const d = await registerDriver(app);
  if (reais > 0) await fund(app, d, reais);
  return d;
}

/**
 * A test app (one per file, as useTestApp) over a FakePixProvider whose payouts succeed at once;
 * reset before each test, so a test may script failures or delays for itself.
 */
export function usePixTestApp(dialect: Dialect) {
  const provider = new FakePixProvider();
  const ctx = useTestApp(dialect, {}, { pixProvider: provider });
  beforeEach(() => {
    provider.payout = 'DONE';
    provider.payoutDelayMs = 0;
    provider.receiver = null;
    provider.failAutomatic = false;
  });
  return { provider, ctx, app: () => ctx().app, db: () => ctx().db };
}
