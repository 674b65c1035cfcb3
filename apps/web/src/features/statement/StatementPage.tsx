import { Paper, Stack, Text, Title } from '@mantine/core';
import type { StatementTransaction } from '@portal/contract';
import { DataTable, isListLoading, type DataTableColumn } from '../../components/ui/DataTable';
import { DateTime } from '../../components/ui/DateTime';
import { Money } from '../../components/ui/Money';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { usePageParam } from '../../lib/usePageParam';
import { useStatementPage } from './api/queries';
import { StatementDescription } from './StatementDescription';

const columns: DataTableColumn<StatementTransaction>[] = [
  { key: 'data', header: 'Data', render: (row) => <DateTime value={row.created_at} />, width: 190 },
  { key: 'descricao', header: 'Descrição', render: (row) => <StatementDescription row={row} /> },
  {
    key: 'valor',
    header: 'Valor',
    align: 'right',
    width: 150,
    render: (row) => <Money reais={row.value} colorPositive fw={600} style={{ whiteSpace: 'nowrap' }} />,
  },
];

/** SPEC 2 /extrato/listar: Data, Descrição, Valor; 10 a page; a failure shows an empty table (SPEC 8). */
export function StatementPage() {
  usePageTitle('Extrato');
  const [page, setPage] = usePageParam();
  const statement = useStatementPage(page);
  const failed = statement.isError;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Extrato</Title>
        <Text c="dimmed">Suas movimentações de saldo, das mais recentes para as mais antigas.</Text>
      </Stack>
      <OfflineNotice updatedAt={statement.dataUpdatedAt} actions={false} />
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <DataTable
          columns={columns}
          rows={failed ? [] : statement.data?.Transacoes}
          getRowKey={(row) => row.transactionId}
          loading={isListLoading(statement)}
          page={page}
          totalPages={failed ? 0 : (statement.data?.Paginacao.TotalPaginas ?? 0)}
          onPageChange={setPage}
        />
      </Paper>
    </Stack>
  );
}
