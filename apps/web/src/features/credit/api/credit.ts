import { api, type PixCharge } from '@portal/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { ApiError, isClientError, request } from '../../../lib/api';
import { getUser } from '../../../lib/storage';

/** How often a pending charge is asked about (the webhook settles it on the server). */
const PIX_POLL_MS = 3000;

const creditKeys = {
  all: ['credito'] as const,
  charge: (id: string) => [...creditKeys.all, 'pix', id] as const,
};

/** GET /api/transacoes/qrcode/{id}, asked every 3 s while the charge is pending. */
export const pixChargeQuery = (id: string) =>
  queryOptions({
    queryKey: creditKeys.charge(id),
    queryFn: ({ signal }) => request(api.pixCharge, { params: { id }, signal }),
    staleTime: 0,
    refetchInterval: (query) => {
      if (query.state.status === 'error' && isClientError(query.state.error)) return false;
      const status = query.state.data?.qrCode.status;
      return status === undefined || status === 'PENDING' ? PIX_POLL_MS : false;
    },
  });

/**
 * POST /api/transacoes/gerar-qrcode for the driver's own document. An answer without a Pix to pay
 * (Sucesso false, or no payload) is a failure carrying that answer, so errorMessage shows its Mensagem.
 */
export function useBuyBalance() {
  return useMutation({
    mutationFn: async (valor: number): Promise<PixCharge> => {
      const answer = await request(api.createPixCharge, {
        body: { valor, cpfCnpj: getUser()?.cpfCnpj ?? '', project: 'VPO' },
      });
      if (!answer.Sucesso || !answer.qrCode.payload) {
        throw new ApiError(200, answer.Mensagem, {}, { ...answer, Sucesso: false });
      }
      return answer.qrCode;
    },
  });
}
