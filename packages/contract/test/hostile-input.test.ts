import { formatBrl, MAX_ID, MAX_PAGE, MAX_PASSAGE_CENTS, MAX_PLATFORM_MOVEMENT_CENTS, MAX_VPO_CENTS, messages } from '@portal/domain';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { api } from '../src/index.js';

/** { field: [messages] } as the server answers a 422. */
function issuesOf(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const result = schema.safeParse(value);
  const out: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) (out[issue.path.join('.')] ??= []).push(issue.message);
  return out;
}

const registration = {
  name: 'Maria das Graças Souza',
  cpfCnpj: '529.982.247-25',
  phoneNumber: '+5511987654321',
  password: 'segredo123',
  password_confirmation: 'segredo123',
  type: 'driver',
};
const tooLong = (max: number) => messages.input.tooLong.replace('{max}', String(max));
const recent = () => new Date(Date.now() - 60_000).toISOString();

describe('one text rule for every field', () => {
  it('a name with NUL or of 60,000 characters is refused on its field; the spec rules keep their messages', () => {
    expect(issuesOf(api.register.body, { ...registration, name: 'Maria\u0000 Souza' })).toEqual({
      name: [messages.input.invalidCharacters],
    });
    expect(issuesOf(api.register.body, { ...registration, name: 'M'.repeat(60_000) })).toEqual({ name: [tooLong(120)] });
    expect(issuesOf(api.register.body, { ...registration, name: '' })).toEqual({ name: ['Por favor digite seu nome completo'] });
    expect(issuesOf(api.register.body, { ...registration, password: 'p'.repeat(129), password_confirmation: 'p'.repeat(129) })).toEqual({
      password: [tooLong(128)],
      password_confirmation: [tooLong(128)],
    });
    expect(api.register.body.safeParse({ ...registration, name: 'José 🚚 Conceição' }).success).toBe(true);
  });

  it('refuses control characters in every kind of field: forms, Pix, partners, webhooks, path parameters', () => {
    const nul = 'a\u0000b';
    expect(issuesOf(api.login.body, { cpfCnpj: nul, password: 'x' })).toEqual({ cpfCnpj: [messages.input.invalidCharacters] });
    expect(issuesOf(api.withdraw.body, { description: nul, receiver_document: '1', amount: 1, pix: { type: 'EVP', key: nul } })).toEqual({
      description: [messages.input.invalidCharacters],
      'pix.key': [messages.input.invalidCharacters],
    });
    expect(issuesOf(api.withdraw.body, { description: 'd'.repeat(141), amount: 1 })).toEqual({ description: [tooLong(140)] });
    expect(issuesOf(api.asaasWebhook.body, { event: 'PAYMENT_RECEIVED', payment: { id: nul, value: 1, externalReference: nul } })).toEqual({
      'payment.id': [messages.input.invalidCharacters],
      'payment.externalReference': [messages.input.invalidCharacters],
    });
    expect(issuesOf(api.partnerUpdateVpo.params, { externalId: nul })).toEqual({ externalId: [messages.input.invalidCharacters] });
    expect(issuesOf(api.pixCharge.params, { id: 'x'.repeat(101) })).toEqual({ id: [tooLong(100)] });
    expect(issuesOf(api.vehicleDetail.params, { licensePlate: 'ABC\u00001234' })).toEqual({
      licensePlate: [messages.input.invalidCharacters],
    });
    expect(issuesOf(api.registerTag.body, { modelo: 'scania\u0085' }).modelo).toEqual([messages.input.invalidCharacters]);
  });

  it("keeps a provider's failure reason, cleaned, instead of refusing the event", () => {
    const parsed = api.asaasWebhook.body.parse({ event: 'TRANSFER_FAILED', transfer: { id: 't1', failReason: 'Conta\u0000 encerrada' } });
    expect(parsed.transfer?.failReason).toBe('Conta  encerrada');
  });
});

describe('ids and pages within their columns', () => {
  it('an id in the path names a row of a serial column, else Identificador inválido', () => {
    expect(api.download.params.parse({ termId: String(MAX_ID) })).toEqual({ termId: MAX_ID });
    for (const termId of [String(MAX_ID + 1), '0', '-1', 'abc', '1e3', '9'.repeat(400)]) {
      expect(issuesOf(api.download.params, { termId }), termId.slice(0, 20)).toEqual({ termId: [messages.input.idInvalid] });
    }
    expect(issuesOf(api.status.params, { userId: '2147483648' })).toEqual({ userId: [messages.input.idInvalid] });
  });

  it('a vehicle id past int4 is Veículo inválido', () => {
    expect(issuesOf(api.deleteVehicle.body, { vehicle_id: MAX_ID + 1 })).toEqual({ vehicle_id: [messages.vehicle.idInvalid] });
    expect(issuesOf(api.deleteVehicle.body, { vehicle_id: String(MAX_ID + 1) })).toEqual({ vehicle_id: [messages.vehicle.idInvalid] });
    expect(api.deleteVehicle.body.parse({ vehicle_id: MAX_ID })).toEqual({ vehicle_id: MAX_ID });
  });

  it('a huge page number reads as the last possible page, garbage as page 1', () => {
    for (const page of ['99999999999999', '1e300', String(MAX_PAGE + 1)])
      expect(api.statement.query.parse({ page })).toMatchObject({ page: MAX_PAGE });
    for (const page of ['abc', '0', '-3', '2.5', '']) expect(api.statement.query.parse({ page })).toMatchObject({ page: 1 });
    expect(api.tags.query.parse({ page: '7' })).toEqual({ page: 7 });
  });
});

describe('what partners push', () => {
  const passage = () => ({ externalId: 'p1', serialNumber: '7000000000000001', placeName: 'Praça', value: 10.5, occurredAt: recent() });

  it('every amount has its maximum, and the message names it', () => {
    const above = (max: number) => messages.partner.valueAboveMaximum.replace('{max}', formatBrl(max));
    expect(issuesOf(api.partnerPassage.body, { ...passage(), value: 90071992547409.91 })).toEqual({ value: [above(MAX_PASSAGE_CENTS)] });
    expect(issuesOf(api.partnerIssueVpo.body, { ValorTotalVP: 21474836.48 }).ValorTotalVP).toEqual([above(MAX_VPO_CENTS)]);
    expect(issuesOf(api.partnerThirdPartyMovement.body, { value: 1e308 }).value).toEqual([above(MAX_PLATFORM_MOVEMENT_CENTS)]);
    expect(api.partnerPassage.body.safeParse({ ...passage(), value: MAX_PASSAGE_CENTS / 100 }).success).toBe(true);
  });

  it('occurredAt is a real date-time with offset within a year back and a day ahead', () => {
    for (const occurredAt of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-03:00', new Date(Date.now() + 2 * 86_400_000).toISOString()]) {
      expect(issuesOf(api.partnerPassage.body, { ...passage(), occurredAt })).toEqual({
        occurredAt: [messages.partner.occurredAtOutOfRange],
      });
    }
    const year = new Date().getUTCFullYear();
    expect(issuesOf(api.partnerPassage.body, { ...passage(), occurredAt: `${year}-02-30T10:00:00-03:00` })).toEqual({
      occurredAt: [messages.partner.occurredAtInvalid],
    });
  });

  it('texts have their own maxima and report the text rule, not the field-required message', () => {
    expect(issuesOf(api.partnerPassage.body, { ...passage(), externalId: 'e'.repeat(101), placeName: 'p'.repeat(121) })).toEqual({
      externalId: [tooLong(100)],
      placeName: [tooLong(120)],
    });
    expect(issuesOf(api.partnerIssueVpo.body, { origem: 'o\u0000' }).origem).toEqual([messages.input.invalidCharacters]);
  });
});
