import { describe, expect, it } from 'vitest';
import {
  describeStatementEntry,
  maskPixKey,
  saoPauloDay,
  STATEMENT_ORIGINS,
  STATEMENT_PLACE_NAMES,
  statementKindOf,
  statementPeriodErrors,
  statementRange,
} from '../src/index.js';

describe('statement descriptions (spec §2: first word capitalised, the rest lower-cased)', () => {
  it.each([
    {
      name: 'a purchase as the server writes it',
      origin: STATEMENT_ORIGINS.pixPurchase,
      place: STATEMENT_PLACE_NAMES.pixPurchase,
      text: 'Compra de saldo via Pix',
    },
    {
      name: 'a purchase in capitals',
      origin: STATEMENT_ORIGINS.pixPurchase,
      place: 'COMPRA DE SALDO via PIX',
      text: 'Compra de saldo via Pix',
    },
    { name: 'a refund', origin: STATEMENT_ORIGINS.pixRefund, place: STATEMENT_PLACE_NAMES.pixRefund, text: 'Estorno de compra via Pix' },
    { name: 'a withdrawal', origin: STATEMENT_ORIGINS.pixWithdrawal, place: STATEMENT_PLACE_NAMES.pixWithdrawal, text: 'Saque via Pix' },
    {
      name: 'a withdrawal given back',
      origin: STATEMENT_ORIGINS.pixWithdrawalReversal,
      place: STATEMENT_PLACE_NAMES.pixWithdrawalReversal,
      text: 'Devolução de saque via Pix',
    },
    { name: 'Pix as the first word', origin: STATEMENT_ORIGINS.pixPurchase, place: 'pix RECEBIDO', text: 'Pix recebido' },
    { name: 'a word that only begins with pix', origin: STATEMENT_ORIGINS.tagFee, place: 'PIXEL DA TAG', text: 'Pixel da tag' },
    { name: 'a tag fee', origin: STATEMENT_ORIGINS.tagFee, place: 'MENSALIDADE DA TAG', text: 'Mensalidade da tag' },
  ])('$name: $text', ({ origin, place, text }) => {
    expect(describeStatementEntry(origin, place, false)).toEqual({ text, tooltip: null, icon: null });
  });
});

describe('statement periods in São Paulo days (issue 12)', () => {
  it('this month and last month start and end at midnight in São Paulo, also across a year', () => {
    const now = new Date('2026-11-01T02:30:00Z'); // 31/10 23:30 in São Paulo: still October
    expect(statementRange({ periodo: 'este-mes' }, now)).toEqual({
      from: new Date('2026-10-01T03:00:00Z'),
      to: new Date('2026-11-01T03:00:00Z'),
      firstDay: '2026-10-01',
      lastDay: '2026-10-31',
    });
    expect(statementRange({ periodo: 'mes-passado' }, new Date('2026-01-15T12:00:00Z'))).toMatchObject({
      from: new Date('2025-12-01T03:00:00Z'),
      to: new Date('2026-01-01T03:00:00Z'),
      lastDay: '2025-12-31',
    });
  });

  it('a chosen range covers its last day whole', () => {
    expect(statementRange({ periodo: 'intervalo', de: '2026-02-01', ate: '2026-02-28' })).toMatchObject({
      from: new Date('2026-02-01T03:00:00Z'),
      to: new Date('2026-03-01T03:00:00Z'),
    });
    expect(saoPauloDay(new Date('2026-03-01T02:59:59Z'))).toBe('2026-02-28');
    expect(saoPauloDay(new Date('2026-03-01T03:00:00Z'))).toBe('2026-03-01');
  });

  it.each([
    [{ periodo: 'intervalo' as const }, { de: 'Informe a data inicial', ate: 'Informe a data final' }],
    [{ periodo: 'intervalo' as const, de: '2026-02-30', ate: '2026-03-01' }, { de: 'Data inválida' }],
    [
      { periodo: 'intervalo' as const, de: '2026-03-02', ate: '2026-03-01' },
      { ate: 'A data final deve ser igual ou posterior à data inicial' },
    ],
    [{ periodo: 'intervalo' as const, de: '2025-01-01', ate: '2026-01-02' }, { ate: 'Escolha um período de no máximo 366 dias' }],
  ])('refuses %j', (input, errors) => {
    expect(statementPeriodErrors(input)).toEqual(errors);
  });

  it('each entry is of one kind; anything of a third party is terceiros', () => {
    expect(statementKindOf('passagem', false)).toBe('passagens');
    expect(statementKindOf('passagem', true)).toBe('terceiros');
    expect(statementKindOf('estorno-compra-pix', false)).toBe('compras');
    expect(statementKindOf('devolucao-saque-pix', false)).toBe('saques');
    expect(statementKindOf('mensalidade-tag', false)).toBe('mensalidades');
    expect(statementKindOf('credito-terceiro-movemais', false)).toBe('terceiros');
    expect(statementKindOf('desconhecida', false)).toBeNull();
  });
});

describe('Pix keys on receipts, masked as banks print them', () => {
  it.each([
    ['CPF', '52998224725', '***.982.247-**'],
    ['CNPJ', '11222333000181', '11.222.333/0001-81'],
    ['PHONE', '5511987654321', '(**) *****-4321'],
    ['EMAIL', 'joana@exemplo.com.br', 'j***@exemplo.com.br'],
    ['EVP', '123e4567-e89b-12d3-a456-426614174000', '123e…4000'],
  ] as const)('%s %s -> %s', (type, key, masked) => {
    expect(maskPixKey(type, key)).toBe(masked);
  });
});
