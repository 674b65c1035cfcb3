import { Pagination } from '@mantine/core';
import classes from './ListPagination.module.css';

interface ListPaginationProps {
  /** From 1. */
  page: number;
  /** Paginacao.TotalPaginas: nothing is drawn for one page or none. */
  totalPages: number;
  onPageChange: (page: number) => void;
  disabled?: boolean;
}

/** A list's pages (DataTable's, the contests'): large targets, Portuguese names, one 360 px row. */
export function ListPagination({ page, totalPages, onPageChange, disabled = false }: ListPaginationProps) {
  if (totalPages <= 1) return null;
  return (
    <Pagination
      className={classes.pagination}
      total={totalPages}
      value={Math.min(Math.max(page, 1), totalPages)}
      onChange={onPageChange}
      disabled={disabled}
      size="lg"
      siblings={0}
      getItemProps={(n) => ({ 'aria-label': `Página ${n}` })}
      getControlProps={(control) => ({
        'aria-label': { first: 'Primeira página', previous: 'Página anterior', next: 'Próxima página', last: 'Última página' }[control],
      })}
    />
  );
}
