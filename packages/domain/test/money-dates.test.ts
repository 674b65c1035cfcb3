import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToReais, formatBrl, formatDateTime, parseBrlInput, reaisToCents, sinceSaoPauloMonthStart } from '../src/index.js';

const nbsp = '\u00a0';

describe('money', () => {
  it('formats BRL with comma decimals, dots for thousands and a minus sign', () => {
    expect(formatBrl(123456)).toBe(`R$${nbsp}1.234,56`);
    expect(formatBrl(0)).toBe(`R$${nbsp}0,00`);
    expect(formatBrl(-1590)).toBe(`-R$${nbsp}15,90`);
    expect(() => formatBrl(1.5)).toThrow();
  });

  it('reads what a driver types', () => {
    expect(parseBrlInput('150,00')).toBe(15000);
    expect(parseBrlInput('1.234,5')).toBe(123450);
    expect(parseBrlInput('R$ 40')).toBe(4000);
    expect(parseBrlInput('0,00')).toBe(0);
    expect(parseBrlInput('')).toBeNull();
    expect(parseBrlInput('abc')).toBeNull();
    expect(parseBrlInput('1,234')).toBeNull();
  });

  it('writes what Intl writes for pt-BR reais, for every amount', () => {
    const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
    const amounts = fc.oneof(fc.integer({ min: -(10 ** 6), max: 10 ** 6 }), fc.integer({ min: -(10 ** 15), max: 10 ** 15 }));
    fc.assert(
      fc.property(amounts, (c) => formatBrl(c) === intl.format(c / 100)),
      { numRuns: 2000 },
    );
  });

  it('round-trips every amount through the display format', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10 ** 13 }), (c) => parseBrlInput(formatBrl(c)) === c));
  });

  it('converts reais on the wire to centavos exactly, and refuses fractions of a centavo', () => {
    fc.assert(fc.property(fc.integer({ min: -(10 ** 13), max: 10 ** 13 }), (c) => reaisToCents(centsToReais(c)) === c));
    expect(reaisToCents(0.1 + 0.2)).toBe(30);
    expect(reaisToCents(15.9)).toBe(1590);
    expect(() => reaisToCents(1.005)).toThrow();
    expect(() => reaisToCents(Number.NaN)).toThrow();
  });
});

describe('dates', () => {
  it('shows DD/MM/YYYY HH:mm:ss in São Paulo time', () => {
    expect(formatDateTime('2026-11-21T19:24:49Z')).toBe('21/11/2026 16:24:49');
    expect(formatDateTime('2026-01-01T02:59:59.999Z')).toBe('31/12/2025 23:59:59');
    expect(formatDateTime(new Date('2026-07-01T12:00:00-03:00'))).toBe('01/07/2026 12:00:00');
  });

  it('raises the exact error of the specification for anything that is not a date', () => {
    const message = 'Invalid date format. Expected Date or string in ISO 8601 format.';
    for (const bad of ['21/11/2026', 'ontem', '', '2026-13-45T99:99:99Z']) {
      expect(() => formatDateTime(bad)).toThrow(message);
    }
    expect(() => formatDateTime(new Date(Number.NaN))).toThrow(message);
  });

  it("reads what the zone's data (Intl) reads, summer times before 2019 included", () => {
    // pt-BR's own date and time, 'DD/MM/YYYY, HH:mm:ss', from the zone's data.
    const byIntl = (d: Date) => d.toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo' }).replace(',', '');
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2010-01-01'), max: new Date('2060-01-01'), noInvalidDate: true }),
        (d) => formatDateTime(d) === byIntl(d),
      ),
      { numRuns: 5000 },
    );
    // The last summer time ended at 00:00 of 17 Feb 2019 (UTC−2): the clocks went back to 23:00 of the 16th.
    expect(formatDateTime('2019-02-17T01:59:59Z')).toBe('16/02/2019 23:59:59');
    expect(formatDateTime('2019-02-17T02:00:00Z')).toBe('16/02/2019 23:00:00');
    expect(formatDateTime('2018-12-01T12:00:00Z')).toBe('01/12/2018 10:00:00');
  });

  it("follows the zone's summer time hour by hour, across its start and its end (2017 to 2019)", () => {
    // pt-BR's date and time as toLocaleString writes it, one formatter for the 25,000 instants.
    const intl = new Intl.DateTimeFormat('pt-BR', {
      timeZone: 'America/Sao_Paulo',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    const byIntl = (d: Date) => intl.format(d).replace(',', '');
    const HOUR = 3_600_000;
    const disagreements: string[] = [];
    // Summer time began at 00:00 of 15 Oct 2017 and of 4 Nov 2018, and ended at 00:00 of 18 Feb 2018 and of 17 Feb 2019.
    for (let t = Date.UTC(2017, 9, 1); t < Date.UTC(2019, 2, 1); t += HOUR) {
      for (const d of [new Date(t), new Date(t + 59 * 60_000 + 59_999)]) {
        if (formatDateTime(d) !== byIntl(d)) disagreements.push(`${d.toISOString()}: ${formatDateTime(d)} != ${byIntl(d)}`);
      }
    }
    expect(disagreements).toEqual([]);
    // 00:00 of 4 Nov 2018 (UTC−3) did not exist: the clocks went from 23:59:59 of the 3rd to 01:00.
    expect(formatDateTime('2018-11-04T02:59:59Z')).toBe('03/11/2018 23:59:59');
    expect(formatDateTime('2018-11-04T03:00:00Z')).toBe('04/11/2018 01:00:00');
    expect(formatDateTime('2018-06-01T12:00:00Z')).toBe('01/06/2018 09:00:00');
  });

  it('formats every instant in the same shape', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }), (d) =>
        /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/.test(formatDateTime(d.toISOString())),
      ),
    );
  });
});

describe('sinceSaoPauloMonthStart', () => {
  it("counts from midnight of São Paulo's first day, not UTC's", () => {
    expect(sinceSaoPauloMonthStart(new Date('2026-12-01T03:00:00.000Z'))).toBe(0);
    expect(sinceSaoPauloMonthStart(new Date('2026-12-01T04:30:00.250Z'))).toBe(90 * 60_000 + 250);
    // 02:59 UTC on the 1st is still the 30th in São Paulo: November's last minute.
    expect(sinceSaoPauloMonthStart(new Date('2026-12-01T02:59:00.000Z'))).toBe(((29 * 24 + 23) * 60 + 59) * 60_000);
  });
});
