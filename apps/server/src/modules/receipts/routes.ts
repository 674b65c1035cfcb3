import { api } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverFileRoute, driverRoute } from '../../http/route.js';
import { receiptPdf } from './pdf.js';
import type { ReceiptService } from './service.js';

/** GET /api/comprovantes/:tipo/:id and its PDF (issue 12). */
export function receiptRoutes(app: FastifyInstance, receipts: ReceiptService): void {
  driverRoute(app, api.receipt, async ({ driver, params }) => ({
    Sucesso: true,
    Mensagem: serverMessages.receipt.ok,
    Comprovante: await receipts.find(driver, params.tipo, params.id),
  }));

  driverFileRoute(app, api.receiptPdf, async ({ driver, params }) => {
    const receipt = await receipts.find(driver, params.tipo, params.id);
    return {
      contentType: 'application/pdf',
      fileName: `comprovante-${receipt.tipo}-${receipt.id}.pdf`,
      disposition: 'inline',
      body: await receiptPdf(receipt),
    };
  });
}
