import { api } from '@portal/contract';
import { TERMS_FILE_NAME } from '@portal/domain';
import { ApiError, request } from '../../lib/api';
import { base64ToBlob, saveBlob } from '../../lib/download';

/** undefined: the stored token; a string: the in-memory token of /blocked-access (decision 8). */
type TokenOverride = string | undefined;

function withToken(token: TokenOverride) {
  return token === undefined ? {} : { token };
}

/** getCurrentTerm -> download-base64/{id} -> Blob -> saved as 'Termos-de-Uso.pdf'. */
export async function downloadCurrentTerms(token?: TokenOverride): Promise<void> {
  const current = await request(api.current, withToken(token));
  const file = await request(api.download, { ...withToken(token), params: { termId: current.data.id } });
  saveBlob(base64ToBlob(file.data.arquivo_base64, 'application/pdf'), TERMS_FILE_NAME);
}

async function decide(endpoint: typeof api.accept | typeof api.reject, token: TokenOverride): Promise<void> {
  const response = await request(endpoint, withToken(token));
  if (!response.Sucesso) throw new ApiError(200, response.Mensagem);
}

export function acceptTerms(token?: TokenOverride): Promise<void> {
  return decide(api.accept, token);
}

export function rejectTerms(token?: TokenOverride): Promise<void> {
  return decide(api.reject, token);
}
