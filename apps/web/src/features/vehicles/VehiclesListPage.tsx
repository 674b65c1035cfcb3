import { Anchor, Button, Paper, Stack, Text } from '@mantine/core';
import { api, type VehicleRow } from '@portal/contract';
import { canDeleteVehicle, messages } from '@portal/domain';
import { IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { confirmAction } from '../../components/ui/confirm';
import { VehicleFreeFlowSwitches } from '../../components/ui/FreeFlowPlateSwitches';
import { DataTable, isListLoading, isListNotLoaded, type DataTableColumn } from '../../components/ui/DataTable';
import { ListPageHeader } from '../../components/ui/ListPageHeader';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { TagStatusBadge } from '../../components/ui/TagStatusBadge';
import { toast } from '../../components/ui/toast';
import { toastFailure } from '../../components/ui/toastFailure';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { useMayCall } from '../../lib/actingAccount';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { usePageParam } from '../../lib/usePageParam';
import { useDeleteVehicle } from './api/mutations';
import { useVehiclesPage } from './api/queries';

/** Why the delete button is disabled (founding decision 7), short enough for a phone row. */
const CANNOT_DELETE_VEHICLE = 'Cancele a tag antes de excluir o veículo';

const plateColumn: DataTableColumn<VehicleRow> = {
  key: 'placa',
  header: 'Placa',
  render: (row) => (
    <Anchor component={Link} to={`/tags/detalhes/${row.LicensePlate}`} fw={700} aria-label={`Veículo ${row.LicensePlate}: ver detalhes`}>
      {row.LicensePlate}
    </Anchor>
  ),
};

const statusColumn: DataTableColumn<VehicleRow> = {
  key: 'status',
  header: 'Status',
  width: 160,
  render: (row) => <TagStatusBadge code={row.Status} noTag={row.tag === null} />,
};

const freeFlowColumn: DataTableColumn<VehicleRow> = {
  // Decision 76: the plate's free-flow tolls kept (with the consent) and paid automatically.
  key: 'livre-passagem',
  header: 'Pedágio sem cancela',
  width: 260,
  unlabelledOnPhone: true,
  render: (row) => <VehicleFreeFlowSwitches vehicleId={row.id} plate={row.LicensePlate} />,
};

const actionColumn: DataTableColumn<VehicleRow> = {
  key: 'acao',
  header: 'Ação',
  width: 220,
  unlabelledOnPhone: true,
  render: (row) => <DeleteVehicle row={row} />,
};

/**
 * spec §2 /veiculos/listar and founding decision 7: Placa, Status, Ação (founding decision 19's accents), and
 * decision 76's 'Pedágio sem cancela' switches of each plate; 10 a page; decision 77: the switches and
 * the changes only for a role that may make them (a Motorista sees their vehicles, read only);
 * a failure empties the table (spec §8) and is said at once with 'Tentar novamente' (issue 25).
 */
export function VehiclesListPage() {
  usePageTitle('Veículos');
  const [page, setPage] = usePageParam();
  const { vehicles, failure } = useVehiclesPage(page);
  const online = useOnline();
  // Decision 77: what the role in use may not change (or read) is not offered.
  const changes = useMayCall(api.registerTag, api.deleteVehicle);
  const freeFlow = useMayCall(api.freeFlowPlates, api.setFreeFlowPlates);
  const columns = useMemo(
    () => [plateColumn, statusColumn, ...(freeFlow ? [freeFlowColumn] : []), ...(changes ? [actionColumn] : [])],
    [freeFlow, changes],
  );

  return (
    <Stack gap="lg">
      <ListPageHeader
        title="Veículos"
        subtitle="Seus veículos e o status da tag de cada um."
        addLabel={changes ? 'Cadastrar' : undefined}
        addTo={changes ? '/tags/adicionar' : undefined}
        offline={!online}
      />
      <OfflineNotice updatedAt={vehicles.dataUpdatedAt} />
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <DataTable
          columns={columns}
          rows={vehicles.data?.Veiculos}
          getRowKey={(row) => row.id}
          loading={isListLoading(vehicles)}
          notLoaded={isListNotLoaded(vehicles)}
          page={page}
          totalPages={vehicles.data?.Paginacao.TotalPaginas ?? 0}
          onPageChange={setPage}
          failure={failure && { message: messages.readFailed.vehicles, retrying: failure.retrying, onRetry: failure.retry }}
        />
      </Paper>
    </Stack>
  );
}

/** Delete with confirmation; disabled, with the reason, while the tag is active or blocked or with no connection. */
function DeleteVehicle({ row }: { row: VehicleRow }) {
  const remove = useDeleteVehicle();
  const online = useOnline();
  const deletable = canDeleteVehicle(row.tag?.statusCode ?? row.Status, row.tag !== null);
  const reasonId = `motivo-excluir-veiculo-${row.id}`;

  const onDelete = async () => {
    const confirmed = await confirmAction({
      title: 'Excluir veículo',
      message: `Excluir o veículo ${row.LicensePlate}${row.tag ? ' e a tag dele' : ''}? Esta ação não pode ser desfeita.`,
      confirmLabel: 'Excluir',
      danger: true,
    });
    if (!confirmed) return;
    remove.mutate(row.id, {
      onSuccess: () => toast.success(`O veículo ${row.LicensePlate} foi excluído.`, { title: messages.vehicle.deleted }),
      onError: (error) => toastFailure(error, messages.vehicle.deleteFailed),
    });
  };

  return (
    <Stack gap={4}>
      <Button
        variant="light"
        color="red"
        leftSection={<IconTrash size={18} aria-hidden />}
        disabled={!deletable || !online}
        loading={remove.isPending}
        onClick={() => void onDelete()}
        aria-label={`Excluir veículo ${row.LicensePlate}`}
        aria-describedby={!deletable ? reasonId : online ? undefined : OFFLINE_REASON_ID}
        fullWidth
      >
        Excluir
      </Button>
      {deletable ? null : (
        <Text size="xs" c="gray.7" id={reasonId}>
          {CANNOT_DELETE_VEHICLE}
        </Text>
      )}
    </Stack>
  );
}
