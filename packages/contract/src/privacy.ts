import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { envelope } from './common.js';

/** LGPD art. 41: the person in charge of the drivers' personal data (encarregado), as the operator configured them. */
export const privacyOfficer = z.lazy(() =>
  z.object({
    nome: z.string(),
    email: z.string(),
  }),
);
export type PrivacyOfficer = z.infer<typeof privacyOfficer>;

export const privacyResponse = z.lazy(() => envelope.unwrap().extend({ Encarregado: privacyOfficer }));
export type PrivacyResponse = z.infer<typeof privacyResponse>;

export const privacyApi = {
  /** Decision 72: public, since the privacy notice is read before signing in (from the login and the registration). */
  privacy: endpoint({
    method: 'GET',
    path: '/api/privacidade',
    auth: false,
    summary: 'O encarregado pelos dados pessoais (LGPD art. 41): nome e e-mail, para o Aviso de Privacidade',
    response: privacyResponse,
  }),
};
