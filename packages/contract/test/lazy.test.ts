import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as contract from '../src/index.js';

/**
 * Issue 11: a phone evaluating the contract at load built every schema of every call (~30 ms of
 * one long task with the CPU slowed 4x). Each schema the contract exports, and each one an endpoint
 * names, is a z.lazy: built when first used, not when the module loads.
 */
describe('the contract builds its schemas at first use', () => {
  const exported = Object.entries(contract as Record<string, unknown>).filter(
    (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType,
  );

  it('exports its schemas as z.lazy', () => {
    expect(exported.length).toBeGreaterThan(60);
    expect(exported.filter(([, schema]) => !(schema instanceof z.ZodLazy)).map(([name]) => name)).toEqual([]);
  });

  it('names only z.lazy schemas in its endpoints', () => {
    const eager = Object.entries(contract.api).flatMap(([name, endpoint]) =>
      (['body', 'params', 'query', 'response'] as const)
        .filter((part) => endpoint[part] !== undefined && !(endpoint[part] instanceof z.ZodLazy))
        .map((part) => `${name}.${part}`),
    );
    expect(eager).toEqual([]);
  });

  it('builds nothing but its z.lazy placeholders when it loads, the helpers they share included', async () => {
    // A fresh copy of the contract and of zod: zod's own module builds what it needs first, unwatched.
    vi.resetModules();
    await import('zod');
    const define = Object.defineProperty;
    const built: string[] = [];
    // Every zod schema gets its internals (`_zod`, with its def) defined once, when it is constructed.
    Object.defineProperty = function <T>(target: T, key: PropertyKey, attributes: PropertyDescriptor & ThisType<unknown>): T {
      if (key === '_zod') built.push(String((attributes.value as { def?: { type?: string } } | undefined)?.def?.type));
      return define(target, key, attributes);
    };
    try {
      await import('../src/index.js');
    } finally {
      Object.defineProperty = define;
    }
    expect(built.length).toBeGreaterThan(60);
    expect(built.filter((type) => type !== 'lazy')).toEqual([]);
  });

  it('parses through the lazy schema as through the one it stands for', () => {
    const answer = { Sucesso: true, Mensagem: 'OK', Saldo: 12.5, SaldoTerceiro: 0, extra: 1 };
    expect(contract.balanceResponse.parse(answer)).toEqual(contract.balanceResponse.unwrap().parse(answer));
    expect(contract.balanceResponse.safeParse({ ...answer, Saldo: 'doze' }).success).toBe(false);
  });
});
