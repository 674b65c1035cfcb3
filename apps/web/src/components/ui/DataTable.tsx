import { NativeSelect, Table, UnstyledButton } from '@mantine/core';
import { SORT_DIRECTIONS, type SortDirection } from '@portal/domain';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { KeyboardEvent, ReactNode } from 'react';
import classes from './DataTable.module.css';
import { ReadFailed } from './ReadFailed';
import { deferredRender } from './deferredRender';
import { ListPagination } from './ListPagination';

const TABLE_LOADING_TEXT = 'Carregando...';
const TABLE_EMPTY_TEXT = 'Nenhum item.';
/** A list never read on this phone while there is no connection: neither loading nor empty. */
export const TABLE_NOT_LOADED_TEXT = 'Sem conexão: a lista aparece aqui quando o sinal voltar.';

/**
 * A list query shows 'Carregando...' on its first load and while another page or order replaces the
 * rows shown, also while that read waits for the connection (paused): never another page's rows.
 */
export function isListLoading(query: Pick<UseQueryResult, 'isPending' | 'isPlaceholderData' | 'isFetching' | 'isPaused'>): boolean {
  return query.isPending || (query.isPlaceholderData && (query.isFetching || query.isPaused));
}

/**
 * A list never read on this phone whose read waits for the connection: not 'Carregando...' (nothing
 * is loading, and would not until the signal returns), not 'Nenhum item.' (it was never read).
 */
export function isListNotLoaded(query: Pick<UseQueryResult, 'isPending' | 'isPaused'>): boolean {
  return query.isPending && query.isPaused;
}

export interface DataTableColumn<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  align?: 'left' | 'center' | 'right';
  width?: number | string;
  /** The server can sort by this column: its header becomes a button (needs sort and onSortChange). */
  sortable?: boolean;
  /** How the phone's 'Ordenar por' names each direction, e.g. { asc: 'menor primeiro', desc: 'maior primeiro' }. */
  sortLabels?: Record<SortDirection, string>;
  /** On phones the cell spans the card without its header's label (a card's title line, its buttons). */
  unlabelledOnPhone?: boolean;
}

export interface DataTableSort {
  key: string;
  direction: SortDirection;
}

const SORT_DIRECTION_LABELS: Record<SortDirection, string> = { asc: 'crescente', desc: 'decrescente' };
const ARIA_SORT: Record<SortDirection, 'ascending' | 'descending'> = { asc: 'ascending', desc: 'descending' };

interface DataTableProps<Row> {
  columns: DataTableColumn<Row>[];
  rows: Row[] | undefined;
  getRowKey: (row: Row, index: number) => string | number;
  loading?: boolean;
  /** Pages from 1; pagination shows when totalPages > 1 (Paginacao.TotalPaginas). */
  page?: number;
  totalPages?: number;
  onPageChange?: (page: number) => void;
  onRowClick?: (row: Row) => void;
  /** Accessible name of a clickable row, e.g. 'Ver detalhes do VPO de ABC1D23'. */
  rowLabel?: (row: Row) => string;
  caption?: string;
  emptyText?: string;
  /** The order the rows came in (sorted by the server); shown with aria-sort and an arrow. */
  sort?: DataTableSort;
  /**
   * A sortable header was clicked (same column: the direction flips; another column: ascending),
   * or the phone's 'Ordenar por' select changed.
   */
  onSortChange?: (sort: DataTableSort) => void;
  /**
   * The read failed (lib/listQuery.ts useReadFailure): said above the table with 'Tentar novamente',
   * the table itself empty (spec §8), whatever rows or loading it was given.
   */
  failure?: { message: string; retrying: boolean; onRetry: () => void } | null;
  /** Never read and offline (isListNotLoaded): TABLE_NOT_LOADED_TEXT, whatever `loading` says. */
  notLoaded?: boolean;
  /**
   * What follows the rows and their pages (the statement's totals), drawn in the same pass as the
   * rows (not when the read failed: the table is empty then): drawn before them, under the loading
   * row, the rows' arrival pushed it down.
   */
  footer?: ReactNode;
}

/**
 * The portal's table (spec §2): 'Carregando...' while loading, 'Nenhum item.' when empty (also
 * when its read failed, spec §8, said above it at once with 'Tentar novamente', issue 25),
 * minimum height 222, pagination from TotalPaginas; on phones the rows are stacked cards.
 */
function DataTableView<Row>({
  columns,
  rows,
  getRowKey,
  loading = false,
  page = 1,
  totalPages = 0,
  onPageChange,
  onRowClick,
  rowLabel,
  caption,
  emptyText = TABLE_EMPTY_TEXT,
  sort,
  onSortChange,
  failure,
  notLoaded = false,
  footer = null,
}: DataTableProps<Row>) {
  const list = failure ? [] : (rows ?? []);
  const busy = loading && !failure && !notLoaded;
  const message = notLoaded && !failure ? TABLE_NOT_LOADED_TEXT : busy ? TABLE_LOADING_TEXT : list.length === 0 ? emptyText : null;

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, row: Row) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRowClick?.(row);
    }
  };

  const sortableColumns = sort && onSortChange ? columns.filter((column) => column.sortable) : [];
  const sorting = sortableColumns.length > 0;

  // Never disabled while loading: a disabled button would drop the keyboard focus; the order comes from the caller's state.
  const header = (column: DataTableColumn<Row>) => {
    if (!sorting || !column.sortable || !sort || !onSortChange) return column.header;
    const active = sort.key === column.key;
    const Arrow = !active ? IconArrowsSort : sort.direction === 'asc' ? IconArrowUp : IconArrowDown;
    return (
      <UnstyledButton
        className={classes.sortButton}
        data-active={active || undefined}
        data-align={column.align}
        onClick={() => onSortChange({ key: column.key, direction: active && sort.direction === 'asc' ? 'desc' : 'asc' })}
      >
        <span>{column.header}</span>
        <Arrow size={18} stroke={active ? 2.4 : 1.6} aria-hidden className={classes.sortIcon} />
      </UnstyledButton>
    );
  };

  return (
    <div className={classes.wrapper}>
      {sorting && sort && onSortChange ? (
        // Phones show cards without headers: one select offers each column in each direction.
        <div className={classes.mobileSort}>
          <NativeSelect
            label="Ordenar por"
            size="md"
            value={`${sort.key}:${sort.direction}`}
            data={sortableColumns.flatMap((column) =>
              SORT_DIRECTIONS.map((direction) => ({
                value: `${column.key}:${direction}`,
                label: `${column.header} (${(column.sortLabels ?? SORT_DIRECTION_LABELS)[direction]})`,
              })),
            )}
            onChange={(event) => {
              const [key = '', direction] = event.currentTarget.value.split(':');
              onSortChange({ key, direction: direction === 'asc' ? 'asc' : 'desc' });
            }}
          />
        </div>
      ) : null}
      {failure ? <ReadFailed message={failure.message} retrying={failure.retrying} onRetry={failure.onRetry} /> : null}
      <Table
        className={sorting ? `${classes.table} ${classes.sortable}` : classes.table}
        verticalSpacing="sm"
        highlightOnHover={Boolean(onRowClick)}
        aria-busy={busy}
      >
        {caption ? <Table.Caption>{caption}</Table.Caption> : null}
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th
                key={column.key}
                ta={column.align}
                w={column.width}
                aria-sort={sorting && column.sortable && sort?.key === column.key ? ARIA_SORT[sort.direction] : undefined}
              >
                {header(column)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {message !== null ? (
            <Table.Tr>
              <Table.Td colSpan={columns.length} className={`${classes.message} ${classes.full}`} role="status">
                {message}
              </Table.Td>
            </Table.Tr>
          ) : (
            list.map((row, index) => (
              <Table.Tr
                key={getRowKey(row, index)}
                className={onRowClick ? classes.clickable : undefined}
                onClick={onRowClick ? () => onRowClick(row) : undefined}
                onKeyDown={onRowClick ? (event) => onRowKeyDown(event, row) : undefined}
                tabIndex={onRowClick ? 0 : undefined}
                aria-label={onRowClick && rowLabel ? rowLabel(row) : undefined}
              >
                {columns.map((column) => (
                  <Table.Td
                    key={column.key}
                    ta={column.align}
                    data-label={column.header}
                    data-unlabelled={column.unlabelledOnPhone || undefined}
                  >
                    {column.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
      {onPageChange ? (
        <ListPagination page={page} totalPages={failure ? 0 : totalPages} onPageChange={onPageChange} disabled={loading} />
      ) : null}
      {failure ? null : footer}
    </div>
  );
}

/** Drawn in a transition when its rows or order change (deferredRender): a page of rows is no long task. */
export const DataTable = deferredRender(DataTableView) as typeof DataTableView;
