import { api } from '@portal/contract';
import { messages, refuse, serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../http/route.js';
import type { TermsService } from './service.js';

export function termsRoutes(app: FastifyInstance, terms: TermsService): void {
  driverRoute(app, api.status, async ({ params, driver }) => {
    if (params.userId !== driver.id) throw refuse.forbidden(serverMessages.terms.notYours);
    return { Sucesso: true, Mensagem: serverMessages.terms.statusOk, data: await terms.status(driver.id) };
  });

  driverRoute(app, api.current, async () => {
    return { Sucesso: true, Mensagem: serverMessages.terms.currentOk, data: await terms.requireCurrent() };
  });

  driverRoute(app, api.download, async ({ params }) => {
    const file = await terms.file(params.termId);
    return {
      Sucesso: true,
      Mensagem: serverMessages.terms.fileOk,
      data: { id: file.id, fileName: file.fileName, arquivo_base64: file.pdf.toString('base64') },
    };
  });

  driverRoute(app, api.accept, async ({ driver }) => {
    await terms.decide(driver.id, 'aceite');
    return { Sucesso: true, Mensagem: messages.terms.accepted };
  });

  driverRoute(app, api.reject, async ({ driver }) => {
    await terms.decide(driver.id, 'rejeite');
    return { Sucesso: true, Mensagem: messages.terms.rejected };
  });
}
