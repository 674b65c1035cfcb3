import { Anchor, Button, Paper, Stack, Text } from '@mantine/core';
import { api, type VehicleRow } from '@portal/contract';
import { canDeleteVehicle, messages } from '@portal/domain';
import { IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { confirmAction } from '../../components/ui/confirm';
import { ListPageHeader } from '../../components/ui/ListPageHeader';
import { DataTable, type DataTableColumn } from '../../components/ui/DataTable';
import { TagStatusBadge } from '../../components/ui/TagStatusBadge';
import { toast } from '../../components/ui/toast';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { request } from '../../lib/api';
import { answerFailure, failureMessage, invalidateTagData } from '../../lib/tags';

/** Why the delete button is disabled (decision 7), short enough for a phone row. */
export const CANNOT_DELETE_VEHICLE = 'Cancele a tag antes de excluir o veículo';

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** SPEC 2 /veiculos/listar and decision 7: Placa, Status, Acao; 10 a page. */
export function VehiclesListPage() {
  usePageTitle('Veículos');
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const page = pageFrom(new URLSearchParams(location.search).get('page'));
  const [deleting, setDeleting] = useState<number | null>(null);
  const vehicles = useQuery({
    queryKey: ['veiculos', page],
    queryFn: ({ signal }) => request(api.vehicles, { query: { page }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  useEffect(() => {
    if (vehicles.isError) console.error('Falha ao carregar os veículos', vehicles.error);
  }, [vehicles.isError, vehicles.error]);

  const remove = async (row: VehicleRow) => {
    const confirmed = await confirmAction({
      title: 'Excluir veículo',
      message: `Excluir o veículo ${row.LicensePlate}${row.tag ? ' e a tag dele' : ''}? Esta ação não pode ser desfeita.`,
      confirmLabel: 'Excluir',
      danger: true,
    });
    if (!confirmed) return;
    setDeleting(row.id);
    try {
      const answer = await request(api.deleteVehicle, { body: { vehicle_id: row.id } });
      const failure = answerFailure(answer);
      if (failure) toast.error(failure, { title: messages.vehicle.deleteFailed });
      else toast.success(`O veículo ${row.LicensePlate} foi excluído.`, { title: messages.vehicle.deleted });
    } catch (error) {
      toast.error(failureMessage(error), { title: messages.vehicle.deleteFailed });
    } finally {
      setDeleting(null);
      await invalidateTagData(queryClient);
    }
  };

  const columns: DataTableColumn<VehicleRow>[] = [
    {
      key: 'placa',
      header: 'Placa',
      render: (row) => (
        <Anchor component={Link} to={`/tags/detalhes/${row.LicensePlate}`} fw={700} aria-label={`Veículo ${row.LicensePlate}: ver detalhes`}>
          {row.LicensePlate}
        </Anchor>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      width: 160,
      render: (row) => <TagStatusBadge code={row.Status} noTag={row.tag === null} />,
    },
    {
      key: 'acao',
      header: 'Acao',
      width: 220,
      render: (row) => {
        const deletable = canDeleteVehicle(row.tag?.statusCode ?? row.Status, row.tag !== null);
        return (
          <Stack gap={4}>
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash size={18} aria-hidden />}
              disabled={!deletable}
              loading={deleting === row.id}
              onClick={() => void remove(row)}
              aria-label={`Excluir veículo ${row.LicensePlate}`}
              fullWidth
            >
              Excluir
            </Button>
            {deletable ? null : (
              <Text size="xs" c="gray.7">
                {CANNOT_DELETE_VEHICLE}
              </Text>
            )}
          </Stack>
        );
      },
    },
  ];

  return (
    <Stack gap="lg">
      <ListPageHeader title="Veículos" subtitle="Seus veículos e o status da tag de cada um." addLabel="Cadastrar" addTo="/tags/adicionar" />
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <DataTable
          columns={columns}
          rows={vehicles.isError ? [] : vehicles.data?.Veiculos}
          getRowKey={(row) => row.id}
          loading={vehicles.isPending || (vehicles.isPlaceholderData && vehicles.isFetching)}
          page={page}
          totalPages={vehicles.isError ? 0 : (vehicles.data?.Paginacao.TotalPaginas ?? 0)}
          onPageChange={(next) => {
            void navigate({ search: next > 1 ? `?page=${next}` : '' });
            window.scrollTo({ top: 0 });
          }}
        />
      </Paper>
    </Stack>
  );
}
