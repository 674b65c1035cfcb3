import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import type { StatementTransaction } from '@portal/contract';
import { messages } from '@portal/domain';
import { IconReceipt } from '@tabler/icons-react';
import { Link } from 'react-router';
import { DataTable, isListLoading, isListNotLoaded, type DataTableColumn } from '../../components/ui/DataTable';
import { DateTime } from '../../components/ui/DateTime';
import { Money } from '../../components/ui/Money';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { isApiError } from '../../lib/http';
import { RECEIPT_LINK_LABEL, receiptPath } from '../../lib/receipts';
import { usePageParam } from '../../lib/usePageParam';
import { useStatementPage } from './api/queries';
import { useWhoseOptions } from './api/whose';
import { PassageContest } from '../../components/ui/PassageContest';
import { StatementDescription } from '../../components/ui/StatementDescription';
import { BalanceAfter } from './BalanceAfter';
import { StatementExportButtons } from './StatementExportButtons';
import { StatementFilterBar } from './StatementFilterBar';
import { StatementTotals } from './StatementTotals';
import { useStatementFilters } from './useStatementFilters';
import { VehicleMark } from './VehicleMark';
import { WHOSE_FILTERS } from './filters';

/**
 * Decision 79: the server's refusal of the plate, cost centre or Motorista asked for (not this
 * account's: a link from another account, one removed since), said on the filter, not as a failed read.
 */
function whoseRefusalOf(error: unknown): string | null {
  if (!isApiError(error) || error.status !== 422) return null;
  for (const field of WHOSE_FILTERS) {
    const message = error.errors[field]?.[0];
    if (message) return message;
  }
  return null;
}

/** A toll passage's entry: its contest's state and 'Contestar' (decision 56). */
function Contest({ row }: { row: StatementTransaction }) {
  if (!row.passagem) return null;
  return (
    <PassageContest info={row.passagem} passage={{ praca: row.placeName, dataPassagem: row.created_at, valor: Math.abs(row.value) }} />
  );
}

/**
 * The description, under it the vehicle and cost centre of the entry (decision 79), and the way to
 * the receipt of a Pix purchase or withdrawal (issue 12), or a passage's contest (decision 56).
 */
function Description({ row }: { row: StatementTransaction }) {
  const vehicle = row.veiculo ? <VehicleMark veiculo={row.veiculo} /> : null;
  if (!row.receipt && !row.passagem && !vehicle) return <StatementDescription row={row} withAccount={false} />;
  if (!row.receipt) {
    // One above the other: beside the text, 'Contestar' would squeeze it into a sliver on a phone.
    return (
      <Stack gap={4} align="inherit">
        <StatementDescription row={row} withAccount={false} />
        {vehicle}
        <Contest row={row} />
      </Stack>
    );
  }
  return (
    <Stack gap={2} align="inherit">
      <StatementDescription row={row} withAccount={false} />
      {vehicle}
      <Anchor
        component={Link}
        to={receiptPath(row.receipt.tipo, row.receipt.id)}
        aria-label={RECEIPT_LINK_LABEL}
        size="sm"
        fw={600}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, minHeight: 32, alignSelf: 'inherit' }}
      >
        <IconReceipt size={18} aria-hidden />
        Comprovante
      </Anchor>
    </Stack>
  );
}

const columns: DataTableColumn<StatementTransaction>[] = [
  { key: 'data', header: 'Data', render: (row) => <DateTime value={row.created_at} />, width: 190 },
  { key: 'descricao', header: 'Descrição', render: (row) => <Description row={row} /> },
  {
    key: 'valor',
    header: 'Valor',
    align: 'right',
    width: 150,
    render: (row) => <Money reais={row.value} colorPositive fw={600} style={{ whiteSpace: 'nowrap' }} />,
  },
  { key: 'saldo', header: 'Saldo após', align: 'right', width: 170, render: (row) => <BalanceAfter row={row} /> },
];

/**
 * spec §2 /extrato/listar: Data, Descrição, Valor, and (issue 33) each row's account and the
 * balance of that account after it, with the period's totals per account under the rows; 10 a page; a failure shows an empty table (spec §8),
 * said at once with 'Tentar novamente' (issue 25).
 * Issue 12: period and kind filters kept in the URL, CSV and PDF exports of the same filters, and
 * the receipt of each Pix purchase or withdrawal from its row. Decision 79: one plate, cost centre or
 * Motorista too, and each row's vehicle and cost centre.
 */
export function StatementPage() {
  usePageTitle('Extrato');
  const [page, setPage] = usePageParam();
  const filters = useStatementFilters();
  const { statement, failure } = useStatementPage(page, filters.applied);
  // After the list: the list is the screen's first read.
  const whose = useWhoseOptions();
  // Filters the contract refuses ask nothing: the form says why, the table is empty. So does a
  // plate, centre or Motorista the server does not know on this account.
  const whoseRefusal = filters.applied === null ? null : whoseRefusalOf(statement.error);
  const refused = filters.applied === null || whoseRefusal !== null;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Extrato</Title>
        <Text c="dimmed">Suas movimentações de saldo, das mais recentes para as mais antigas.</Text>
      </Stack>
      <OfflineNotice updatedAt={statement.dataUpdatedAt} />
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <Stack gap="md">
          <StatementFilterBar
            form={filters.form}
            applied={filters.applied}
            onApply={filters.apply}
            whose={whose}
            whoseRefusal={whoseRefusal}
            actions={<StatementExportButtons filters={refused ? null : filters.applied} />}
          />
          <DataTable
            columns={columns}
            rows={refused ? [] : statement.data?.Transacoes}
            getRowKey={(row) => row.transactionId}
            loading={!refused && isListLoading(statement)}
            notLoaded={!refused && isListNotLoaded(statement)}
            page={page}
            totalPages={refused ? 0 : (statement.data?.Paginacao.TotalPaginas ?? 0)}
            onPageChange={setPage}
            failure={
              !refused && failure ? { message: messages.readFailed.statement, retrying: failure.retrying, onRetry: failure.retry } : null
            }
            // Under the rows and drawn with them: above, or drawn before them, the rows' arrival
            // pushed the table or the totals down (a layout shift Lighthouse counted 0.13–0.18).
            footer={!refused && statement.data && !isListLoading(statement) ? <StatementTotals totals={statement.data.Totais} /> : null}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
