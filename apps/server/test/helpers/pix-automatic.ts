import type { PixAutomaticAuthorization, PixAutomaticResponse } from '@portal/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { localFirstPaymentId } from '../../src/adapters/pix/local.js';
import type { Db } from '../../src/db/connection.js';
import type { PixAutomaticCycleRow, PixAutomaticRow, PixChargeRow } from '../../src/db/schema.js';
import { bearer } from './app.js';
import type { Registered } from './app.js';

/** Decision 58: the driver's calls and the webhooks the local provider's bank sends (as the CLI sends them). */
export const automaticCalls = {
  current: (app: FastifyInstance, d: Registered) =>
    app.inject({ method: 'GET', url: '/api/motorista/pix-automatico', headers: bearer(d.token) }),
  create: (app: FastifyInstance, d: Registered, body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/motorista/pix-automatico', headers: bearer(d.token), payload: body }),
  changeValue: (app: FastifyInstance, d: Registered, id: string, body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/api/motorista/pix-automatico/${id}/valor`, headers: bearer(d.token), payload: body }),
  cancel: (app: FastifyInstance, d: Registered, id: string) =>
    app.inject({ method: 'POST', url: `/api/motorista/pix-automatico/${id}/cancelar`, headers: bearer(d.token) }),
};

export function authorizationOf(res: LightMyRequestResponse, status = 200): PixAutomaticAuthorization {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<PixAutomaticResponse>();
  if (!body.RecargaAutomatica) throw new Error(`sem recarga automática: ${res.body}`);
  return body.RecargaAutomatica;
}

export async function createdAutomatic(
  app: FastifyInstance,
  d: Registered,
  valor = 150,
  frequencia: 'SEMANAL' | 'MENSAL' = 'SEMANAL',
): Promise<PixAutomaticAuthorization> {
  return authorizationOf(await automaticCalls.create(app, d, { valor, frequencia }), 201);
}

export async function authorizationRow(db: Db, id: string): Promise<PixAutomaticRow> {
  return db.kysely.selectFrom('pix_automatic_authorizations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function cyclesOf(db: Db, authorizationId: string): Promise<(PixAutomaticCycleRow & { charge: PixChargeRow })[]> {
  const cycles = await db.kysely
    .selectFrom('pix_automatic_cycles')
    .selectAll()
    .where('authorization_id', '=', authorizationId)
    .orderBy('number')
    .execute();
  const out: (PixAutomaticCycleRow & { charge: PixChargeRow })[] = [];
  for (const c of cycles) {
    out.push({
      ...c,
      charge: await db.kysely.selectFrom('pix_charges').selectAll().where('id', '=', c.charge_id).executeTakeFirstOrThrow(),
    });
  }
  return out;
}

let events = 0;
const eventId = () => `evt_auto_${Date.now()}_${++events}`;

/** The first Pix of the QR Code, as the bank reports it: naming the QR Code, no externalReference. */
export function firstPaymentEvent(row: PixAutomaticRow, over: Record<string, unknown> = {}) {
  return {
    id: eventId(),
    event: 'PAYMENT_RECEIVED',
    payment: {
      id: localFirstPaymentId(row.id),
      value: Number(row.amount_cents) / 100,
      status: 'RECEIVED',
      externalReference: null,
      pixQrCodeId: row.conciliation_id,
      ...over,
    },
  };
}

export function authorizationEvent(event: string, row: PixAutomaticRow, over: Record<string, unknown> = {}) {
  return {
    id: eventId(),
    event: `PIX_AUTOMATIC_RECURRING_AUTHORIZATION_${event}`,
    authorization: {
      id: row.provider_authorization_id,
      status: event === 'ACTIVATED' ? 'ACTIVE' : event,
      contractId: row.id,
      value: Number(row.amount_cents) / 100,
      ...over,
    },
  };
}

export function instructionEvent(event: string, row: PixAutomaticRow, cycle: PixAutomaticCycleRow & { charge: PixChargeRow }, over = {}) {
  return {
    id: eventId(),
    event: `PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_${event}`,
    paymentInstruction: {
      id: cycle.instruction_id ?? `local_pi_${cycle.charge_id}`,
      status: event,
      paymentId: cycle.charge.provider_charge_id,
      dueDate: cycle.due_date,
      authorization: { id: row.provider_authorization_id },
      ...over,
    },
  };
}

/** A cycle's debit done: the payment CONFIRMED with our charge as its externalReference. */
export function cyclePaidEvent(cycle: PixAutomaticCycleRow & { charge: PixChargeRow }) {
  return {
    id: eventId(),
    event: 'PAYMENT_CONFIRMED',
    payment: {
      id: cycle.charge.provider_charge_id,
      value: Number(cycle.charge.amount_cents) / 100,
      status: 'CONFIRMED',
      externalReference: cycle.charge_id,
    },
  };
}
