import type { TermsService } from './service.js';
import { buildTemplateTermsPdf } from './template-pdf.js';

/** First start: publish the MODELO terms so there is always a current term to accept. */
export async function ensureTerms(terms: TermsService): Promise<boolean> {
  if (await terms.current()) return false;
  await terms.publish(await buildTemplateTermsPdf());
  return true;
}
