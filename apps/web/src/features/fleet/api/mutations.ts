import { api, type AuditFilters, type InviteMemberRequest } from '@portal/contract';
import type { FleetRole } from '@portal/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { downloadFile, request } from '../../../lib/api';
import { auditParams, fleetQueryRoot } from './queries';

/** After any change of the company's members or assignments: its lists and its trail are read again. */
function useRefreshFleet() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: fleetQueryRoot });
}

/** POST /api/empresa/membros {cpf, papel}: the invitation (idempotent: a retry sends the same key). */
export function useInviteMember() {
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: (invite: InviteMemberRequest) => request(api.inviteMember, { body: invite }),
    onSettled: refresh,
  });
}

/** POST /api/empresa/membros/:id/papel {papel}. */
export function useChangeMemberRole() {
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: ({ id, papel }: { id: number; papel: FleetRole }) => request(api.changeMemberRole, { params: { id }, body: { papel } }),
    onSettled: refresh,
  });
}

/** DELETE /api/empresa/membros/:id: a member removed (access ends at once) or an invitation cancelled. */
export function useRemoveMember() {
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: (id: number) => request(api.removeMember, { params: { id } }),
    onSettled: refresh,
  });
}

/** POST /api/empresa/veiculos/:id/motoristas {motoristas}: the vehicle's Motoristas, replacing the ones it had. */
export function useAssignVehicle() {
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: ({ id, motoristas }: { id: number; motoristas: number[] }) =>
      request(api.assignVehicle, { params: { id }, body: { motoristas } }),
    onSettled: refresh,
  });
}

/** GET /api/empresa/auditoria/exportar with the list's filters: the trail as CSV, saved under the server's name. */
export function useAuditExport() {
  return useMutation({
    // Offline the button is disabled; a connection lost on the way fails at once instead of waiting.
    networkMode: 'always',
    mutationFn: (filters: AuditFilters) =>
      downloadFile(api.auditExport, { query: { ...auditParams(filters), page: undefined }, fallbackName: 'auditoria.csv' }),
  });
}
