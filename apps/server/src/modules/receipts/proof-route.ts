import { api } from '@portal/contract';
import { proofMessages, serverMessages } from '@portal/domain';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { RateLimitStore } from '../../db/rate-limit-store.js';
import { driverFileRoute, publicRoute } from '../../http/route.js';
import { proofPdf, tollReceiptPdf } from './proof-pdf.js';
import type { VehicleGuard } from '../../db/vehicle-scope.js';
import type { ProofService } from './proof.js';

/** Verifications per client address and window: a fiscal office behind one address checks many, a script is held back. */
export interface VerifyLimit {
  max: number;
  windowMinutes: number;
}

const PROOF_VERIFY_LIMIT: VerifyLimit = { max: 60, windowMinutes: 10 };

/**
 * The public verification is limited per client address as the other unauthenticated calls are
 * (http/rate-limit.ts: counted in the database, before anything else of the call runs; 429 with
 * Retry-After). A code cannot be guessed (162 bits of signature): the limit bounds the work.
 */
function perAddress(store: RateLimitStore, limit: VerifyLimit): onRequestAsyncHookHandler {
  return async (req, reply) => {
    const take = await store.take('proof-verify:address', req.ip, limit.max, limit.windowMinutes * 60_000);
    if (take.allowed) return undefined;
    req.log.warn({ limit: 'proof-verify:address', remoteAddress: req.ip }, 'limite de requisições excedido');
    return reply
      .code(429)
      .header('retry-after', String(Math.ceil(take.retryAfterMs / 1000)))
      .send({ Sucesso: false, Mensagem: serverMessages.limits.tooManyRequests });
  };
}

/**
 * Decision 76: the proofs for an appeal of a free-flow toll and of a tag passage (PDF), the payment
 * receipt of a toll the portal paid (PDF), and the public verification of a proof's code.
 */
export function proofRoutes(
  app: FastifyInstance,
  proofs: ProofService,
  limits: RateLimitStore,
  guard: VehicleGuard,
  limit: VerifyLimit = PROOF_VERIFY_LIMIT,
): void {
  driverFileRoute(app, api.freeFlowTollProof, async ({ driver, acting, params }) => {
    await guard.require('toll', params.id, driver.id, acting.vehicleIds);
    return {
      contentType: 'application/pdf',
      fileName: `comprovante-recurso-pedagio-${params.id}.pdf`,
      disposition: 'inline',
      body: await proofPdf(await proofs.forToll(driver.id, params.id)),
    };
  });

  driverFileRoute(app, api.passageProof, async ({ driver, acting, params }) => {
    await guard.require('passage', params.id, driver.id, acting.vehicleIds);
    return {
      contentType: 'application/pdf',
      fileName: `comprovante-recurso-passagem-${params.id}.pdf`,
      disposition: 'inline',
      body: await proofPdf(await proofs.forPassage(driver.id, params.id)),
    };
  });

  driverFileRoute(app, api.freeFlowTollReceipt, async ({ driver, params }) => ({
    contentType: 'application/pdf',
    fileName: `comprovante-pedagio-${params.id}.pdf`,
    disposition: 'inline',
    body: await tollReceiptPdf(await proofs.tollReceipt(driver.id, params.id)),
  }));

  publicRoute(
    app,
    api.verifyProof,
    async ({ params }) => ({ Sucesso: true, Mensagem: proofMessages.verified, Comprovante: await proofs.verify(params.codigo) }),
    { onRequest: perAddress(limits, limit) },
  );
}
