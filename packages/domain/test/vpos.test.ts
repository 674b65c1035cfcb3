import { describe, expect, it } from 'vitest';
import type { VpoStatus } from '../src/index.js';
import {
  isVpoStatus,
  SORT_DIRECTIONS,
  VPO_INITIAL_STATUS,
  VPO_SORT_FIELDS,
  VPO_STATUSES,
  VPO_TRANSITIONS,
  vpoStatusLabel,
  vpoStatusLabels,
  vpoTransitionRefusal,
} from '../src/index.js';

describe('VPO statuses (founding decision 15)', () => {
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

describe('VPO state machine (founding decision 29, issue 21 point 6)', () => {
  const allowed = new Set(['EMITIDO>EM_VIAGEM', 'EM_VIAGEM>ENCERRADO', 'EMITIDO>CANCELADO', 'EM_VIAGEM>CANCELADO']);

  it('allows exactly EMITIDO -> EM_VIAGEM -> ENCERRADO and EMITIDO|EM_VIAGEM -> CANCELADO; refuses every other move, naming both states', () => {
    expect(VPO_INITIAL_STATUS).toBe('EMITIDO');
    for (const from of VPO_STATUSES) {
      for (const to of VPO_STATUSES) {
        if (from === to) continue;
        const refusal = vpoTransitionRefusal(from, to);
        if (allowed.has(`${from}>${to}`)) expect(refusal, `${from} -> ${to}`).toBeNull();
        else expect(refusal, `${from} -> ${to}`).toBe(`Um VPO ${vpoStatusLabels[from]} não pode passar para ${vpoStatusLabels[to]}`);
      }
    }
    expect(vpoTransitionRefusal('CANCELADO', 'EMITIDO')).toBe('Um VPO Cancelado não pode passar para Emitido');
  });

  it('ENCERRADO and CANCELADO are final, and no status can come back to one it left', () => {
    expect(VPO_TRANSITIONS.ENCERRADO).toEqual([]);
    expect(VPO_TRANSITIONS.CANCELADO).toEqual([]);
    // No cycle: every status reachable from `s` (s excluded) never leads back to s (vpos/service.ts relies on it).
    const reachable = (s: VpoStatus): Set<VpoStatus> => new Set(VPO_TRANSITIONS[s].flatMap((next) => [next, ...reachable(next)]));
    for (const s of VPO_STATUSES) expect(reachable(s).has(s), s).toBe(false);
  });
});
