import { describe, expect, it } from 'vitest';
import { budgetCrossings, budgetPercent } from '../src/vehicle-budgets.js';

describe('orçamento mensal do veículo', () => {
  it('names each level crossed once, and none when the spending stays on one side', () => {
    expect(budgetCrossings(100_000, 0, 79_999)).toEqual([]);
    expect(budgetCrossings(100_000, 79_999, 80_000)).toEqual([80]);
    expect(budgetCrossings(100_000, 80_000, 99_999)).toEqual([]);
    expect(budgetCrossings(100_000, 50_000, 120_000)).toEqual([80, 100]);
    expect(budgetCrossings(100_000, 100_000, 150_000)).toEqual([]);
  });

  it('a refund (spending going down) or a budget of zero crosses nothing', () => {
    expect(budgetCrossings(100_000, 90_000, 10_000)).toEqual([]);
    expect(budgetCrossings(0, 0, 10_000)).toEqual([]);
  });

  it('counts whole percents, rounded down, with odd cents', () => {
    expect(budgetPercent(333, 266)).toBe(79);
    expect(budgetPercent(333, 267)).toBe(80);
    expect(budgetPercent(100_000, 250_000)).toBe(250);
  });
});
