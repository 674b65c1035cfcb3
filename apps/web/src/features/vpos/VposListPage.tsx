import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { api, type Vpo } from '@portal/contract';
import {
  formatSerial,
  messages,
  SORT_DIRECTIONS,
  VPO_SORT_FIELDS,
  type SortDirection,
  type VpoSortField,
} from '@portal/domain';
import { IconHandClick } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DataTable, type DataTableColumn, type DataTableSort } from '../../components/ui/DataTable';
import { DateTime } from '../../components/ui/DateTime';
import { Money } from '../../components/ui/Money';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { request } from '../../lib/api';
import { formatDateTimeOrNull, formatReais } from '../../lib/format';
import { VpoDetailsModal } from './VpoDetailsModal';

/** The server's default order (contract vposQuery): newest first. */
const DEFAULT_SORT: VpoSortField = 'data';
const DEFAULT_DIRECTION: SortDirection = 'desc';

const columns: DataTableColumn<Vpo>[] = [
  {
    key: 'valor',
    header: 'Valor',
    sortable: true,
    sortLabels: { asc: 'menor primeiro', desc: 'maior primeiro' },
    width: 170,
    render: (row) => <Money reais={row.ValorTotalVP} fw={700} style={{ whiteSpace: 'nowrap' }} />,
  },
  {
    key: 'placa',
    header: 'Placa',
    sortable: true,
    sortLabels: { asc: 'A a Z', desc: 'Z a A' },
    render: (row) => (
      <Text component="span" inherit fw={600} style={{ letterSpacing: '0.04em' }}>
        {row.PlacaVeiculo}
      </Text>
    ),
  },
  {
    key: 'data',
    header: 'Data',
    sortable: true,
    sortLabels: { asc: 'mais antigos', desc: 'mais recentes' },
    width: 210,
    render: (row) => <DateTime value={row.created_at} />,
  },
];

interface ListState {
  page: number;
  sort: VpoSortField;
  direction: SortDirection;
}

const isSortField = (value: string | null): value is VpoSortField => (VPO_SORT_FIELDS as readonly (string | null)[]).includes(value);
const isDirection = (value: string | null): value is SortDirection => (SORT_DIRECTIONS as readonly (string | null)[]).includes(value);

/** ?page=N&sort=valor|placa|data&direction=asc|desc; anything unknown falls back to the server's default. */
function readState(search: string): ListState {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const sort = params.get('sort');
  const direction = params.get('direction');
  return {
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    sort: isSortField(sort) ? sort : DEFAULT_SORT,
    direction: isDirection(direction) ? direction : DEFAULT_DIRECTION,
  };
}

/** The URL of a state; the defaults (page 1, newest first) are left out. */
function searchOf({ page, sort, direction }: ListState): string {
  const params = new URLSearchParams();
  if (sort !== DEFAULT_SORT || direction !== DEFAULT_DIRECTION) {
    params.set('sort', sort);
    params.set('direction', direction);
  }
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

const rowLabel = (row: Vpo) =>
  `VPO de ${formatReais(row.ValorTotalVP)}, placa ${row.PlacaVeiculo}, ${formatDateTimeOrNull(row.created_at) ?? 'sem data'}, tag ${formatSerial(row.serialNumber)}: ver detalhes`;

/**
 * SPEC 2 /vpos/listar: Valor, Placa, Data, each sorted by the server across all pages;
 * a row opens 'Detalhes do VPO'. Failures and Sucesso false are only logged (SPEC 8).
 */
export function VposListPage() {
  usePageTitle(messages.vpo.title);
  const location = useLocation();
  const navigate = useNavigate();
  const state = readState(location.search);
  const { page, sort, direction } = state;
  const [selected, setSelected] = useState<Vpo | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);

  const vpos = useQuery({
    queryKey: ['vpos', sort, direction, page],
    queryFn: ({ signal }) => request(api.driverVpos, { query: { page, sort, direction }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  const refused = vpos.data?.Sucesso === false;
  useEffect(() => {
    if (vpos.isError) console.error('Falha ao carregar os VPOs', vpos.error);
  }, [vpos.isError, vpos.error]);
  const refusal = refused ? vpos.data?.Mensagem : undefined;
  useEffect(() => {
    if (refusal !== undefined) console.error('VPOs não consultados:', refusal);
  }, [refusal]);

  const empty = vpos.isError || refused;
  const go = (next: ListState) => {
    void navigate({ search: searchOf(next) });
    window.scrollTo({ top: 0 });
  };

  const onSortChange = (next: DataTableSort) => {
    if (!isSortField(next.key)) return;
    go({ page: 1, sort: next.key, direction: next.direction });
  };

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{messages.vpo.title}</Title>
        <Text c="dimmed">{messages.vpo.subtitle}</Text>
      </Stack>
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <Stack gap="sm">
          <Group gap="xs" wrap="nowrap" align="flex-start" px={{ base: 4, sm: 0 }}>
            <IconHandClick size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} color="var(--mantine-color-road-8)" />
            <Text size="sm" c="gray.7">
              {messages.vpo.hint}
            </Text>
          </Group>
          <DataTable
            columns={columns}
            rows={empty ? [] : vpos.data?.VPOS}
            getRowKey={(row) => row.IdTransacao}
            loading={vpos.isPending || (vpos.isPlaceholderData && vpos.isFetching)}
            page={page}
            totalPages={empty ? 0 : (vpos.data?.Paginacao.TotalPaginas ?? 0)}
            onPageChange={(next) => go({ ...state, page: next })}
            sort={{ key: sort, direction }}
            onSortChange={onSortChange}
            onRowClick={(row) => {
              setSelected(row);
              setDetailsOpen(true);
            }}
            rowLabel={rowLabel}
          />
        </Stack>
      </Paper>
      <VpoDetailsModal vpo={selected} opened={detailsOpen} onClose={() => setDetailsOpen(false)} />
    </Stack>
  );
}
