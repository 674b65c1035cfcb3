import type { Compilable, Kysely } from 'kysely';

const MARK = '\u0000param:';

/**
 * A Kysely query built and compiled to SQL once, run with new values on each call. Building and
 * compiling costs more than running a small indexed query (the balance call's two); the SQL is
 * the same for every call, only the parameters change. `build` receives `param(name)` to put
 * where a value goes; every other value stays as it was compiled.
 */
export function compileOnce<DB, K extends string, R>(
  db: Kysely<DB>,
  build: (param: (name: K) => never) => Compilable<R>,
): (values: Record<K, unknown>) => Promise<R[]> {
  const compiled = build((name) => `${MARK}${name}` as never).compile();
  const slots: ({ name: K } | { value: unknown })[] = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(MARK) ? { name: value.slice(MARK.length) as K } : { value },
  );
  return async (values) => {
    const parameters = slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value));
    return (await db.executeQuery<R>({ ...compiled, parameters })).rows;
  };
}
