import { Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ReadFailure } from '../../lib/listQuery';
import { TABLE_NOT_LOADED_TEXT } from './DataTable';
import { ReadFailed } from './ReadFailed';

/** Three cards' shapes while a list of cards loads (as tall as its cards), announced as loading. */
export function CardsLoading({ height, label = 'Carregando' }: { height: number; label?: string }) {
  return (
    <Stack gap="sm" role="status" aria-busy aria-label={label}>
      {[0, 1, 2].map((n) => (
        <Skeleton key={n} height={height} radius="md" />
      ))}
    </Stack>
  );
}

interface CardListProps<Row> {
  rows: readonly Row[] | undefined;
  /** Never read on this phone and offline (DataTable's isListNotLoaded): neither loading nor empty. */
  notLoaded: boolean;
  /** The first read, or another page replacing the rows shown (DataTable's isListLoading). */
  loading: boolean;
  /** The read failed (lib/listQuery.ts useReadFailure): `failedText` with 'Tentar novamente', never with old rows. */
  failure: ReadFailure | null;
  failedText: string;
  emptyText: ReactNode;
  /** How tall a card is, for the loading shapes. */
  cardHeight: number;
  loadingLabel?: string;
  /** The cards of the rows (at least one). */
  children: (rows: readonly Row[]) => ReactNode;
}

/**
 * A list drawn as cards (the company's vehicles, its trail, its cost centres): as DataTable says its
 * states, in one live region: not loaded offline, failed, loading, empty, or the cards.
 */
export function CardList<Row>({
  rows,
  notLoaded,
  loading,
  failure,
  failedText,
  emptyText,
  cardHeight,
  loadingLabel,
  children,
}: CardListProps<Row>) {
  let body: ReactNode;
  if (notLoaded) {
    body = (
      <Text c="gray.7" ta="center" py="xl" role="status">
        {TABLE_NOT_LOADED_TEXT}
      </Text>
    );
  } else if (failure) body = <ReadFailed message={failedText} retrying={failure.retrying} onRetry={failure.retry} />;
  else if (loading || !rows) body = <CardsLoading height={cardHeight} label={loadingLabel} />;
  else if (rows.length === 0) {
    body = (
      <Text c="gray.7" ta="center" py="xl" role="status">
        {emptyText}
      </Text>
    );
  } else body = children(rows);
  return (
    <div aria-live="polite" aria-busy={loading}>
      {body}
    </div>
  );
}
