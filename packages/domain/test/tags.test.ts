import { describe, expect, it } from 'vitest';
import {
  billingPeriod,
  canActivate,
  canBlock,
  canCancel,
  canEdit,
  canManage,
  canRelease,
  canRemove,
  canReplace,
  formatSerial,
  isTaggyGreenpassWarning,
  isValidPlate,
  messages,
  normalizePlate,
  replaceSerialError,
  statusOf,
  tagEditErrors,
  tagFeePlaceName,
  tagRegistrationErrors,
  vehicleTypeFor,
} from '../src/index.js';

describe('tag status (spec §4, founding decision 12)', () => {
  it('maps codes to badges; unknown codes show as Cancelada', () => {
    expect(statusOf(100)).toMatchObject({ state: 'active', label: 'Ativa', color: 'green' });
    for (const c of [200, 204, 210, 296]) expect(statusOf(c)).toMatchObject({ state: 'blocked', label: 'Bloqueada' });
    for (const c of [201, null]) expect(statusOf(c)).toMatchObject({ state: 'inactive', label: 'Inativa', color: 'yellow' });
    for (const c of [300, 301, 302, 999, 0]) expect(statusOf(c)).toMatchObject({ state: 'cancelled', label: 'Cancelada' });
  });

  it('transition predicates', () => {
    expect([100, 200, 204, 210, 201, null, 300].map(canBlock)).toEqual([true, false, false, false, false, false, false]);
    expect([100, 200, 204, 210, 296, 201, 300].map(canRelease)).toEqual([false, true, true, false, false, false, false]);
    expect([null, 201, 100, 300].map(canEdit)).toEqual([true, true, false, false]);
    expect([null, 201, 100, 200].map(canActivate)).toEqual([true, true, false, false]);
    expect([null, 100, 200, 300, 302, 777].map(canCancel)).toEqual([true, true, true, false, false, false]);
    expect([null, 201, 100, 200, 204, 300].map(canReplace)).toEqual([false, false, true, true, true, false]);
    expect([null, 201, 100, 200, 300].map(canRemove)).toEqual([true, true, false, false, true]);
  });

  it('management: own tags, or Taggy tags starting with 5666', () => {
    expect(canManage({ ownershipType: 'own', serialNumber: '1234', operatorName: 'Veloe' })).toBe(true);
    expect(canManage({ ownershipType: 'operator', serialNumber: '5666 1234', operatorName: 'Taggy' })).toBe(true);
    expect(canManage({ ownershipType: 'operator', serialNumber: '5666 1234', operatorName: 'Veloe' })).toBe(false);
    expect(canManage({ ownershipType: 'operator', serialNumber: '1234', operatorName: 'Taggy' })).toBe(false);
    expect(isTaggyGreenpassWarning('Taggy', '5666 0000 1111')).toBe(true);
    expect(isTaggyGreenpassWarning('MoveMais', '5666 0000 1111')).toBe(false);
  });
});

describe('tag rules (spec §5, 9)', () => {
  const valid = {
    serialNumber: '1234 5678 9012 3456',
    Operadora: '90100001000109',
    licensePlate: 'abc-1d23',
    CpfCnpjAntt: '529.982.247-25',
    RntrcAntt: '12345678',
    axles: '3',
    modelo: 'scania-r-450',
  };

  it('registration: each field its message, in SPEC order', () => {
    expect(tagRegistrationErrors(valid)).toEqual({});
    expect(
      tagRegistrationErrors({ serialNumber: '', Operadora: '', licensePlate: '', CpfCnpjAntt: '', RntrcAntt: '', axles: '', modelo: '' }),
    ).toEqual({
      serialNumber: 'Por favor digite a Tag a ser ativada',
      Operadora: 'Por favor selecione a Operadora da Tag',
      licensePlate: 'Por favor digite a Placa do veículo',
      axles: 'Por favor selecione o número de eixos',
      modelo: 'Por favor selecione o modelo',
      CpfCnpjAntt: messages.tag.anttDocumentRequired,
      RntrcAntt: messages.tag.rntrcRequired,
    });
    expect(tagRegistrationErrors({ ...valid, serialNumber: '5666 1234 5678' }).serialNumber).toBe(
      'Não é possivel cadastrar tags Greenpass',
    );
    expect(tagRegistrationErrors({ ...valid, serialNumber: '1234 5678 9012 3456 7' }).serialNumber).toBe(messages.tag.serialTooLong);
    expect(tagRegistrationErrors({ ...valid, axles: 1 }).axles).toBe(messages.tag.axlesInvalid);
    expect(tagRegistrationErrors({ ...valid, RntrcAntt: '12ab5678' }).RntrcAntt).toBe(messages.tag.rntrcInvalid);
  });

  it('edit: spec §5 messages', () => {
    expect(
      tagEditErrors({
        serialNumber: '',
        Operadora: '',
        LicensePlate: '',
        CpfCnpjAntt: '529.982.247-25',
        RntrcAntt: '123456789',
        Axles: null,
      }),
    ).toEqual({
      serialNumber: 'Por favor digite a Tag a ser ativada',
      Operadora: 'Por favor selecione a Operadora da Tag',
      LicensePlate: 'Por favor digite a Placa do veículo',
      Axles: 'Por favor selecione o número de eixos',
    });
  });

  it('serial, plate, replace, vehicle type, fee name, billing month', () => {
    expect(formatSerial('1234567890123456789')).toBe('1234 5678 9012 3456');
    expect(formatSerial('12345')).toBe('1234 5');
    expect(normalizePlate(' abc-1d23 ')).toBe('ABC1D23');
    expect(['ABC1234', 'abc1d23', 'AB12345', 'ABCD123'].map(isValidPlate)).toEqual([true, true, false, false]);
    expect(replaceSerialError('ab12-cd3')).toBe('Digite o número da nova Tag para substituir');
    expect(replaceSerialError('AB12CD34')).toBeNull();
    expect([2, 3, 20].map(vehicleTypeFor)).toEqual([1, 2, 2]);
    expect(tagFeePlaceName('1234567890123456')).toBe('Mensalidade da tag 1234 5678 9012 3456');
    expect(billingPeriod(new Date('2026-08-01T02:00:00Z'))).toBe('2026-07');
  });
});
