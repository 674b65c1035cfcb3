import { api, buildPath } from '@portal/contract';
import type { Endpoint } from '@portal/contract';
import type { InjectOptions } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { SessionStore } from '../../src/modules/auth/sessions.js';
import { useTestApp } from '../helpers/app.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { credentialOf } from '../helpers/hostile.js';
import type { DriverWorld, World } from '../helpers/world.js';
import { buildWorld, validRequest } from '../helpers/world.js';

type Name = keyof typeof api;

const driverCalls = (Object.keys(api) as Name[]).filter((n) => api[n].auth);
const partnerCalls = (Object.keys(api) as Name[]).filter((n) =>
  ['shipper', 'operator', 'platform'].includes(credentialOf(api[n] as Endpoint)),
);

/**
 * Issue 21, point 8: an answer that carries a driver's data (a balance, a statement, a refusal that
 * names a tag) is never kept by the browser's HTTP cache or a shared proxy. Every call of the
 * contract that needs a session or a partner key, answered or refused, says Cache-Control: no-store.
 */
describeEachDatabase('Cache-Control: no-store em toda resposta autenticada', (dialect) => {
  const ctx = useTestApp(dialect);
  let world: World;

  beforeAll(async () => {
    world = await buildWorld(ctx().app, ctx().db);
  });

  function request(name: Name, headers: Record<string, string>, owner: DriverWorld, other: DriverWorld): InjectOptions {
    const e = api[name] as Endpoint;
    const valid = validRequest(name, world, owner, other);
    let url = buildPath(e.path, valid.params ?? {});
    if (valid.query) url = `${url}?${valid.query}`;
    return { method: e.method, url, headers, ...(valid.body ? { payload: valid.body } : {}) };
  }

  async function expectNoStore(options: InjectOptions, seen: Set<number>): Promise<void> {
    const res = await ctx().app.inject(options);
    seen.add(res.statusCode);
    expect(res.headers['cache-control'], `${options.method} ${options.url} -> ${res.statusCode}`).toBe('no-store');
  }

  it('every driver call: answered, refused for another driver, without a session, with a bad body', async () => {
    const seen = new Set<number>();
    for (const name of driverCalls) {
      // Sair revokes the session it is called with: each of its calls gets a session of its own.
      const bearerOf = async () => ({
        authorization: `Bearer ${name === 'logout' ? await new SessionStore(ctx().db.kysely, 1).create(ctx().db.kysely, world.a.id) : world.a.token}`,
      });
      await expectNoStore(request(name, await bearerOf(), world.a, world.b), seen);
      await expectNoStore(request(name, await bearerOf(), world.b, world.a), seen);
      await expectNoStore(request(name, {}, world.a, world.b), seen);
      if ((api[name] as Endpoint).body) {
        const broken = request(name, { ...(await bearerOf()), 'content-type': 'application/json' }, world.a, world.b);
        await expectNoStore({ ...broken, payload: '{"' }, seen);
      }
    }
    // The walk met successes, refusals of another driver's resource, 401s and validation errors.
    expect([...seen].sort()).toEqual(expect.arrayContaining([200, 400, 401, 404]));
  });

  it('every partner call: accepted and refused', async () => {
    const seen = new Set<number>();
    for (const name of partnerCalls) {
      const needs = credentialOf(api[name] as Endpoint) as keyof World['keys'];
      await expectNoStore(request(name, { 'x-api-key': world.keys[needs] }, world.a, world.b), seen);
      await expectNoStore(request(name, {}, world.a, world.b), seen);
    }
    expect([...seen].some((s) => s < 300)).toBe(true);
    expect(seen.has(401)).toBe(true);
  });
});
