import { randomInt } from 'node:crypto';
import { INVOICE_GROUP_CODE, TAG_ORIGEM } from '@portal/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import operatorsFile from '../../src/data/operators.json' with { type: 'json' };
import { bearer } from './app.js';
import { fund } from './pix.js';
import type { Registered } from './app.js';

export const OPERATORS = Object.fromEntries(operatorsFile.operators.map((o) => [o.name, o.cnpj])) as Record<string, string>;
export const SEMPARAR = OPERATORS.SemParar ?? '';
export const TAGGY = OPERATORS.Taggy ?? '';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const letter = () => LETTERS[randomInt(26)] ?? 'A';
const digit = () => String(randomInt(10));

/** A fresh Mercosul plate. */
export function newPlate(): string {
  return `${letter()}${letter()}${letter()}${digit()}${letter()}${digit()}${digit()}`;
}

/** A fresh 16-digit serial that is not Greenpass (5666). */
export function newSerial(): string {
  return `7${Array.from({ length: 15 }, digit).join('')}`;
}

export function registrationBody(d: Registered, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    serialNumber: newSerial(),
    Operadora: SEMPARAR,
    licensePlate: newPlate(),
    cnpj: d.cpfCnpj,
    invoiceGroupCode: INVOICE_GROUP_CODE,
    vehicleType: 2,
    axles: 3,
    CpfCnpjAntt: d.cpfCnpj,
    RntrcAntt: '12345678',
    modelo: 'scania-r-450',
    ...overrides,
  };
}

export function post(app: FastifyInstance, d: Registered, url: string, payload: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url, headers: bearer(d.token), payload });
}

export function get(app: FastifyInstance, d: Registered, url: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url, headers: bearer(d.token) });
}

export interface RegisteredTag {
  serial: string;
  plate: string;
  vehicleId: number;
}

export async function registerTag(app: FastifyInstance, d: Registered, overrides: Record<string, unknown> = {}): Promise<RegisteredTag> {
  const body = registrationBody(d, overrides);
  const res = await post(app, d, '/api/tag/cadastrar-tag', body);
  expect(res.statusCode, res.body).toBe(201);
  const plate = String(body.licensePlate)
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '');
  const detail = await get(app, d, `/api/veiculo/detail/${plate}`);
  expect(detail.statusCode, detail.body).toBe(200);
  return { serial: String(body.serialNumber).replace(/\s/g, ''), plate, vehicleId: detail.json<{ Dados: { id: number } }>().Dados.id };
}

/** A registered tag, activated (its first fee paid from a R$ 100,00 purchase): balance R$ 84,10 more. */
export async function activeTag(app: FastifyInstance, d: Registered, overrides: Record<string, unknown> = {}): Promise<RegisteredTag> {
  const t = await registerTag(app, d, overrides);
  await fund(app, d, 100);
  const res = await actions.activate(app, d, t.serial, t.plate);
  expect(res.statusCode, res.body).toBe(200);
  return t;
}

export const actions = {
  block: (app: FastifyInstance, d: Registered, serial: string) =>
    post(app, d, '/api/tag/bloquear', { serialNumber: serial, statusId: '200', origem: TAG_ORIGEM }),
  release: (app: FastifyInstance, d: Registered, serial: string) =>
    post(app, d, '/api/tag/liberar-motorista', { serialNumber: serial, statusId: '100', origem: TAG_ORIGEM }),
  cancel: (app: FastifyInstance, d: Registered, serial: string) =>
    post(app, d, '/api/tag/cancelar', { serialNumber: serial, statusId: '300', origem: TAG_ORIGEM }),
  activate: (app: FastifyInstance, d: Registered, serial: string, plate: string) =>
    post(app, d, '/api/tag/ativar-tag-motorista', { serialNumber: serial, licensePlate: plate, cnpj: d.cpfCnpj }),
  replace: (app: FastifyInstance, d: Registered, serial: string, newSerialNumber: string) =>
    post(app, d, '/api/tag/substituir', { serialNumber: serial, newSerialNumber }),
  remove: (app: FastifyInstance, d: Registered, serial: string) =>
    post(app, d, '/api/veiculo/delete-tag-vehicle', { serialNumber: serial }),
};

export async function tagStatus(app: FastifyInstance, d: Registered, plate: string): Promise<number | null | 'none'> {
  const res = await get(app, d, `/api/veiculo/detail/${plate}`);
  const tag = res.json<{ Dados: { tag: { statusCode: number | null } | null } }>().Dados.tag;
  return tag ? tag.statusCode : 'none';
}
