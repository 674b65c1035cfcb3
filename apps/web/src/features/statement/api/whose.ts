import { api } from '@portal/contract';
import { mayCall, useActing } from '../../../lib/actingAccount';
import { request } from '../../../lib/api';
import { costCentresQuery, membersQuery } from '../../../lib/fleet';
import { listQueryOptions, useLoggedQuery } from '../../../lib/listQuery';
import { tagKeys } from '../../../lib/tags';

/** GET /api/extrato/veiculos: every plate of the account in one answer; a tag or vehicle write asks it again. */
const statementPlatesQuery = listQueryOptions(['tags'], [...tagKeys.all, 'placas-do-extrato'] as const, ({ signal }) =>
  request(api.statementVehicles, { signal }),
);

export interface WhoseOption {
  /** As the filter's select names it: 'placa:FRT1A11', 'centro:3', 'motorista:5' (filters.ts whoseValueOf). */
  value: string;
  label: string;
  /** What a Motorista chosen means (decision 79: the trucks assigned to them today, not who drove), said under the select's label. */
  hint?: string;
}

export const WHOSE_GROUP_LABELS = { placa: 'Veículos', centro: 'Centros de custo', motorista: 'Motoristas' } as const;

export interface WhoseGroup {
  group: (typeof WHOSE_GROUP_LABELS)[keyof typeof WHOSE_GROUP_LABELS];
  items: WhoseOption[];
}

export interface WhoseOptions {
  /** What the person may filter by, from what their role may read (not from what came): plates, cost centres, Motoristas. */
  reads: { placa: boolean; centro: boolean; motorista: boolean };
  /** The groups that came with at least one option, in that order. */
  groups: WhoseGroup[];
  /** A list the person may read is still on its way. */
  loading: boolean;
}

const byLabel = (a: WhoseOption, b: WhoseOption) => a.label.localeCompare(b.label, 'pt-BR');

/** A Motorista's filter is the trucks assigned to them now: 'Veículos atribuídos hoje: FRT1A11, FRT2B22'. */
function assignedToday(plates: readonly string[]): string {
  return plates.length > 0 ? `Veículos atribuídos hoje: ${plates.join(', ')}` : 'Nenhum veículo atribuído hoje.';
}

/**
 * Decision 79: what the statement may be filtered by: the account's plates (GET
 * /api/extrato/veiculos, a removed truck's too), and on a company's account its cost
 * centres (GET /api/empresa/centros-de-custo: Gestor and Financeiro) and its Motoristas (GET
 * /api/empresa/membros: Gestor). A read the role may not make is never asked (the Financeiro's
 * members would be a 403); one that fails only leaves its group out (logged, nothing on screen).
 */
export function useWhoseOptions(): WhoseOptions {
  const { role, isCompany } = useActing();
  const reads = {
    placa: mayCall(role, api.statementVehicles),
    centro: isCompany && mayCall(role, api.costCentres),
    motorista: isCompany && mayCall(role, api.members),
  };

  const failure = 'Falha ao carregar as opções do filtro do extrato';
  const plates = useLoggedQuery({ ...statementPlatesQuery, enabled: reads.placa }, failure);
  const centres = useLoggedQuery({ ...costCentresQuery, enabled: reads.centro }, failure);
  const members = useLoggedQuery({ ...membersQuery, enabled: reads.motorista }, failure);

  const items = {
    // Live trucks first (the server's order), then the removed ones, said so.
    placa: (plates.data?.Veiculos ?? []).map((v) => ({ value: `placa:${v.placa}`, label: v.removido ? `${v.placa} (removido)` : v.placa })),
    centro: (centres.data?.Centros ?? [])
      .map((centre) => ({ value: `centro:${centre.id}`, label: `${centre.codigo} · ${centre.nome}` }))
      .sort(byLabel),
    motorista: (members.data?.Membros ?? [])
      .filter((member) => member.papel === 'motorista' && member.estado === 'ativo')
      .map((member) => ({ value: `motorista:${member.id}`, label: member.nome ?? member.cpf, hint: assignedToday(member.placas) }))
      .sort(byLabel),
  };
  const groups = (['placa', 'centro', 'motorista'] as const)
    .filter((field) => reads[field] && items[field].length > 0)
    .map((field) => ({ group: WHOSE_GROUP_LABELS[field], items: items[field] }));
  const loading = (reads.placa && plates.isPending) || (reads.centro && centres.isPending) || (reads.motorista && members.isPending);
  return { reads, groups, loading };
}
