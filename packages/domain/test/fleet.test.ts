import { describe, expect, it } from 'vitest';
import { CAPABILITIES, FLEET_ROLES, roleAllows } from '../src/fleet.js';
import type { ActingRole, Capability } from '../src/fleet.js';

/**
 * Decision 77, the roles as issue 37 words them, written out here rather than read back from the
 * table: 'Gestor' everything; 'Financeiro' buys credit, the statement, exports, receipts, contests,
 * no tags, vehicles, members or money out; 'Motorista' only what hangs from their vehicles.
 */
const EXPECTED: Record<ActingRole, readonly Capability[]> = {
  titular: CAPABILITIES,
  gestor: CAPABILITIES,
  financeiro: ['self', 'balance', 'credit', 'books', 'vehicles', 'toll-payment', 'limits'],
  motorista: ['self', 'vehicles'],
};

describe('papéis da frota', () => {
  it.each(Object.keys(EXPECTED) as ActingRole[])('%s pode exatamente o que o papel diz', (role) => {
    expect(CAPABILITIES.filter((c) => roleAllows(role, c))).toEqual([...EXPECTED[role]]);
  });

  it('só o Gestor (e o titular) saca, mexe em tags e veículos e administra membros', () => {
    for (const capability of ['payout', 'fleet', 'members'] as const) {
      expect(FLEET_ROLES.filter((r) => roleAllows(r, capability))).toEqual(['gestor']);
    }
  });
});
