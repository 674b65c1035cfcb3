import { Pagination, Table } from '@mantine/core';
import type { KeyboardEvent, ReactNode } from 'react';
import classes from './DataTable.module.css';

export const TABLE_LOADING_TEXT = 'Carregando...';
export const TABLE_EMPTY_TEXT = 'Nenhum item.';

export interface DataTableColumn<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  align?: 'left' | 'center' | 'right';
  width?: number | string;
}

export interface DataTableProps<Row> {
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
}

/**
 * The portal's table (SPEC 2): 'Carregando...' while loading, 'Nenhum item.' when empty,
 * minimum height 222, pagination from TotalPaginas; on phones the rows are stacked cards.
 */
export function DataTable<Row>({
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
}: DataTableProps<Row>) {
  const list = rows ?? [];
  const message = loading ? TABLE_LOADING_TEXT : list.length === 0 ? emptyText : null;

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, row: Row) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRowClick?.(row);
    }
  };

  return (
    <div className={classes.wrapper}>
      <Table className={classes.table} verticalSpacing="sm" highlightOnHover={Boolean(onRowClick)} aria-busy={loading}>
        {caption ? <Table.Caption>{caption}</Table.Caption> : null}
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} ta={column.align} w={column.width}>
                {column.header}
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
                  <Table.Td key={column.key} ta={column.align} data-label={column.header}>
                    {column.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
      {totalPages > 1 && onPageChange ? (
        <Pagination
          className={classes.pagination}
          total={totalPages}
          value={Math.min(Math.max(page, 1), totalPages)}
          onChange={onPageChange}
          disabled={loading}
          size="lg"
          siblings={0}
          getItemProps={(n) => ({ 'aria-label': `Página ${n}` })}
          getControlProps={(control) => ({
            'aria-label': { first: 'Primeira página', previous: 'Página anterior', next: 'Próxima página', last: 'Última página' }[control],
          })}
        />
      ) : null}
    </div>
  );
}
