import { z } from 'zod';
import { endpoint } from './endpoint.js';

export const supportApi = {
  /** Founding decision 17: answers 302 to https://wa.me/<SUPPORT_WHATSAPP>?text=...; the support link points here. */
  supportWhatsapp: endpoint({
    method: 'GET',
    path: '/api/suporte/whatsapp',
    auth: false,
    summary: 'Abre a conversa de suporte no WhatsApp (redirecionamento 302)',
    response: z.lazy(() => z.null().describe('Sem corpo: 302 com Location para o WhatsApp')),
  }),
};
