import { describe, expect, it } from 'vitest';
import {
  balanceAfterLabel,
  notificationMessage,
  periodTotalLabel,
  refundDestinationLabel,
  refundPartsText,
  statementAccountName,
  vpoAccountRoute,
} from '../src/index.js';

/** formatBrl writes a no-break space after 'R$'. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe('issue 33: whose money a statement row moved', () => {
  it.each([
    ['SALDO', null, 'Saldo'],
    ['SALDO_TERCEIRO', null, 'Saldo em outras plataformas'],
    ['VPO', 'Transportes X', 'VPO de Transportes X'],
    ['VPO', null, 'VPO'],
  ] as const)('%s (%s) is named %s', (account, shipper, name) => {
    expect(statementAccountName(account, shipper)).toBe(name);
  });

  it("one shipper's VPOs are told apart by their route", () => {
    const route = vpoAccountRoute('Campinas/SP', 'Santos/SP');
    expect(statementAccountName('VPO', 'Transportes X', route)).toBe('VPO de Transportes X: Campinas/SP – Santos/SP');
    expect(statementAccountName('VPO', 'Transportes X', vpoAccountRoute(null, 'Santos/SP'))).toBe('VPO de Transportes X: — – Santos/SP');
    expect(vpoAccountRoute(null, null)).toBeNull();
    expect(statementAccountName('VPO', 'Transportes X', null)).toBe('VPO de Transportes X');
    expect(statementAccountName('SALDO', null, route)).toBe('Saldo');
  });

  it('the running balance and the totals are named by their account', () => {
    expect(balanceAfterLabel('VPO de Transportes X')).toBe('Saldo após (VPO de Transportes X)');
    expect(periodTotalLabel('Saldo')).toBe('Total do período (Saldo)');
  });
});

describe('issue 33: where an accepted contest’s money went', () => {
  it.each([
    ['SALDO', null, 'Devolvido ao seu saldo'],
    ['SALDO_TERCEIRO', null, 'Devolvido ao seu saldo em outras plataformas'],
    ['VPO', 'Transportes X', 'Devolvido ao VPO de Transportes X'],
    ['EMBARCADOR', 'Cargas Y', 'Devolvido ao embarcador Cargas Y'],
  ] as const)('%s (%s): %s', (destination, shipper, label) => {
    expect(refundDestinationLabel(destination, shipper)).toBe(label);
  });

  it('a split refund names each part with its value', () => {
    expect(
      plain(
        refundPartsText([
          { destino: 'SALDO', embarcador: null, cents: 1_000 },
          { destino: 'VPO', embarcador: 'Transportes X', cents: 1_240 },
        ]),
      ),
    ).toBe('Devolvido ao seu saldo: R$ 10,00 · Devolvido ao VPO de Transportes X: R$ 12,40');
  });

  it('the push says where the money went; one queued before it was told keeps the old text', () => {
    const told = notificationMessage({
      kind: 'contestAnswered',
      contestId: 7,
      accepted: true,
      refundedCents: 2_240,
      parts: [{ destino: 'VPO', embarcador: 'Transportes X', cents: 2_240 }],
    });
    expect(plain(told.corpo)).toBe('Sua contestação foi aceita. Devolvido ao VPO de Transportes X: R$ 22,40.');
    const old = notificationMessage({ kind: 'contestAnswered', contestId: 7, accepted: true, refundedCents: 2_240 });
    expect(plain(old.corpo)).toBe('Sua contestação foi aceita: R$ 22,40 foram devolvidos à conta que pagou a passagem.');
  });
});
