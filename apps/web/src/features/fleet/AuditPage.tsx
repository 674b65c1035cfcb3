import { Button, NativeSelect, Paper, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import type { AuditEvent, AuditFilters } from '@portal/contract';
import { actingRoleLabel, fleetRoleLabels, fleetScreens, isActingRole } from '@portal/domain';
import { IconAlertTriangle, IconCircleCheck, IconFileSpreadsheet, IconFilterOff } from '@tabler/icons-react';
import { useCallback, useId } from 'react';
import { CardList } from '../../components/ui/CardList';
import { isListLoading, isListNotLoaded } from '../../components/ui/DataTable';
import { DateTime } from '../../components/ui/DateTime';
import { DetailField, DetailList } from '../../components/ui/DetailFields';
import { ListPagination } from '../../components/ui/ListPagination';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { TintedBadge } from '../../components/ui/TintedBadge';
import { toastFailure } from '../../components/ui/toastFailure';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { useListSearch, usePageParam } from '../../lib/usePageParam';
import { useAuditExport } from './api/mutations';
import { useAuditEvents, useMembers } from './api/queries';
import { CompanyPage } from './CompanyOnly';
import classes from './FleetPages.module.css';

const t = fleetScreens.audit;

type Filters = Omit<AuditFilters, 'page'>;
const FILTER_KEYS = ['membro', 'resultado', 'desde', 'ate'] as const;

const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** ?membro=&resultado=&desde=&ate= of the address, read as the server reads them (anything else is no filter), and a setter back to page 1. */
function useFilters(): readonly [Filters, (next: Filters) => void] {
  const [params, change] = useListSearch();
  const member = Number(params.get('membro'));
  const result = params.get('resultado');
  const since = params.get('desde');
  const until = params.get('ate');
  const filters: Filters = {
    membro: Number.isInteger(member) && member > 0 ? member : undefined,
    resultado: result === 'ok' || result === 'negado' ? result : undefined,
    desde: isDay(since) ? since : undefined,
    ate: isDay(until) ? until : undefined,
  };
  const set = useCallback(
    (next: Filters) =>
      change((current) => {
        current.delete('page');
        for (const key of FILTER_KEYS) {
          const value = next[key];
          if (value) current.set(key, String(value));
          else current.delete(key);
        }
      }),
    [change],
  );
  return [filters, set] as const;
}

/** The role as it was then: 'Gestor', 'Titular'; a word the app does not know, as the server wrote it. */
const roleText = (role: string) => (isActingRole(role) ? actingRoleLabel(role) : role);

/** A before or after as compact JSON (one line that wraps inside the card), or the text as it came. */
function compactJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

function ResultBadge({ result }: { result: AuditEvent['resultado'] }) {
  const denied = result === 'negado';
  return (
    <TintedBadge
      bg={denied ? 'yellow.1' : 'sign.0'}
      c={denied ? 'dark.8' : 'sign.9'}
      Icon={denied ? IconAlertTriangle : IconCircleCheck}
      warning={denied}
      variant="filled"
      data={{ 'data-result': result }}
    >
      {t.resultLabels[result]}
    </TintedBadge>
  );
}

/** One record: the action and its result, when, who (name, document, role), from where, before and after. */
function AuditCard({ event }: { event: AuditEvent }) {
  const titleId = useId();
  const denied = event.resultado === 'negado';
  return (
    <Paper
      component="article"
      withBorder
      radius="md"
      p="sm"
      aria-labelledby={titleId}
      className={denied ? classes.denied : undefined}
      data-audit={event.id}
    >
      <Stack gap="xs">
        <div className={classes.cardHeader}>
          <Title order={2} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {event.acao}
          </Title>
          <ResultBadge result={event.resultado} />
        </div>
        {denied ? (
          <Text size="sm" fw={600} c="dark.8">
            {t.deniedNote}
          </Text>
        ) : null}
        <DetailList>
          <DetailField label={t.when}>
            <DateTime value={event.em} />
          </DetailField>
          <DetailField label={t.who}>
            {event.quem} · <span className="tabular-nums">{event.documento}</span> · {roleText(event.papel)}
          </DetailField>
          <DetailField label={t.address}>
            <span style={{ overflowWrap: 'anywhere' }}>{event.endereco}</span>
          </DetailField>
          {event.antes !== null ? (
            <DetailField label={t.before} text>
              <code className={classes.json}>{compactJson(event.antes)}</code>
            </DetailField>
          ) : null}
          {event.depois !== null ? (
            <DetailField label={t.after} text>
              <code className={classes.json}>{compactJson(event.depois)}</code>
            </DetailField>
          ) : null}
        </DetailList>
      </Stack>
    </Paper>
  );
}

/** 'Baixar CSV': the trail with the filters on screen, saved under the server's name; needs the network. */
function DownloadButton({ filters }: { filters: Filters }) {
  const online = useOnline();
  const exporter = useAuditExport();
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconFileSpreadsheet size={20} aria-hidden />}
        loading={exporter.isPending}
        disabled={!online}
        aria-describedby={online ? undefined : OFFLINE_REASON_ID}
        onClick={() => exporter.mutate({ page: 1, ...filters }, { onError: (error) => toastFailure(error) })}
      >
        {t.download}
      </Button>
      <VisuallyHidden role="status" aria-live="polite">
        {exporter.isPending ? t.downloading : ''}
      </VisuallyHidden>
    </>
  );
}

/**
 * Decision 77 /empresa/auditoria: the company's trail, newest first, 20 a page, filtered by member,
 * result and days (kept in the address), and the same as a CSV ('Baixar CSV'). Each record in São
 * Paulo time, who acted (name, document, role), the action and its result ('Negado' marked as a
 * warning, never colour alone), the address, and the before and after as compact JSON.
 */
export function AuditPage() {
  return (
    <CompanyPage title={t.title} subtitle={t.subtitle}>
      <Audit />
    </CompanyPage>
  );
}

function Audit() {
  const [page, setPage] = usePageParam();
  const [filters, setFilters] = useFilters();
  const { events, failure } = useAuditEvents({ page, ...filters });
  const { members } = useMembers();
  const loading = isListLoading(events);
  const rows = events.data?.Registros;
  const filtered = FILTER_KEYS.some((key) => filters[key] !== undefined);

  const memberOptions = [
    { value: '', label: t.allMembers },
    ...(members.data?.Membros ?? []).map((member) => ({
      value: String(member.id),
      label: `${member.nome ?? fleetScreens.members.waitingSignup} (${fleetRoleLabels[member.papel]})`,
    })),
  ];
  if (filters.membro && !memberOptions.some((option) => option.value === String(filters.membro))) {
    memberOptions.push({ value: String(filters.membro), label: `${t.member} ${filters.membro}` });
  }
  const resultOptions = [
    { value: '', label: t.allResults },
    { value: 'ok', label: t.resultLabels.ok },
    { value: 'negado', label: t.resultLabels.negado },
  ];

  return (
    <>
      <OfflineNotice updatedAt={events.dataUpdatedAt} />
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <Stack gap="md">
          <div className={classes.filters} role="group" aria-label={t.filtersLabel}>
            <NativeSelect
              label={t.member}
              size="md"
              data={memberOptions}
              value={filters.membro ? String(filters.membro) : ''}
              onChange={(event) => setFilters({ ...filters, membro: Number(event.currentTarget.value) || undefined })}
            />
            <NativeSelect
              label={t.result}
              size="md"
              data={resultOptions}
              value={filters.resultado ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setFilters({ ...filters, resultado: value === 'ok' || value === 'negado' ? value : undefined });
              }}
            />
            <TextInput
              label={t.since}
              type="date"
              size="md"
              value={filters.desde ?? ''}
              max={filters.ate}
              onChange={(event) =>
                setFilters({ ...filters, desde: isDay(event.currentTarget.value) ? event.currentTarget.value : undefined })
              }
            />
            <TextInput
              label={t.until}
              type="date"
              size="md"
              value={filters.ate ?? ''}
              min={filters.desde}
              onChange={(event) =>
                setFilters({ ...filters, ate: isDay(event.currentTarget.value) ? event.currentTarget.value : undefined })
              }
            />
          </div>
          <div className={classes.filterActions}>
            <DownloadButton filters={filters} />
            {filtered ? (
              <Button variant="default" leftSection={<IconFilterOff size={20} aria-hidden />} onClick={() => setFilters({})}>
                {t.clear}
              </Button>
            ) : null}
          </div>
          <CardList
            rows={rows}
            notLoaded={isListNotLoaded(events)}
            loading={loading}
            failure={failure}
            failedText={t.failed}
            emptyText={filtered ? t.emptyFiltered : t.empty}
            cardHeight={160}
          >
            {(shown) => (
              <Stack gap="sm">
                {shown.map((event) => (
                  <AuditCard key={event.id} event={event} />
                ))}
              </Stack>
            )}
          </CardList>
          <ListPagination
            page={page}
            totalPages={failure ? 0 : (events.data?.Paginacao.TotalPaginas ?? 0)}
            onPageChange={setPage}
            disabled={loading}
          />
        </Stack>
      </Paper>
    </>
  );
}
