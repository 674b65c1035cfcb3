import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpfCnpjError, documentKind, formatCpfCnpj, isValidCnpj, isValidCpf, maskCpfCnpj, stripDocument } from '../src/index.js';
import { cnpjCheckDigits, cpfCheckDigits, oracleCnpj, oracleCpf } from './oracle.js';

const digit = fc.constantFrom(...'0123456789');
const alnum = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ');
const digits = (n: number) => fc.array(digit, { minLength: n, maxLength: n }).map((a) => a.join(''));
const alnums = (n: number) => fc.array(alnum, { minLength: n, maxLength: n }).map((a) => a.join(''));

const validCpf = digits(9)
  .map((base) => base + cpfCheckDigits(base))
  .filter((v) => !/^(\d)\1{10}$/.test(v));
const validCnpj = alnums(12)
  .map((base) => base + cnpjCheckDigits(base))
  .filter((v) => !/^(.)\1{13}$/.test(v));

describe('CPF', () => {
  it('accepts known valid CPFs, masked or not', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('111.444.777-35')).toBe(true);
  });

  it('rejects wrong check digits, wrong lengths and all-same digits', () => {
    expect(isValidCpf('529.982.247-26')).toBe(false);
    expect(isValidCpf('5299822472')).toBe(false);
    for (let d = 0; d <= 9; d++) expect(isValidCpf(String(d).repeat(11))).toBe(false);
  });

  it('agrees with an independent implementation on every 11-digit string', () => {
    fc.assert(
      fc.property(digits(11), (v) => isValidCpf(v) === oracleCpf(v)),
      { numRuns: 5000 },
    );
  });

  it('accepts every CPF built by the rules, and agrees on every single-digit change', () => {
    fc.assert(
      fc.property(validCpf, fc.nat(10), fc.integer({ min: 1, max: 9 }), (cpf, pos, delta) => {
        expect(isValidCpf(cpf)).toBe(true);
        const changed = cpf.slice(0, pos) + ((Number(cpf[pos]) + delta) % 10) + cpf.slice(pos + 1);
        expect(isValidCpf(changed)).toBe(oracleCpf(changed));
        // A wrong check digit is always caught (a changed base digit may, rarely, keep them valid).
        if (pos >= 9) expect(isValidCpf(changed)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('CNPJ, numeric and alphanumeric', () => {
  it('accepts known valid CNPJs, including the RFB alphanumeric example', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('12abc34501de35')).toBe(true);
  });

  it('rejects wrong check digits and all-same characters', () => {
    expect(isValidCnpj('11.222.333/0001-82')).toBe(false);
    expect(isValidCnpj('12.ABC.345/01DE-36')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
    expect(isValidCnpj('AAAAAAAAAAAA00')).toBe(false);
  });

  it('agrees with an independent implementation on random candidates', () => {
    const candidate = fc.tuple(alnums(12), digits(2)).map(([a, b]) => a + b);
    fc.assert(
      fc.property(candidate, (v) => isValidCnpj(v) === oracleCnpj(v)),
      { numRuns: 5000 },
    );
  });

  it('accepts every CNPJ built by the rules', () => {
    fc.assert(
      fc.property(validCnpj, (v) => isValidCnpj(v) && isValidCnpj(formatCpfCnpj(v))),
      { numRuns: 2000 },
    );
  });
});

describe('registration rule for the CPF/CNPJ field', () => {
  it('reads 11 characters or fewer as a CPF and longer as a CNPJ', () => {
    expect(documentKind('529.982.247-25')).toBe('CPF');
    expect(documentKind('12.ABC.345/01DE-35')).toBe('CNPJ');
    expect(cpfCnpjError('')).toBe('Por favor insira seu CPF ou CNPJ');
    expect(cpfCnpjError('123.456.789-00')).toBe('CPF inválido');
    expect(cpfCnpjError('11.222.333/0001-00')).toBe('CNPJ inválido');
    expect(cpfCnpjError('529.982.247-25')).toBeNull();
    expect(cpfCnpjError('12.ABC.345/01DE-35')).toBeNull();
  });

  it('strips masks and upper-cases, and never shows the whole document in a mask for logs', () => {
    expect(stripDocument('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    fc.assert(
      fc.property(fc.oneof(validCpf, validCnpj), (v) => {
        const masked = maskCpfCnpj(v);
        expect(masked).not.toContain(v.slice(3, -2));
        expect(masked).toHaveLength(v.length);
        expect(stripDocument(formatCpfCnpj(v))).toBe(v);
      }),
    );
  });
});
