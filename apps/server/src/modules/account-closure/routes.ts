import { api } from '@portal/contract';
import { accountClosureMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute, publicFileRoute } from '../../http/route.js';
import { closingReceiptPdf } from './receipt-pdf.js';
import type { AccountClosureService } from './service.js';

/** GET and POST /api/motorista/encerramento, and the closing receipt's link (decision 70). */
export function accountClosureRoutes(app: FastifyInstance, closure: AccountClosureService): void {
  driverRoute(app, api.accountClosure, async ({ driver }) => {
    const pendencias = await closure.blockers(driver.id);
    return {
      Sucesso: true,
      Mensagem: pendencias.length === 0 ? accountClosureMessages.ready : accountClosureMessages.loaded,
      Encerramento: { podeEncerrar: pendencias.length === 0, pendencias },
    };
  });

  driverRoute(app, api.closeAccount, async ({ driver, body }) => {
    const link = await closure.close(driver.id, body.senha);
    return {
      Sucesso: true,
      Mensagem: accountClosureMessages.closed,
      Comprovante: { url: link.url, expiraEm: link.expiresAt.toISOString() },
    };
  });

  publicFileRoute(app, api.closureReceipt, async ({ params }) => {
    const receipt = await closure.receipt(params.token);
    return {
      contentType: 'application/pdf',
      fileName: `encerramento-conta-${receipt.driverId}.pdf`,
      disposition: 'attachment',
      body: await closingReceiptPdf(receipt),
    };
  });
}
