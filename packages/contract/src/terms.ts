import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { envelope, idParam, isoDateTime } from './common.js';

/** spec §3/4: data.action 'rejeite' means rejected; data null means no decision on the current term. */
export const termAction = z.lazy(() => z.enum(['aceite', 'rejeite']));
export type TermAction = z.infer<typeof termAction>;

export const termStatusResponse = z.lazy(() =>
  envelope.unwrap().extend({
    data: z.object({ action: termAction, termId: z.number().int(), version: z.number().int(), decidedAt: isoDateTime }).nullable(),
  }),
);
export type TermStatusResponse = z.infer<typeof termStatusResponse>;

export const currentTermResponse = z.lazy(() =>
  envelope.unwrap().extend({
    data: z.object({ id: z.number().int(), version: z.number().int(), publishedAt: isoDateTime }),
  }),
);

export const termFileResponse = z.lazy(() =>
  envelope.unwrap().extend({
    data: z.object({ id: z.number().int(), fileName: z.string(), arquivo_base64: z.string() }),
  }),
);

export const termsApi = {
  status: endpoint({
    method: 'GET',
    path: '/api/termos/status-atual/:userId',
    auth: true,
    capability: 'self',
    summary: 'Situação do motorista no termo de uso vigente',
    params: z.lazy(() => z.object({ userId: idParam })),
    response: termStatusResponse,
  }),
  current: endpoint({
    method: 'GET',
    path: '/api/termos/getCurrentTerm',
    auth: true,
    capability: 'self',
    summary: 'Termo de uso vigente',
    response: currentTermResponse,
  }),
  download: endpoint({
    method: 'GET',
    path: '/api/termos/download-base64/:termId',
    auth: true,
    capability: 'self',
    summary: 'PDF do termo em base64',
    params: z.lazy(() => z.object({ termId: idParam })),
    response: termFileResponse,
  }),
  accept: endpoint({
    method: 'POST',
    path: '/api/termos/aceitar',
    auth: true,
    capability: 'self',
    idempotent: true,
    summary: 'Aceitar o termo vigente',
    response: envelope,
  }),
  reject: endpoint({
    method: 'POST',
    path: '/api/termos/rejeitar',
    auth: true,
    capability: 'self',
    idempotent: true,
    summary: 'Rejeitar o termo vigente',
    response: envelope,
  }),
};
