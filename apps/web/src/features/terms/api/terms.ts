import { api } from '@portal/contract';
import { TERMS_FILE_NAME } from '@portal/domain';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api';
import { base64ToBlob, saveBlob } from '../../../lib/download';
import { queryClient } from '../../../lib/queryClient';
import { setToken } from '../../../lib/storage';
import { markTermsAccepted } from '../../../lib/terms';

/**
 * undefined: the stored token; a string: the in-memory token of /blocked-access (founding decision 8).
 * /blocked-access is outside the authenticated shell, so every hook here is given the client.
 */
type TokenOverride = string | undefined;

function withToken(token: TokenOverride) {
  return token === undefined ? {} : { token };
}

const termsKeys = {
  all: ['termos'] as const,
  current: () => [...termsKeys.all, 'vigente'] as const,
  file: (termId: number) => [...termsKeys.all, 'arquivo', termId] as const,
};

/** GET /api/termos/getCurrentTerm. */
const currentTermQuery = (token?: TokenOverride) =>
  queryOptions({
    queryKey: termsKeys.current(),
    queryFn: ({ signal }) => request(api.current, { ...withToken(token), signal }),
  });

/** GET /api/termos/download-base64/{termId}. */
const termFileQuery = (termId: number, token?: TokenOverride) =>
  queryOptions({
    queryKey: termsKeys.file(termId),
    queryFn: ({ signal }) => request(api.download, { ...withToken(token), params: { termId }, signal }),
  });

/** getCurrentTerm -> download-base64/{id} -> saved as 'Termos-de-Uso.pdf'. */
export function useDownloadTerms(token?: TokenOverride) {
  return useMutation(
    {
      mutationFn: async () => {
        const current = await queryClient.fetchQuery(currentTermQuery(token));
        const file = await queryClient.fetchQuery(termFileQuery(current.data.id, token));
        saveBlob(base64ToBlob(file.data.arquivo_base64, 'application/pdf'), TERMS_FILE_NAME);
      },
    },
    queryClient,
  );
}

/**
 * An unsuccessful 200 is a failure too. Issue 25: a decision that got no answer is said at once, not
 * after 7 s of silent retries (api.ts): no money moves, and pressing again sends the same
 * Idempotency-Key, so the server decides once.
 */
async function decide(endpoint: typeof api.accept | typeof api.reject, token: TokenOverride): Promise<void> {
  const response = await request(endpoint, { ...withToken(token), unansweredRetryDelaysMs: [] });
  if (!response.Sucesso) throw new ApiError(200, response.Mensagem, {}, response);
}

/**
 * POST /api/termos/aceitar; the session (given back, on /blocked-access) is marked 'aceito', and
 * what the screen shows is read again (issue 25: a screen that was refused for the terms, such as
 * the withdrawal's eligibility, goes on where the driver is).
 */
export function useAcceptTerms(token?: TokenOverride) {
  return useMutation(
    {
      mutationFn: () => decide(api.accept, token),
      onSuccess: () => {
        if (token !== undefined) setToken(token);
        markTermsAccepted();
        void queryClient.invalidateQueries();
      },
    },
    queryClient,
  );
}

/** POST /api/termos/rejeitar. */
export function useRejectTerms(token?: TokenOverride) {
  return useMutation({ mutationFn: () => decide(api.reject, token) }, queryClient);
}
