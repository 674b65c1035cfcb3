import { Paper, Stack } from '@mantine/core';
import type { VehiclePassage } from '@portal/contract';
import { fleetScreens } from '@portal/domain';
import { CardList } from '../../components/ui/CardList';
import { ContestStateBadge } from '../../components/ui/ContestBadge';
import { isListLoading, isListNotLoaded } from '../../components/ui/DataTable';
import { DateTime } from '../../components/ui/DateTime';
import { ListPageHeader } from '../../components/ui/ListPageHeader';
import { ListPagination } from '../../components/ui/ListPagination';
import { Money } from '../../components/ui/Money';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { PassageCard, PlateText } from '../../components/ui/PassageCard';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { usePageParam } from '../../lib/usePageParam';
import { useVehiclePassages } from './api/queries';

const t = fleetScreens.passages;

/** One passage: the place, when, the plate and the value; its contest's state when one was opened. */
function PassageRow({ passage }: { passage: VehiclePassage }) {
  return (
    <PassageCard
      title={passage.praca}
      badges={passage.contestacao ? <ContestStateBadge estado={passage.contestacao} atrasada={false} /> : null}
      passage={
        <>
          <DateTime value={passage.em} />
          <PlateText label={t.plate} plate={passage.placa} />
          <Money reais={passage.valor} fw={700} size="md" style={{ whiteSpace: 'nowrap', color: 'var(--mantine-color-dark-9)' }} />
        </>
      }
      marks={{ 'data-passage': passage.id }}
    >
      {null}
    </PassageCard>
  );
}

/**
 * Decision 77 /veiculos/passagens, linked from a Motorista's dashboard: the toll passages of the
 * vehicles they drive (the server gives a Motorista only those of the vehicles assigned to them;
 * anyone else, the account's), newest first, 20 a page. Kept on the phone; nothing here needs the
 * network but reading it again.
 */
export function PassagesPage() {
  usePageTitle(t.title);
  const [page, setPage] = usePageParam();
  const { passages, failure } = useVehiclePassages(page);
  const loading = isListLoading(passages);
  return (
    <Stack gap="lg">
      <ListPageHeader title={t.title} subtitle={t.subtitle} />
      <OfflineNotice updatedAt={passages.dataUpdatedAt} actions={false} />
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <Stack gap="md">
          <CardList
            rows={passages.data?.Passagens}
            notLoaded={isListNotLoaded(passages)}
            loading={loading}
            failure={failure}
            failedText={t.failed}
            emptyText={t.empty}
            cardHeight={96}
            loadingLabel={t.loading}
          >
            {(shown) => (
              <Stack gap="sm">
                {shown.map((passage) => (
                  <PassageRow key={passage.id} passage={passage} />
                ))}
              </Stack>
            )}
          </CardList>
          <ListPagination
            page={page}
            totalPages={failure ? 0 : (passages.data?.Paginacao.TotalPaginas ?? 0)}
            onPageChange={setPage}
            disabled={loading}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
