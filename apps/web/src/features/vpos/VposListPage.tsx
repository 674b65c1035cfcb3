import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Vpo } from '@portal/contract';
import { formatSerial, messages, VPO_SORT_FIELDS, vpoRoute } from '@portal/domain';
import { IconHandClick } from '@tabler/icons-react';
import { useState } from 'react';
import { DataTable, isListLoading, isListNotLoaded, type DataTableColumn, type DataTableSort } from '../../components/ui/DataTable';
import { DateTime } from '../../components/ui/DateTime';
import { Money } from '../../components/ui/Money';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { formatDateTimeOrNull, formatReais } from '../../lib/format';
import { usePageParam } from '../../lib/usePageParam';
import { useVposPage } from './api/queries';
import { useVpoOrder } from './useVpoOrder';
import { VpoDetailsModal } from './VpoDetailsModal';
import classes from './VposListPage.module.css';

const { fields } = messages.vpo;

/** Decision 52: what the VPO still holds for the trip, and under it what it paid so far. */
function LeftCell({ row }: { row: Vpo }) {
  return (
    <Stack gap={0} className={classes.money}>
      <Money reais={row.Restante} fw={600} style={{ whiteSpace: 'nowrap' }} />
      <Text component="span" size="xs" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
        {fields.used}: <Money reais={row.Utilizado} />
      </Text>
    </Stack>
  );
}

const columns: DataTableColumn<Vpo>[] = [
  {
    key: 'valor',
    header: 'Valor',
    sortable: true,
    sortLabels: { asc: 'menor primeiro', desc: 'maior primeiro' },
    width: 150,
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
    key: 'rota',
    header: fields.route,
    render: (row) =>
      row.origem || row.destino ? (
        <Text component="span" inherit style={{ overflowWrap: 'anywhere' }}>
          {vpoRoute(row.origem, row.destino)}
        </Text>
      ) : (
        <Text component="span" inherit c="gray.7">
          {messages.vpo.routeUnknown}
        </Text>
      ),
  },
  {
    key: 'restante',
    header: fields.left,
    width: 150,
    render: (row) => <LeftCell row={row} />,
  },
  {
    key: 'data',
    header: 'Data',
    sortable: true,
    sortLabels: { asc: 'mais antigos', desc: 'mais recentes' },
    width: 200,
    render: (row) => <DateTime value={row.created_at} />,
  },
];

const rowLabel = (row: Vpo) =>
  `VPO de ${formatReais(row.ValorTotalVP)}, placa ${row.PlacaVeiculo}, ${vpoRoute(row.origem, row.destino)}, ${fields.left.toLowerCase()} ${formatReais(row.Restante)}, ${formatDateTimeOrNull(row.created_at) ?? 'sem data'}, tag ${formatSerial(row.serialNumber)}: ver detalhes`;

/**
 * spec §2 /vpos/listar: Valor, Placa, Data, each sorted by the server across all pages;
 * a row opens 'Detalhes do VPO'. Failures and Sucesso false are logged and empty the table (spec §8),
 * said at once with 'Tentar novamente' (issue 25).
 * Decision 52 adds each VPO's route and what it still holds (Restante, with what it used under it).
 */
export function VposListPage() {
  usePageTitle(messages.vpo.title);
  const [page, setPage] = usePageParam();
  const [order, setOrder] = useVpoOrder();
  const { vpos, empty, failure } = useVposPage({ page, ...order });
  const [selected, setSelected] = useState<Vpo | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);

  const onSortChange = ({ key, direction }: DataTableSort) => {
    const sort = VPO_SORT_FIELDS.find((field) => field === key);
    if (sort) setOrder({ sort, direction });
  };

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{messages.vpo.title}</Title>
        <Text c="dimmed">{messages.vpo.subtitle}</Text>
      </Stack>
      {/* 'Detalhes do VPO' has an action that needs the network (its PDF): the notice says why it is disabled. */}
      <OfflineNotice updatedAt={vpos.dataUpdatedAt} />
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
            loading={isListLoading(vpos)}
            notLoaded={isListNotLoaded(vpos)}
            page={page}
            totalPages={empty ? 0 : (vpos.data?.Paginacao.TotalPaginas ?? 0)}
            onPageChange={setPage}
            failure={failure && { message: messages.readFailed.vpos, retrying: failure.retrying, onRetry: failure.retry }}
            sort={{ key: order.sort, direction: order.direction }}
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
