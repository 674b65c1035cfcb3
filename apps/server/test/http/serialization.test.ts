import { api, errorResponse } from '@portal/contract';
import Fastify from 'fastify';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { isPlain, serializerCompiler } from '../../src/http/serializer.js';

/**
 * Issue 9: the reply serializer checks answers with zod's parse instead of its encode. For every
 * call of the contract, its output must be exactly what the contract's own serializer
 * (fastify-type-provider-zod) writes, and an answer that breaks the schema is refused, not sent.
 */
const reference = createSerializerCompiler({});
const compile = (compiler: typeof serializerCompiler, schema: z.ZodType) =>
  compiler({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as (data: unknown) => string;

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, unknown>;
  valueType?: z.ZodType;
};
/** The definition of the schema, or of the one a z.lazy stands for (the contract builds its schemas at first use). */
const defOf = (schema: z.ZodType): Def =>
  schema._zod.def.type === 'lazy' ? defOf((schema as z.ZodLazy).unwrap() as z.ZodType) : (schema._zod.def as unknown as Def);

/** A value the schema accepts, varied by `seed` (optional and nullable fields take turns being absent/null). */
function sample(schema: z.ZodType, seed: number): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape ?? {})
          .map(([k, v], i) => [k, sample(v, seed + i)])
          .filter(([, v]) => v !== undefined),
      );
    case 'array':
      return Array.from({ length: seed % 3 }, (_, i) => sample(def.element!, seed + i));
    case 'record':
      return seed % 2 === 0 ? {} : { campo: sample(def.valueType!, seed) };
    case 'string':
      return ['Praça São João "Centro"', 'ação ✓ 🚚', '2026-11-22T10:00:00.000-03:00', '<b>\u2028</b>\n', ''][seed % 5];
    case 'number':
      return [0, 12, 3, 1_000_000, 12.5, -3][seed % 6];
    case 'boolean':
      return seed % 2 === 0;
    case 'null':
      return null;
    case 'literal':
      return def.values![0];
    case 'enum':
      return Object.values(def.entries!)[seed % Object.values(def.entries!).length];
    case 'optional':
      return seed % 2 === 0 ? undefined : sample(def.innerType!, seed);
    case 'nullable':
      return seed % 3 === 0 ? null : sample(def.innerType!, seed);
    case 'union':
      return sample(def.options![seed % def.options!.length]!, seed);
    default:
      throw new Error(`sample: ${def.type}`);
  }
}

/** Answers that break the schema: a field of the wrong type, a required field missing, NaN. */
function broken(schema: z.ZodType, valid: Record<string, unknown>): unknown[] {
  const shape = defOf(schema).shape ?? {};
  const keys = Object.keys(shape);
  const required = keys.filter((k) => !['optional'].includes(defOf(shape[k]!).type));
  return [
    ...required.map((k) => Object.fromEntries(Object.entries(valid).filter(([key]) => key !== k))),
    ...keys.map((k) => ({ ...valid, [k]: typeof valid[k] === 'number' ? 'doze' : 12 })),
    ...keys.filter((k) => typeof valid[k] === 'number').map((k) => ({ ...valid, [k]: Number.NaN })),
    null,
    'texto',
  ];
}

const responses: [string, z.ZodType][] = [
  ...Object.entries(api).map(([name, e]): [string, z.ZodType] => [name, e.response]),
  ['erro', errorResponse],
];

describe('serialização das respostas', () => {
  it.each(responses)('%s: same bytes as the contract serializer for valid answers, refusal for broken ones', (_name, schema) => {
    const ours = compile(serializerCompiler, schema);
    const theirs = compile(reference as typeof serializerCompiler, schema);
    /** Both accept and write the same bytes, or both refuse. */
    const agree = (value: unknown): boolean => {
      let expected: string;
      try {
        expected = theirs(value);
      } catch {
        expect(() => ours(value), JSON.stringify(value)).toThrow();
        return false;
      }
      expect(ours(value)).toBe(expected);
      return true;
    };
    let accepted = 0;
    for (let seed = 0; seed < 24; seed++) {
      const value = sample(schema, seed) as Record<string, unknown>;
      if (!agree(value)) continue;
      accepted++;
      // Keys the contract does not declare are dropped, never sent (e.g. a database row's password_hash).
      const withExtra = { ...value, password_hash: 'segredo' };
      if (agree(withExtra)) expect(ours(withExtra)).not.toContain('segredo');
      for (const bad of broken(schema, value)) agree(bad);
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it('every answer of the contract takes the parse path (a transform or codec would fall back to encode)', () => {
    expect(responses.filter(([, schema]) => !isPlain(schema)).map(([name]) => name)).toEqual([]);
  });

  it('an answer that breaks the schema is a 500 envelope, and nothing of it reaches the client', async () => {
    const app = Fastify({ logger: false });
    app.setSerializerCompiler(serializerCompiler);
    app.setErrorHandler((_error, _req, reply) => reply.code(500).send({ Sucesso: false, Mensagem: 'erro interno' }));
    app.get('/saldo', { schema: { response: { 200: api.balance.response, '5xx': errorResponse } } }, async () => ({
      Sucesso: true,
      Mensagem: 'vazou',
      Saldo: 'cpf 11144477735',
    }));
    const res = await app.inject({ method: 'GET', url: '/saldo' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ Sucesso: false, Mensagem: 'erro interno' });
    await app.close();
  });
});
