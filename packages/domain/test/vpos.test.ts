import { describe, expect, it } from 'vitest';
import { isVpoStatus, SORT_DIRECTIONS, VPO_SORT_FIELDS, VPO_STATUSES, vpoStatusLabel, vpoStatusLabels } from '../src/index.js';

describe('VPO statuses (decision 15)', () => {
  it('defines every status once with its Portuguese label; an unknown value shows as it came', () => {
    expect(VPO_STATUSES).toEqual(['EMITIDO', 'EM_VIAGEM', 'ENCERRADO', 'CANCELADO']);
    expect(Object.keys(vpoStatusLabels).sort()).toEqual([...VPO_STATUSES].sort());
    expect(VPO_STATUSES.map(vpoStatusLabel)).toEqual(['Emitido', 'Em viagem', 'Encerrado', 'Cancelado']);
    expect(vpoStatusLabel('PERDIDO')).toBe('PERDIDO');
    expect(isVpoStatus('EM_VIAGEM')).toBe(true);
    expect(isVpoStatus('emitido')).toBe(false);
    expect(VPO_SORT_FIELDS).toEqual(['valor', 'placa', 'data']);
    expect(SORT_DIRECTIONS).toEqual(['asc', 'desc']);
  });
});
