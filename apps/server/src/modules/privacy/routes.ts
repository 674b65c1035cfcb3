import { api } from '@portal/contract';
import { privacyMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { publicRoute } from '../../http/route.js';

/** LGPD art. 41: the person in charge of the personal data, as the operator configured them (PRIVACY_OFFICER_*). */
export interface PrivacyOfficer {
  name: string;
  email: string;
}

/**
 * Decision 72: the privacy notice (/privacidade) names the encarregado; public, since the notice is
 * read before signing in. The record of processing is docs/privacy.md.
 */
export function privacyRoutes(app: FastifyInstance, officer: PrivacyOfficer): void {
  const answer = { Sucesso: true, Mensagem: privacyMessages.loaded, Encarregado: { nome: officer.name, email: officer.email } };
  publicRoute(app, api.privacy, async () => answer);
}
