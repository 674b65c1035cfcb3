import { api } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api';
import { invalidateTagData, succeeded } from '../../../lib/tags';

/** POST /api/veiculo/delete (founding decision 7): the vehicle and a tag that is neither active nor blocked. */
export function useDeleteVehicle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (vehicleId: number) => succeeded(await request(api.deleteVehicle, { body: { vehicle_id: vehicleId } })),
    onSettled: () => invalidateTagData(queryClient),
  });
}
