import { api, type ApprovalThresholdRequest, type AuditFilters, type CostCentreRequest, type InviteMemberRequest } from '@portal/contract';
import type { FleetRole } from '@portal/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { downloadFile, request } from '../../../lib/api';
import { balanceQueryKey } from '../../../lib/balance';
import { fleetQueryRoot } from '../../../lib/fleet';
import { auditParams } from './queries';

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

/** POST /api/empresa/centros-de-custo {nome, codigo}: a new cost centre (the code unique in the company). */
export function useCreateCostCentre() {
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: (centre: CostCentreRequest) => request(api.createCostCentre, { body: centre }),
    onSettled: refresh,
  });
}

/** POST /api/empresa/centros-de-custo/:id {nome, codigo}. */
export function useUpdateCostCentre() {
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: ({ id, ...centre }: CostCentreRequest & { id: number }) => request(api.updateCostCentre, { params: { id }, body: centre }),
    onSettled: refresh,
  });
}

/** DELETE /api/empresa/centros-de-custo/:id: its vehicles are left without a cost centre. */
export function useRemoveCostCentre() {
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: (id: number) => request(api.removeCostCentre, { params: { id } }),
    onSettled: refresh,
  });
}

/** POST /api/empresa/veiculos/:id/centro-de-custo {centroDeCusto}: the vehicle's cost centre, or none (null). */
export function useSetVehicleCostCentre() {
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: ({ id, centroDeCusto }: { id: number; centroDeCusto: number | null }) =>
      request(api.setVehicleCostCentre, { params: { id }, body: { centroDeCusto } }),
    onSettled: refresh,
  });
}

export type ReportFormat = 'csv' | 'pdf';

/** GET /api/empresa/centros-de-custo/:id/relatorio?mes&formato: one month of a centre, as CSV or PDF, saved under the server's name. */
export function useCostCentreReport() {
  return useMutation({
    // Offline the buttons are disabled; a connection lost on the way fails at once instead of waiting.
    networkMode: 'always',
    mutationFn: ({ id, mes, formato }: { id: number; mes: string; formato: ReportFormat }) =>
      downloadFile(api.costCentreReport, { params: { id }, query: { mes, formato }, fallbackName: `centro-de-custo-${mes}.${formato}` }),
  });
}

/** POST /api/empresa/aprovacao-saques {valor}: the dual control's threshold, or off (null); a raise or turning it off waits 24 hours. */
export function useSetApprovalThreshold() {
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: (threshold: ApprovalThresholdRequest) => request(api.setApprovalThreshold, { body: threshold }),
    onSettled: refresh,
  });
}

/** POST /api/empresa/aprovacao-saques/:id/aprovar: another Gestor's withdrawal goes out (the company's balance changes). */
export function useApproveWithdrawal() {
  const queryClient = useQueryClient();
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: (id: number) => request(api.approveWithdrawal, { params: { id } }),
    onSettled: () => Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: balanceQueryKey })]),
  });
}

/** POST /api/empresa/aprovacao-saques/:id/recusar: nothing leaves the account. */
export function useDeclineWithdrawal() {
  const refresh = useRefreshFleet();
  return useMutation({
    mutationFn: (id: number) => request(api.declineWithdrawal, { params: { id } }),
    onSettled: refresh,
  });
}
