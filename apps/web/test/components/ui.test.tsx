import { act, render, screen } from '@testing-library/react';
import { flushSync } from 'react-dom';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn } from '../../src/components/ui/DataTable';
import { DateTime } from '../../src/components/ui/DateTime';
import { deferredRender } from '../../src/components/ui/deferredRender';
import { Money } from '../../src/components/ui/Money';
import { usePageParam } from '../../src/lib/usePageParam';
import { renderWithProviders } from '../support/utils';

describe('Money', () => {
  it('writes a negative amount with the minus sign and in red', () => {
    renderWithProviders(<Money reais={-15.9} />);
    const text = screen.getByText('-R$ 15,90');
    expect(text).toHaveAttribute('data-negative', 'true');
    expect(text).toHaveStyle({ color: 'var(--mantine-color-red-9)' });
  });

  it('writes a positive amount without red; green only when asked', () => {
    renderWithProviders(
      <>
        <Money cents={123456} />
        <Money reais={10} colorPositive />
      </>,
    );
    const plain = screen.getByText('R$ 1.234,56');
    expect(plain).not.toHaveAttribute('data-negative');
    expect(plain.getAttribute('style') ?? '').not.toContain('red');
    expect(screen.getByText('R$ 10,00')).toHaveStyle({ color: 'var(--mantine-color-sign-8)' });
  });
});

describe('DateTime', () => {
  it('formats in São Paulo time as DD/MM/YYYY HH:mm:ss', () => {
    renderWithProviders(<DateTime value="2026-03-05T15:04:05Z" />);
    expect(screen.getByText('05/03/2026 12:04:05')).toBeInTheDocument();
  });
});

interface Row {
  plate: string;
  value: number;
}
const columns: DataTableColumn<Row>[] = [
  { key: 'plate', header: 'Placa', render: (r) => r.plate },
  { key: 'value', header: 'Valor', render: (r) => <Money reais={r.value} />, align: 'right' },
];

describe('DataTable', () => {
  it("shows 'Carregando...' while loading", () => {
    renderWithProviders(<DataTable columns={columns} rows={[]} getRowKey={(r) => r.plate} loading />);
    expect(screen.getByText('Carregando...')).toBeInTheDocument();
    expect(screen.queryByText('Nenhum item.')).not.toBeInTheDocument();
  });

  it("shows 'Nenhum item.' when there are no rows", () => {
    renderWithProviders(<DataTable columns={columns} rows={[]} getRowKey={(r) => r.plate} />);
    expect(screen.getByText('Nenhum item.')).toBeInTheDocument();
    expect(screen.queryByText('Carregando...')).not.toBeInTheDocument();
  });

  it('renders rows with a label per cell, row clicks and pagination from TotalPaginas', async () => {
    const onRowClick = vi.fn();
    const onPageChange = vi.fn();
    const { user } = renderWithProviders(
      <DataTable
        columns={columns}
        rows={[{ plate: 'ABC1D23', value: -5 }]}
        getRowKey={(r) => r.plate}
        onRowClick={onRowClick}
        page={1}
        totalPages={3}
        onPageChange={onPageChange}
      />,
    );
    const cell = screen.getByText('ABC1D23');
    expect(cell.closest('td')).toHaveAttribute('data-label', 'Placa');
    await user.click(cell);
    expect(onRowClick).toHaveBeenCalledWith({ plate: 'ABC1D23', value: -5 });
    await user.click(screen.getByRole('button', { name: 'Página 2' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });

  it('hides the pagination with a single page', () => {
    renderWithProviders(
      <DataTable
        columns={columns}
        rows={[{ plate: 'X', value: 1 }]}
        getRowKey={(r) => r.plate}
        totalPages={1}
        onPageChange={() => undefined}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Página 1' })).not.toBeInTheDocument();
  });
});

function PageProbe() {
  const [page, setPage] = usePageParam();
  return (
    <>
      <output aria-label="Página atual">{page}</output>
      <button type="button" onClick={() => setPage(page + 1)}>
        Próxima
      </button>
      <button type="button" onClick={() => setPage(1)}>
        Primeira
      </button>
    </>
  );
}

function renderPageProbe(url: string) {
  const router = createMemoryRouter([{ path: '/lista', Component: PageProbe }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return { router, user: userEvent.setup(), page: () => screen.getByLabelText('Página atual').textContent };
}

describe('deferredRender', () => {
  it('leaves the urgent render alone and draws the new props in a transition right after', async () => {
    const drawn: number[] = [];
    const Deferred = deferredRender(function Count({ value }: { value: number }) {
      drawn.push(value);
      return <output>{value}</output>;
    });
    const view = render(<Deferred value={1} />);
    expect(drawn).toEqual([1]);
    // An urgent update, as TanStack Query's store gives when a read answers.
    act(() => flushSync(() => view.rerender(<Deferred value={2} />)));
    expect(await screen.findByText('2')).toBeInTheDocument();
    // Never drawn again with the old value in the urgent render: 1 once, then 2.
    expect(drawn).toEqual([1, 2]);
  });
});

describe('usePageParam', () => {
  it.each([
    { name: 'absent', search: '', page: '1' },
    { name: 'a whole number', search: '?page=3', page: '3' },
    { name: 'empty', search: '?page=', page: '1' },
    { name: 'zero', search: '?page=0', page: '1' },
    { name: 'negative', search: '?page=-2', page: '1' },
    { name: 'a fraction', search: '?page=2.5', page: '1' },
    { name: 'a word', search: '?page=dois', page: '1' },
  ])('reads ?page $name ($search) as page $page', ({ search, page }) => {
    const probe = renderPageProbe(`/lista${search}`);
    expect(probe.page()).toBe(page);
  });

  it('moves to another page keeping the other parameters, from the top of the screen; page 1 leaves page out', async () => {
    const scrolled = vi.spyOn(window, 'scrollTo');
    const { router, user, page } = renderPageProbe('/lista?sort=valor&direction=asc');
    await user.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(router.state.location.search).toBe('?sort=valor&direction=asc&page=2');
    expect(page()).toBe('2');
    expect(scrolled).toHaveBeenLastCalledWith({ top: 0 });
    await user.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(router.state.location.search).toBe('?sort=valor&direction=asc&page=3');
    await user.click(screen.getByRole('button', { name: 'Primeira' }));
    expect(router.state.location.search).toBe('?sort=valor&direction=asc');
    expect(page()).toBe('1');
  });
});
