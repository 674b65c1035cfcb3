import { messages } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { api } from '../src/index.js';

/** An hour ago, with an offset: inside the accepted window whatever the day the tests run. */
const recent = new Date(Date.now() - 3_600_000).toISOString();

describe('VPOs and partner pushes', () => {
  it('reads the list query with defaults, and invalid values fall back to them', () => {
    expect(api.driverVpos.query.parse({})).toEqual({ page: 1, sort: 'data', direction: 'desc' });
    expect(api.driverVpos.query.parse({ page: '3', sort: 'valor', direction: 'asc' })).toEqual({
      page: 3,
      sort: 'valor',
      direction: 'asc',
    });
    expect(api.driverVpos.query.parse({ page: '-1', sort: 'cor', direction: 'x' })).toEqual({ page: 1, sort: 'data', direction: 'desc' });
  });

  it('partner calls are not driver calls (X-Api-Key) and report each field with its own message', () => {
    for (const e of [api.partnerIssueVpo, api.partnerUpdateVpo, api.partnerPassage, api.partnerThirdPartyMovement]) {
      expect(e.auth).toBe(false);
      expect(e.summary).toContain('X-Api-Key');
    }
    const result = api.partnerIssueVpo.body.safeParse({ ValorTotalVP: 1.001, Status: 'x' });
    expect(result.success).toBe(false);
    const byField = Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(byField).toEqual({
      externalId: messages.partner.externalIdRequired,
      serialNumber: messages.partner.serialUnknown,
      PlacaVeiculo: messages.partner.plateInvalid,
      CpfCnpjEmbarcador: messages.partner.shipperDocumentInvalid,
      ValorTotalVP: messages.partner.valueInvalid,
      Status: messages.partner.statusInvalid,
    });
    // Founding decision 29: a VPO is issued EMITIDO; another known status is refused on issue, and is the PATCH's to set.
    const issue = {
      externalId: 'v1',
      serialNumber: '7000000000000001',
      PlacaVeiculo: 'ABC1D23',
      CpfCnpjEmbarcador: '11222333000181',
      ValorTotalVP: 10,
    };
    expect(api.partnerIssueVpo.body.parse(issue).Status).toBeUndefined();
    expect(api.partnerIssueVpo.body.parse({ ...issue, Status: 'EMITIDO' }).Status).toBe('EMITIDO');
    for (const Status of ['EM_VIAGEM', 'ENCERRADO', 'CANCELADO']) {
      expect(api.partnerIssueVpo.body.safeParse({ ...issue, Status }).error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['Status', messages.partner.statusOnIssue],
      ]);
      expect(api.partnerUpdateVpo.body.parse({ Status })).toEqual({ Status });
    }
    const passage = api.partnerPassage.body.parse({
      externalId: ' p1 ',
      serialNumber: '7000 0000 0000 0001',
      placeName: 'Praça',
      value: 10.5,
      occurredAt: recent,
    });
    expect(passage).toMatchObject({ externalId: 'p1', is_third: false });
    expect(api.partnerPassage.body.safeParse({ ...passage, occurredAt: recent.replace('Z', '') }).success).toBe(false);
    expect(
      api.partnerThirdPartyMovement.body.safeParse({ externalId: 'm', cpfCnpj: '1', origin: 'passagem', value: 1, occurredAt: recent })
        .error?.issues[0]?.message,
    ).toBe(messages.partner.originInvalid);
  });
});
