import { createHash, timingSafeEqual } from 'node:crypto';
import { refuse, serverMessages } from '@portal/domain';
import type { onRequestAsyncHookHandler } from 'fastify';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time comparison of equal-length digests: the time taken says nothing about the token. */
function sameToken(received: string, expected: string): boolean {
  return timingSafeEqual(digest(received), digest(expected));
}

/** onRequest hook: checked before the body is read, so a caller without the token learns nothing. */
export function requireWebhookToken(expected: string): onRequestAsyncHookHandler {
  return async (req) => {
    const header = req.headers['asaas-access-token'];
    const token = Array.isArray(header) ? header[0] : header;
    if (!token || !sameToken(token, expected)) {
      req.log.warn({ ip: req.ip }, 'webhook Asaas com token inválido');
      throw refuse.unauthenticated(serverMessages.pix.webhookUnauthorized);
    }
  };
}
