import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { createSerializerCompiler, ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Zod types whose parse and encode give the same value: no transform, pipe, codec, default or catch. */
const PLAIN = new Set([
  'object',
  'array',
  'string',
  'number',
  'int',
  'boolean',
  'null',
  'literal',
  'enum',
  'nullable',
  'optional',
  'union',
  'record',
]);

/** The schema a z.lazy stands for (the contract builds its schemas at first use), else the schema itself. */
function built(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodLazy ? built(schema.unwrap() as z.ZodType) : schema;
}

/** True when every node of the schema is PLAIN (refinements are fine: parse and encode both run them). */
export function isPlain(lazySchema: z.ZodType): boolean {
  const schema = built(lazySchema);
  const def = schema._zod.def as unknown as {
    type: string;
    shape?: Record<string, z.ZodType>;
    element?: z.ZodType;
    innerType?: z.ZodType;
    options?: z.ZodType[];
    keyType?: z.ZodType;
    valueType?: z.ZodType;
    catchall?: z.ZodType;
  };
  if (!PLAIN.has(def.type) || def.catchall) return false;
  const children = [...Object.values(def.shape ?? {}), ...(def.options ?? [])];
  for (const child of [def.element, def.innerType, def.keyType, def.valueType]) if (child) children.push(child);
  return children.every(isPlain);
}

const encodeThenStringify = createSerializerCompiler({});

/**
 * Every answer is checked against the contract before it is sent, as fastify-type-provider-zod
 * does, but with zod's parse instead of its encode where they agree (plain schemas): encode skips
 * zod's compiled fast path and cost about 6x more (2.0 µs against 0.3 µs for the balance answer,
 * 15 against 3 µs for a page of the statement). An answer that breaks the schema is refused
 * (ResponseSerializationError -> 500), unknown keys are dropped, as before.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  const { method, url } = route;
  if (!(route.schema instanceof z.ZodType) || !isPlain(route.schema)) return encodeThenStringify(route);
  const schema = built(route.schema);
  return (data) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
