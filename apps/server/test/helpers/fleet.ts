import { ACTING_ACCOUNT_HEADER } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { bearer, registerDriver } from './app.js';
import type { Registered } from './app.js';

/** Decision 77: a new person invited by the company's own login in a role, who accepts; with the membership's id. */
export async function joinCompany(
  app: FastifyInstance,
  firm: Registered,
  name: string,
  papel: 'gestor' | 'financeiro' | 'motorista',
): Promise<{ person: Registered; memberId: number }> {
  const person = await registerDriver(app, { name });
  const invited = await app.inject({
    method: 'POST',
    url: '/api/empresa/membros',
    headers: bearer(firm.token),
    payload: { cpf: person.cpfCnpj, papel },
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const memberId = invited.json<{ Membro: { id: number } }>().Membro.id;
  const accepted = await app.inject({ method: 'POST', url: `/api/convites/${memberId}/aceitar`, headers: bearer(person.token) });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return { person, memberId };
}

/** A call as `who` on the company's account (X-Conta unless `who` is the company's own login). */
export function onCompany(
  app: FastifyInstance,
  firm: Registered,
  who: Registered,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: { ...bearer(who.token), ...(who.id === firm.id ? {} : { [ACTING_ACCOUNT_HEADER]: String(firm.id) }) },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}
