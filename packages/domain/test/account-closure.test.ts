import { describe, expect, it } from 'vitest';
import type { ClosureFacts } from '../src/index.js';
import { accountClosureMessages, CLOSURE_BLOCKERS, closureBlockers, closureKeepUntil, closureRequestErrors } from '../src/index.js';

const clear: ClosureFacts = {
  ownCents: 0,
  thirdCents: 0,
  vpoCents: 0,
  withdrawalsInProgress: [],
  pendingPurchases: [],
  pendingTopUps: [],
  openVpos: 0,
  openContests: 0,
};
const brl = (reais: string) => `R$\u00a0${reais}`;

describe('closing the account (issue 35, decision 70)', () => {
  it('nothing under way: nothing blocks', () => {
    expect(closureBlockers(clear)).toEqual([]);
  });

  it('each blocker says what and how, money in the screens’ format, in the one order', () => {
    const all = closureBlockers({
      ownCents: 1240,
      thirdCents: 330,
      vpoCents: 0,
      withdrawalsInProgress: [{ amountCents: 1000 }, { amountCents: 500 }],
      pendingPurchases: [{ amountCents: 15_000 }],
      pendingTopUps: [{ amountCents: 13_000 }],
      openVpos: 2,
      openContests: 1,
    });
    expect(all.map((b) => b.motivo)).toEqual(['saldo', 'saldoTerceiro', 'saque', 'pix', 'recargaAutomatica', 'vpo', 'contestacao']);
    expect(all[0]?.mensagem).toBe(`Saque o saldo de ${brl('12,40')} antes de encerrar.`);
    expect(all[2]?.mensagem).toBe(`Aguarde a conclusão do saque de ${brl('15,00')} em andamento antes de encerrar.`);
    expect(all[3]?.mensagem).toBe(`Aguarde o pagamento do Pix de ${brl('150,00')} ou deixe-o expirar antes de encerrar.`);
    expect(all[5]?.mensagem).toBe('Aguarde o embarcador concluir os 2 VPOs em aberto antes de encerrar a conta.');
    expect(all.every((b) => CLOSURE_BLOCKERS.includes(b.motivo))).toBe(true);
  });

  it('a negative Saldo asks for a top-up; money held for VPOs blocks only when no VPO is open', () => {
    expect(closureBlockers({ ...clear, ownCents: -300 })).toEqual([
      { motivo: 'saldoNegativo', mensagem: accountClosureMessages.blockers.saldoNegativo(brl('3,00')) },
    ]);
    expect(closureBlockers({ ...clear, vpoCents: 2_000 }).map((b) => b.motivo)).toEqual(['dinheiroVpo']);
    expect(closureBlockers({ ...clear, vpoCents: 2_000, openVpos: 1 }).map((b) => b.motivo)).toEqual(['vpo']);
    expect(closureBlockers({ ...clear, thirdCents: -100 })).toEqual([
      { motivo: 'saldoTerceiroNegativo', mensagem: accountClosureMessages.blockers.saldoTerceiroNegativo(brl('1,00')) },
    ]);
  });

  it('asks for the password and a ticked box, nothing else counts as ticked', () => {
    expect(closureRequestErrors({ senha: '', confirmacao: 'true' })).toEqual({
      senha: accountClosureMessages.passwordRequired,
      confirmacao: accountClosureMessages.confirmationRequired,
    });
    expect(closureRequestErrors({ senha: 'x', confirmacao: true })).toEqual({});
  });

  it('keeps the records 5 years: until the São Paulo midnight after the same date 5 years on', () => {
    // 29 Nov 2026, 23:30 in São Paulo (02:30 UTC on the 30th): the day is São Paulo's.
    expect(closureKeepUntil(new Date('2026-11-30T02:30:00Z')).toISOString()).toBe('2031-11-30T03:00:00.000Z');
    // 29 February: the period ends on 1 March (Código Civil art. 132, § 3).
    expect(closureKeepUntil(new Date('2028-02-29T15:00:00Z')).toISOString()).toBe('2033-03-02T03:00:00.000Z');
  });
});
