import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, PixProviderName } from '../../db/schema.js';
import { driverFileRoute, driverRoute } from '../../http/route.js';
import { receiptPdf } from './pdf.js';
import { findReceipt } from './service.js';

/** GET /api/comprovantes/:tipo/:id and its PDF (issue 12); `provider` pays the withdrawals out. */
export function receiptRoutes(app: FastifyInstance, db: Kysely<Database>, provider: PixProviderName): void {
  driverRoute(app, api.receipt, async ({ driver, params }) => ({
    Sucesso: true,
    Mensagem: serverMessages.receipt.ok,
    Comprovante: await findReceipt(db, driver, params.tipo, params.id, provider),
  }));

  driverFileRoute(app, api.receiptPdf, async ({ driver, params }) => {
    const receipt = await findReceipt(db, driver, params.tipo, params.id, provider);
    return {
      contentType: 'application/pdf',
      fileName: `comprovante-${receipt.tipo}-${receipt.id}.pdf`,
      disposition: 'inline',
      body: await receiptPdf(receipt),
    };
  });
}
