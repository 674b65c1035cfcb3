import { Alert, Button, Group, NativeSelect, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { api, type FreeFlowSummary, type FreeFlowTollsQuery } from '@portal/contract';
import { FREE_FLOW_STATES, freeFlowStateLabels, isValidPlate, normalizePlate, type FreeFlowState } from '@portal/domain';
import { IconRoad, IconSettings, IconTruck } from '@tabler/icons-react';
import { useCallback, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CardsLoading } from '../../components/ui/CardList';
import { isListLoading, isListNotLoaded, TABLE_NOT_LOADED_TEXT } from '../../components/ui/DataTable';
import { ListPagination } from '../../components/ui/ListPagination';
import { Money } from '../../components/ui/Money';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { readableAlert } from '../../components/ui/readableAlert';
import { ReadFailed } from '../../components/ui/ReadFailed';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { mayCall, useActing } from '../../lib/actingAccount';
import { dueDayText, freeFlowTexts as t } from '../../lib/freeFlowTexts';
import { useListSearch, usePageParam } from '../../lib/usePageParam';
import { useFreeFlowPage, useFreeFlowPlates } from './api/queries';
import classes from './FreeFlowPage.module.css';
import { TollCard } from './TollCard';

type Filters = Pick<FreeFlowTollsQuery, 'placa' | 'estado'>;

/** ?placa=&estado= of the address, read as the server reads them (anything else is no filter), and a setter back to page 1. */
function useFilters(): readonly [Filters, (next: Filters) => void] {
  const [params, change] = useListSearch();
  const rawPlate = normalizePlate(params.get('placa') ?? '');
  const placa = rawPlate && isValidPlate(rawPlate) ? rawPlate : undefined;
  const estado = FREE_FLOW_STATES.find((state) => state === params.get('estado'));
  const set = useCallback(
    (next: Filters) =>
      change((current) => {
        current.delete('page');
        for (const key of ['placa', 'estado'] as const) {
          const value = next[key];
          if (value) current.set(key, value);
          else current.delete(key);
        }
      }),
    [change],
  );
  return [{ placa, estado }, set] as const;
}

/** What is owed now: the value, how many open and overdue, the nearest deadline (skeletons until it arrives). */
function Summary({ summary }: { summary: FreeFlowSummary | undefined }) {
  const value = (node: ReactNode) => (summary ? node : <Skeleton height={22} width={120} radius="sm" />);
  return (
    <Paper withBorder shadow="xs" p={{ base: 'sm', sm: 'md' }} radius="lg" component="section" aria-label={t.summaryLabel}>
      <dl className={classes.summary} aria-busy={!summary}>
        <div>
          <dt>{t.owed}</dt>
          <dd>
            {value(
              summary && (
                <Stack gap={0}>
                  <Money reais={summary.valorEmAberto} size="xl" fw={800} />
                  <Text component="span" size="sm" fw={600} c="gray.8">
                    {t.openCount(summary.emAberto)}
                  </Text>
                </Stack>
              ),
            )}
          </dd>
        </div>
        <div>
          <dt>{freeFlowStateLabels.VENCIDO}</dt>
          <dd data-overdue-count>
            {value(
              summary && (
                <Text component="span" inherit c={summary.vencidos > 0 ? 'red.9' : undefined}>
                  {t.overdueCount(summary.vencidos)}
                </Text>
              ),
            )}
          </dd>
        </div>
        <div>
          <dt>{t.nearestDue}</dt>
          <dd className="tabular-nums">
            {value(summary && (summary.proximoVencimento ? dueDayText(summary.proximoVencimento) : t.nothingOwed))}
          </dd>
        </div>
      </dl>
      {summary && summary.sinalizados > 0 ? (
        <Text size="sm" fw={600} c="red.9" mt="xs">
          {t.flaggedCount(summary.sinalizados)}
        </Text>
      ) : null}
    </Paper>
  );
}

/** No plate opted in: what the screen is for and where to turn it on. */
function TurnedOff() {
  // Decision 77: only a role that may turn it on is sent to do it.
  const { role } = useActing();
  const mayTurnOn = mayCall(role, api.setFreeFlowPlates);
  return (
    <Alert
      color="road"
      variant="light"
      radius="md"
      icon={<IconRoad aria-hidden />}
      title={mayTurnOn ? t.offTitle : t.offTitleMember}
      styles={readableAlert}
      data-off
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm" c="dark.7">
          {mayTurnOn ? t.offBody : t.offBodyMember}
        </Text>
        {mayTurnOn ? (
          <Group gap="xs">
            <Button component={Link} to="/veiculos/listar" size="md" leftSection={<IconTruck size={20} aria-hidden />}>
              {t.offVehicles}
            </Button>
            <Button
              component={Link}
              to="/configuracoes#pedagio-sem-cancela"
              size="md"
              variant="light"
              leftSection={<IconSettings size={20} aria-hidden />}
            >
              {t.offSettings}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}

/**
 * Decision 76 /livre-passagem, 'Pedágios sem cancela': the tolls the concessionaires sent for the
 * plates the driver opted in, 10 a page, newest first, filtered by plate and state, with the Resumo
 * of what is owed; each paid from Saldo, contested, or its receipt and proof downloaded. Failures and
 * offline as the other lists: said at once with 'Tentar novamente' (issue 25), the last page seen
 * kept on the phone, the list never read here offline neither loading nor empty (decision 64).
 */
export function FreeFlowPage() {
  usePageTitle(t.title);
  const [page, setPage] = usePageParam();
  const [filters, setFilters] = useFilters();
  const { tolls, failure } = useFreeFlowPage({ page, ...filters });
  const plates = useFreeFlowPlates();
  const loading = isListLoading(tolls);
  const rows = tolls.data?.Debitos;
  const summary = failure ? undefined : tolls.data?.Resumo;
  const off = summary?.placasAtivas === 0 && !loading;
  const filtered = Boolean(filters.placa || filters.estado);

  let body: ReactNode;
  if (isListNotLoaded(tolls)) {
    body = (
      <Text c="gray.7" ta="center" py="xl" role="status">
        {TABLE_NOT_LOADED_TEXT}
      </Text>
    );
  } else if (failure) body = <ReadFailed message={t.failed} retrying={failure.retrying} onRetry={failure.retry} />;
  else if (loading || !rows) body = <CardsLoading height={180} label={t.loading} />;
  else if (rows.length === 0) {
    body =
      off && !filtered ? null : (
        <Text c="gray.7" ta="center" py="xl" role="status">
          {filtered ? t.emptyFiltered : t.empty}
        </Text>
      );
  } else {
    body = (
      <Stack gap="sm">
        {rows.map((toll) => (
          <TollCard key={toll.id} toll={toll} />
        ))}
      </Stack>
    );
  }

  const plateOptions = [
    { value: '', label: t.allPlates },
    ...(plates.data?.Placas ?? []).map((plate) => ({ value: plate.placa, label: plate.placa })),
  ];
  if (filters.placa && !plateOptions.some((option) => option.value === filters.placa)) {
    plateOptions.push({ value: filters.placa, label: filters.placa });
  }
  const stateOptions = [
    { value: '', label: t.allStates },
    ...FREE_FLOW_STATES.map((value) => ({ value, label: freeFlowStateLabels[value] })),
  ];

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t.title}</Title>
        <Text c="dimmed">{t.subtitle}</Text>
      </Stack>
      <OfflineNotice updatedAt={tolls.dataUpdatedAt} />
      {off ? <TurnedOff /> : null}
      <Summary summary={summary} />
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <Stack gap="md">
          <div className={classes.filters}>
            <NativeSelect
              label={t.filterPlate}
              size="md"
              data={plateOptions}
              value={filters.placa ?? ''}
              onChange={(event) => setFilters({ ...filters, placa: event.currentTarget.value || undefined })}
            />
            <NativeSelect
              label={t.filterState}
              size="md"
              data={stateOptions}
              value={filters.estado ?? ''}
              onChange={(event) =>
                setFilters({
                  ...filters,
                  estado: FREE_FLOW_STATES.find((state): state is FreeFlowState => state === event.currentTarget.value),
                })
              }
            />
          </div>
          <div aria-live="polite" aria-busy={loading}>
            {body}
          </div>
          <ListPagination
            page={page}
            totalPages={failure ? 0 : (tolls.data?.Paginacao.TotalPaginas ?? 0)}
            onPageChange={setPage}
            disabled={loading}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
