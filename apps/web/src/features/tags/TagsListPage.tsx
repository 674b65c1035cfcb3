import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { api, type TagRow } from '@portal/contract';
import { canRemove, formatSerial, messages } from '@portal/domain';
import { IconPencil, IconTrash } from '@tabler/icons-react';
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
import { answerFailure, failureMessage, invalidateTagData, operatorNameOf, useOperators } from '../../lib/tags';

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** SPEC 2 /tags/listar: Tag, Operadora, Acao; 10 a page; failures only logged (SPEC 8). */
export function TagsListPage() {
  usePageTitle('Tags');
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const page = pageFrom(new URLSearchParams(location.search).get('page'));
  const operators = useOperators();
  const [removing, setRemoving] = useState<string | null>(null);
  const tags = useQuery({
    queryKey: ['tags', page],
    queryFn: ({ signal }) => request(api.tags, { query: { page }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  useEffect(() => {
    if (tags.isError) console.error('Falha ao carregar as tags', tags.error);
  }, [tags.isError, tags.error]);

  const remove = async (row: TagRow) => {
    const serial = formatSerial(row.serialNumber);
    const confirmed = await confirmAction({
      title: 'Excluir tag',
      message: `Excluir a tag ${serial} do veículo ${row.vehicle.LicensePlate}? Esta ação não pode ser desfeita.`,
      confirmLabel: 'Excluir',
      danger: true,
    });
    if (!confirmed) return;
    setRemoving(row.serialNumber);
    try {
      const answer = await request(api.removeTag, { body: { serialNumber: row.serialNumber } });
      const failure = answerFailure(answer);
      if (failure) toast.error(failure, { title: messages.tag.removeFailed });
      else toast.success(`A tag ${serial} foi excluída.`, { title: messages.tag.removed });
    } catch (error) {
      toast.error(failureMessage(error), { title: messages.tag.removeFailed });
    } finally {
      setRemoving(null);
      await invalidateTagData(queryClient);
    }
  };

  const columns: DataTableColumn<TagRow>[] = [
    {
      key: 'tag',
      header: 'Tag',
      render: (row) => (
        <Group gap="xs" wrap="wrap" align="center">
          <Anchor
            component={Link}
            to={`/tags/detalhes/${row.vehicle.LicensePlate}`}
            fw={700}
            className="tabular-nums"
            style={{ whiteSpace: 'nowrap' }}
            aria-label={`Tag ${formatSerial(row.serialNumber)}, veículo ${row.vehicle.LicensePlate}: ver detalhes`}
          >
            {formatSerial(row.serialNumber)}
          </Anchor>
          <TagStatusBadge code={row.statusCode} />
          <Text size="sm" c="dimmed" w="100%">
            Placa {row.vehicle.LicensePlate}
          </Text>
        </Group>
      ),
    },
    {
      key: 'operadora',
      header: 'Operadora',
      width: 160,
      render: (row) => operatorNameOf(operators.data?.Operadoras, row.Operadora) ?? (operators.isPending ? '...' : 'Desconhecida'),
    },
    {
      key: 'acao',
      header: 'Acao',
      width: 290,
      render: (row) => {
        const removable = canRemove(row.statusCode);
        return (
          <Stack gap={4}>
            <Group gap="xs" wrap="wrap" justify="flex-end">
              <Button
                component={Link}
                to={`/tags/editar/${row.vehicle.LicensePlate}`}
                state={{ vehicle: { LicensePlate: row.vehicle.LicensePlate }, tag: row }}
                variant="light"
                leftSection={<IconPencil size={18} aria-hidden />}
                aria-label={`Editar tag do veículo ${row.vehicle.LicensePlate}`}
              >
                Editar
              </Button>
              <Button
                variant="light"
                color="red"
                leftSection={<IconTrash size={18} aria-hidden />}
                disabled={!removable}
                loading={removing === row.serialNumber}
                onClick={() => void remove(row)}
                aria-label={`Excluir tag do veículo ${row.vehicle.LicensePlate}`}
              >
                Excluir
              </Button>
            </Group>
            {removable ? null : (
              <Text size="xs" c="gray.7">
                {messages.tag.cannotRemove}
              </Text>
            )}
          </Stack>
        );
      },
    },
  ];

  return (
    <Stack gap="lg">
      <ListPageHeader title="Tags" subtitle="As tags dos seus veículos. Toque numa tag para ver e gerenciar." addLabel="Cadastrar Tag" addTo="/tags/adicionar" />
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <DataTable
          columns={columns}
          rows={tags.isError ? [] : tags.data?.Tags}
          getRowKey={(row) => row.serialNumber}
          loading={tags.isPending || (tags.isPlaceholderData && tags.isFetching)}
          page={page}
          totalPages={tags.isError ? 0 : (tags.data?.Paginacao.TotalPaginas ?? 0)}
          onPageChange={(next) => {
            void navigate({ search: next > 1 ? `?page=${next}` : '' });
            window.scrollTo({ top: 0 });
          }}
        />
      </Paper>
    </Stack>
  );
}
