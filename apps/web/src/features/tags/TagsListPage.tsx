import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { api, type Operator, type TagRow } from '@portal/contract';
import { canRemove, formatSerial, messages, tagActionBlocker } from '@portal/domain';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { confirmAction } from '../../components/ui/confirm';
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
import { useRemoveTag } from './api/mutations';
import { useOperators, useTagsPage } from './api/queries';
import { operatorNameOf } from './catalog';

/**
 * spec §2 /tags/listar: Tag, Operadora, Ação (founding decision 19's accents); 10 a page; a failure
 * empties the table (spec §8) and is said at once with 'Tentar novamente' (issue 25). On a phone each row is a card: plate and status first, then serial and operator, then
 * the buttons side by side. Editar is offered only where the server allows it (spec §4 'Edit').
 */
export function TagsListPage() {
  usePageTitle('Tags');
  const [page, setPage] = usePageParam();
  const { tags, failure } = useTagsPage(page);
  const operators = useOperators();
  const online = useOnline();
  // Decision 77: a role that may not change tags (a Motorista, a Financeiro) sees them, without the buttons.
  const changes = useMayCall(api.registerTag, api.updateVehicle, api.removeTag);
  const operatorsList = operators.data?.Operadoras;
  const operatorName = (row: TagRow) => operatorNameOf(operatorsList, row.Operadora);

  const columns: DataTableColumn<TagRow>[] = [
    {
      key: 'tag',
      header: 'Tag',
      unlabelledOnPhone: true,
      render: (row) => <TagSummary row={row} />,
    },
    {
      key: 'operadora',
      header: 'Operadora',
      width: 160,
      render: (row) => operatorName(row) ?? (operators.isPending ? '...' : 'Desconhecida'),
    },
  ];
  if (changes) {
    columns.push({
      key: 'acao',
      header: 'Ação',
      // Editar and Excluir side by side, each with its icon: at 280 px 'Excluir' was cut.
      width: 320,
      unlabelledOnPhone: true,
      render: (row) => <TagRowActions row={row} operators={operatorsList} online={online} />,
    });
  }

  return (
    <Stack gap="lg">
      <ListPageHeader
        title="Tags"
        subtitle="As tags dos seus veículos. Toque numa placa para ver e gerenciar a tag."
        addLabel={changes ? 'Cadastrar Tag' : undefined}
        addTo={changes ? '/tags/adicionar' : undefined}
        offline={!online}
      />
      <OfflineNotice updatedAt={tags.dataUpdatedAt} />
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <DataTable
          columns={columns}
          rows={tags.data?.Tags}
          getRowKey={(row) => row.serialNumber}
          loading={isListLoading(tags)}
          notLoaded={isListNotLoaded(tags)}
          page={page}
          totalPages={tags.data?.Paginacao.TotalPaginas ?? 0}
          onPageChange={setPage}
          failure={failure && { message: messages.readFailed.tags, retrying: failure.retrying, onRetry: failure.retry }}
        />
      </Paper>
    </Stack>
  );
}

/** Plate and status on the first line (what a driver looks for), the serial below. */
function TagSummary({ row }: { row: TagRow }) {
  const serial = formatSerial(row.serialNumber);
  const plate = row.vehicle.LicensePlate;
  return (
    <Stack gap={2}>
      <Group gap="sm" wrap="nowrap">
        <Anchor
          component={Link}
          to={`/tags/detalhes/${plate}`}
          fw={700}
          size="lg"
          aria-label={`Tag ${serial}, veículo ${plate}: ver detalhes`}
        >
          {plate}
        </Anchor>
        <TagStatusBadge code={row.statusCode} />
      </Group>
      <Text size="sm" c="gray.7" className="tabular-nums" style={{ whiteSpace: 'nowrap' }}>
        Tag {serial}
      </Text>
    </Stack>
  );
}

/**
 * spec §2: edit and delete; Editar only when the tag can be edited, Excluir disabled with its reason.
 * With no connection both are disabled, pointing at the screen's OfflineNotice (founding decision 22).
 */
function TagRowActions({ row, operators, online }: { row: TagRow; operators: readonly Operator[] | undefined; online: boolean }) {
  const remove = useRemoveTag();
  const plate = row.vehicle.LicensePlate;
  const serial = formatSerial(row.serialNumber);
  const editable = tagActionBlocker('edit', { ...row, operatorName: operatorNameOf(operators, row.Operadora) }) === null;
  const removable = canRemove(row.statusCode);
  const reasonId = `motivo-excluir-${row.serialNumber}`;

  const onRemove = async () => {
    const confirmed = await confirmAction({
      title: 'Excluir tag',
      message: `Excluir a tag ${serial} do veículo ${plate}? Esta ação não pode ser desfeita.`,
      confirmLabel: 'Excluir',
      danger: true,
    });
    if (!confirmed) return;
    remove.mutate(row.serialNumber, {
      onSuccess: () => toast.success(`A tag ${serial} foi excluída.`, { title: messages.tag.removed }),
      onError: (error) => toastFailure(error, messages.tag.removeFailed),
    });
  };

  return (
    <Stack gap={4}>
      <Group gap="xs" grow wrap="nowrap">
        {editable && !online ? (
          <Button
            variant="light"
            leftSection={<IconPencil size={18} aria-hidden />}
            disabled
            aria-label={`Editar tag do veículo ${plate}`}
            aria-describedby={OFFLINE_REASON_ID}
          >
            Editar
          </Button>
        ) : null}
        {editable && online ? (
          <Button
            component={Link}
            to={`/tags/editar/${plate}`}
            state={{ vehicle: { LicensePlate: plate }, tag: row }}
            variant="light"
            leftSection={<IconPencil size={18} aria-hidden />}
            aria-label={`Editar tag do veículo ${plate}`}
          >
            Editar
          </Button>
        ) : null}
        <Button
          variant="light"
          color="red"
          leftSection={<IconTrash size={18} aria-hidden />}
          disabled={!removable || !online}
          loading={remove.isPending}
          onClick={() => void onRemove()}
          aria-label={`Excluir tag do veículo ${plate}`}
          aria-describedby={!removable ? reasonId : online ? undefined : OFFLINE_REASON_ID}
        >
          Excluir
        </Button>
      </Group>
      {removable ? null : (
        <Text size="xs" c="gray.7" id={reasonId}>
          {messages.tag.cannotRemove}
        </Text>
      )}
    </Stack>
  );
}
