import { describe, expect, it } from 'vitest';
import {
  cycleFailedText,
  firstDebitDay,
  instructionDueDay,
  isInstructionDue,
  nextDebitDay,
  pixAutomaticInputError,
  pixAutomaticMessages,
  pixAutomaticValueError,
} from '../src/index.js';

describe('Pix Automático (decision 58)', () => {
  it('a weekly debit is 7 days later; a monthly one keeps its day, the month’s last when it has none', () => {
    expect(nextDebitDay('SEMANAL', '2026-12-29', 29)).toBe('2027-01-05');
    expect(nextDebitDay('MENSAL', '2027-01-31', 31)).toBe('2027-02-28');
    expect(nextDebitDay('MENSAL', '2027-02-28', 31)).toBe('2027-03-31');
    expect(nextDebitDay('MENSAL', '2028-01-30', 30)).toBe('2028-02-29');
    expect(nextDebitDay('MENSAL', '2026-12-15', 15)).toBe('2027-01-15');
  });

  it('the first debit is one period after the São Paulo day the first Pix was paid', () => {
    // 01:30 UTC on 1 March is still 28 February in São Paulo.
    expect(firstDebitDay('MENSAL', new Date('2027-03-01T01:30:00Z'))).toBe('2027-03-28');
    expect(firstDebitDay('SEMANAL', new Date('2027-03-01T12:00:00Z'))).toBe('2027-03-08');
  });

  it('the instruction goes 7 days ahead at most, and never with fewer than 4 days left', () => {
    expect(isInstructionDue('2027-03-08', '2027-03-01')).toBe(true);
    expect(isInstructionDue('2027-03-09', '2027-03-01')).toBe(false);
    expect(instructionDueDay('2027-03-08', '2027-03-01')).toBe('2027-03-08');
    expect(instructionDueDay('2027-03-05', '2027-03-01')).toBe('2027-03-05');
    expect(instructionDueDay('2027-03-04', '2027-03-01')).toBe('2027-03-05');
    expect(instructionDueDay('2027-02-20', '2027-03-01')).toBe('2027-03-05');
  });

  it('the value has a purchase’s bounds, with its own words', () => {
    expect(pixAutomaticValueError(150)).toBeNull();
    expect(pixAutomaticValueError(Number.NaN)).toBe(pixAutomaticMessages.valueRequired);
    expect(pixAutomaticValueError(99.99)).toBe(pixAutomaticMessages.belowMinimum);
    expect(pixAutomaticValueError(50_000.01)).toBe(pixAutomaticMessages.aboveMaximum);
    expect(pixAutomaticValueError(100.005)).toBe(pixAutomaticMessages.valueInvalid);
    expect(pixAutomaticInputError('')).toBe(pixAutomaticMessages.valueRequired);
    expect(pixAutomaticInputError('1.500,00')).toBeNull();
  });

  it('a cycle not debited is told with its value, day and reason', () => {
    expect(cycleFailedText(15_000, '2027-03-08', null)).toBe(
      `A recarga automática de R$\u00a0150,00 de 08/03/2027 não foi debitada: ${pixAutomaticMessages.defaultRefusal}. Compre saldo se precisar antes da próxima.`,
    );
  });
});
