import { Paper, Stack, Text, Title } from '@mantine/core';
import { api, type StatementTransaction } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/ui/DataTable';
import { DateTime } from '../../components/ui/DateTime';
import { Money } from '../../components/ui/Money';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { request } from '../../lib/api';
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

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** SPEC 2 /extrato/listar: Data, Descrição, Valor; 10 a page; failures only logged (SPEC 8). */
export function StatementPage() {
  usePageTitle('Extrato');
  // ?page=N in the URL (useLocation/useNavigate rather than useSearchParams, already in the shared vendor chunk).
  const location = useLocation();
  const navigate = useNavigate();
  const page = pageFrom(new URLSearchParams(location.search).get('page'));
  const statement = useQuery({
    queryKey: ['extrato', page],
    queryFn: ({ signal }) => request(api.statement, { query: { page }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  useEffect(() => {
    if (statement.isError) console.error('Falha ao carregar o extrato', statement.error);
  }, [statement.isError, statement.error]);

  const rows = statement.isError ? [] : statement.data?.Transacoes;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Extrato</Title>
        <Text c="dimmed">Suas movimentações de saldo, das mais recentes para as mais antigas.</Text>
      </Stack>
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <DataTable
          columns={columns}
          rows={rows}
          getRowKey={(row) => row.transactionId}
          loading={statement.isPending || (statement.isPlaceholderData && statement.isFetching)}
          page={page}
          totalPages={statement.isError ? 0 : (statement.data?.Paginacao.TotalPaginas ?? 0)}
          onPageChange={(next) => {
            void navigate({ search: next > 1 ? `?page=${next}` : '' });
            window.scrollTo({ top: 0 });
          }}
        />
      </Paper>
    </Stack>
  );
}
