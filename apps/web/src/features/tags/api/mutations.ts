import { api, type ActionResponse, type TagRegistrationRequest, type VehicleUpdateRequest } from '@portal/contract';
import { TAG_ORIGEM, TAG_STATUS_IDS } from '@portal/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { balanceQueryKey } from '../../../lib/balance';
import { getUser } from '../../../lib/storage';
import { invalidateTagData, succeeded } from '../../../lib/tags';

/**
 * A write on a tag or its vehicle: an unsuccessful 200 answer fails it (spec §8), and whatever the
 * outcome the tag and vehicle data is asked again (and the balance, for writes that charge the fee).
 */
function useTagWrite<Variables>(write: (variables: Variables) => Promise<ActionResponse>, options: { movesBalance?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: Variables) => succeeded(await write(variables)),
    onSettled: async () => {
      if (options.movesBalance) void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
      await invalidateTagData(queryClient);
    },
  });
}

const statusChange = (serialNumber: string, statusId: string) => ({ serialNumber, statusId, origem: TAG_ORIGEM });

/** POST /api/tag/cadastrar-tag. */
export const useRegisterTag = () => useTagWrite((body: TagRegistrationRequest) => request(api.registerTag, { body }));

/** POST /api/veiculo/update: spec §2 /tags/editar. */
export const useUpdateVehicle = () => useTagWrite((body: VehicleUpdateRequest) => request(api.updateVehicle, { body }));

/** POST /api/tag/ativar-tag-motorista: the monthly fee leaves the balance. */
export const useActivateTag = () =>
  useTagWrite(
    ({ serialNumber, licensePlate }: { serialNumber: string; licensePlate: string }) =>
      request(api.activateTag, { body: { serialNumber, licensePlate, cnpj: getUser()?.cpfCnpj ?? '' } }),
    { movesBalance: true },
  );

/** POST /api/tag/bloquear (status 200). */
export const useBlockTag = () =>
  useTagWrite((serialNumber: string) => request(api.blockTag, { body: statusChange(serialNumber, TAG_STATUS_IDS.block) }));

/** POST /api/tag/liberar-motorista (status 100): a tag blocked for an unpaid fee pays it first. */
export const useReleaseTag = () =>
  useTagWrite((serialNumber: string) => request(api.releaseTag, { body: statusChange(serialNumber, TAG_STATUS_IDS.release) }), {
    movesBalance: true,
  });

/** POST /api/tag/cancelar (status 300). */
export const useCancelTag = () =>
  useTagWrite((serialNumber: string) => request(api.cancelTag, { body: statusChange(serialNumber, TAG_STATUS_IDS.cancel) }));

/** POST /api/tag/substituir. */
export const useReplaceTag = () =>
  useTagWrite((body: { serialNumber: string; newSerialNumber: string }) => request(api.replaceTag, { body }));

/** POST /api/veiculo/delete-tag-vehicle. */
export const useRemoveTag = () => useTagWrite((serialNumber: string) => request(api.removeTag, { body: { serialNumber } }));
