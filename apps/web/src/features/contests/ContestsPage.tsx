import { Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import type { DriverContest } from '@portal/contract';
import {
  CONTEST_STATES,
  contestReasonLabels,
  contestStateLabels,
  type ContestState,
  contestTexts,
  refundDestinationLabel,
} from '@portal/domain';
import { IconCash, IconClockExclamation, IconDownload, IconListDetails, IconMessageReport } from '@tabler/icons-react';
import { useCallback, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ContestStateBadge } from '../../components/ui/ContestBadge';
import { CardsLoading } from '../../components/ui/CardList';
import { isListLoading } from '../../components/ui/DataTable';
import { DateTime } from '../../components/ui/DateTime';
import { ListPagination } from '../../components/ui/ListPagination';
import { ReadFailed } from '../../components/ui/ReadFailed';
import { Money } from '../../components/ui/Money';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { toastFailure } from '../../components/ui/toastFailure';
import { usePageTitle } from '../../components/ui/usePageTitle';
import type { ReadFailure } from '../../lib/listQuery';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { useListSearch, usePageParam } from '../../lib/usePageParam';
import { useContestPdf, useContestsPage } from './api/queries';
import { DetailField, DetailList } from '../../components/ui/DetailFields';
import { PassageCard, PlateText } from '../../components/ui/PassageCard';
import classes from './ContestsPage.module.css';

const texts = {
  title: 'Contestações',
  subtitle: 'As passagens que você contestou e a resposta da operadora, das mais recentes para as mais antigas.',
  filter: 'Estado',
  all: 'Todas',
  loading: 'Carregando as contestações...',
  failed: 'Não foi possível carregar as contestações.',
  retry: 'Tentar novamente',
  empty: 'Você ainda não contestou nenhuma passagem.',
  howTo: 'Para contestar uma passagem, abra o Extrato e toque em Contestar.',
  openStatement: 'Abrir o extrato',
  emptyState: (state: string) => `Nenhuma contestação com o estado “${state}”.`,
  plate: 'Placa',
  reason: 'Motivo',
  description: 'Sua descrição',
  openedAt: 'Aberta em',
  dueAt: 'Responder até',
  overdueWas: 'O prazo era',
  answeredAt: 'Respondida em',
  answer: 'Resposta da operadora',
  refunded: 'Valor devolvido',
  pdf: 'Baixar registro (PDF)',
  pdfName: (place: string) => `Baixar registro (PDF) da contestação da passagem por ${place}`,
} as const;

const stateOptions = [{ value: '', label: texts.all }, ...CONTEST_STATES.map((value) => ({ value, label: contestStateLabels[value] }))];

/** ?estado= of the address (null: every state) and a setter that goes back to page 1. */
function useStateParam(): readonly [ContestState | null, (state: ContestState | null) => void] {
  const [params, change] = useListSearch();
  const raw = params.get('estado');
  const estado = CONTEST_STATES.find((state) => state === raw) ?? null;
  const setEstado = useCallback(
    (next: ContestState | null) =>
      change((current) => {
        current.delete('page');
        if (next) current.set('estado', next);
        else current.delete('estado');
      }),
    [change],
  );
  return [estado, setEstado] as const;
}

/** 'Baixar registro (PDF)': saved under the server's name; needs the network (disabled offline, saying why). */
function PdfButton({ contest }: { contest: DriverContest }) {
  const online = useOnline();
  const pdf = useContestPdf();
  return (
    <Button
      className={classes.pdf}
      variant="light"
      size="md"
      leftSection={<IconDownload size={20} aria-hidden />}
      loading={pdf.isPending}
      disabled={!online}
      aria-describedby={online ? undefined : OFFLINE_REASON_ID}
      aria-label={texts.pdfName(contest.passagem.praca)}
      onClick={() => pdf.mutate(contest.id, { onError: (error) => toastFailure(error) })}
    >
      {texts.pdf}
    </Button>
  );
}

/** One contest: the passage, the reason, the dates, the operator's answer and the record. */
function ContestCard({ contest }: { contest: DriverContest }) {
  const { passagem } = contest;
  const open = contest.estado === 'ABERTA';
  return (
    <PassageCard
      title={passagem.praca}
      badges={<ContestStateBadge estado={contest.estado} atrasada={contest.atrasada} />}
      passage={
        <>
          <DateTime value={passagem.dataPassagem} />
          {passagem.placa ? <PlateText label={texts.plate} plate={passagem.placa} /> : null}
          <Money reais={passagem.valor} fw={700} size="md" style={{ whiteSpace: 'nowrap', color: 'var(--mantine-color-dark-9)' }} />
        </>
      }
      marks={{ 'data-contest': contest.id, 'data-estado': contest.estado }}
    >
      <DetailList>
        <DetailField label={texts.reason} text={Boolean(contest.descricao)}>
          <Text component="span" inherit fw={600}>
            {contestReasonLabels[contest.motivo]}
          </Text>
          {contest.descricao ? (
            <Text component="span" display="block" size="sm" c="gray.8" mt={2}>
              “{contest.descricao}”
            </Text>
          ) : null}
        </DetailField>
        <DetailField label={texts.openedAt}>
          <DateTime value={contest.abertaEm} />
        </DetailField>
        {open && contest.atrasada ? (
          <DetailField
            tone="danger"
            label={
              <>
                <IconClockExclamation size={18} aria-hidden />
                {contestTexts.overdue}
              </>
            }
          >
            {texts.overdueWas} <DateTime value={contest.prazoResposta} />
          </DetailField>
        ) : null}
        {open && !contest.atrasada ? (
          <DetailField label={texts.dueAt}>
            <DateTime value={contest.prazoResposta} />
          </DetailField>
        ) : null}
        {contest.respondidaEm ? (
          <DetailField label={texts.answeredAt}>
            <DateTime value={contest.respondidaEm} />
          </DetailField>
        ) : null}
        {contest.resposta ? (
          <DetailField label={texts.answer} text>
            {contest.resposta}
          </DetailField>
        ) : null}
        {contest.estado === 'ACEITA' && contest.valorDevolvido !== null ? (
          <DetailField
            tone="success"
            label={
              <>
                <IconCash size={18} aria-hidden color="var(--mantine-color-sign-8)" />
                {texts.refunded}
              </>
            }
          >
            <Money reais={contest.valorDevolvido} />
            <RefundParts contest={contest} />
          </DetailField>
        ) : null}
      </DetailList>
      <PdfButton contest={contest} />
    </PassageCard>
  );
}

/**
 * Issue 33: where the refund went, each part with its value ('Devolvido ao seu saldo: R$ 10,00',
 * 'Devolvido ao VPO de Transportes X: R$ 12,40', 'Devolvido ao embarcador …').
 */
function RefundParts({ contest }: { contest: DriverContest }) {
  if (contest.devolucoes.length === 0) return null;
  return (
    <Stack gap={2} mt={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }} data-refund-parts>
      {contest.devolucoes.map((part) => (
        <Text key={`${part.destino}:${part.embarcador ?? ''}`} component="li" size="sm" fw={600} c="dark.8" data-destination={part.destino}>
          {refundDestinationLabel(part.destino, part.embarcador)}: <Money reais={part.valor} />
        </Text>
      ))}
    </Stack>
  );
}

function Failed({ failure }: { failure: ReadFailure }) {
  return <ReadFailed message={texts.failed} retrying={failure.retrying} onRetry={failure.retry} />;
}

function Empty({ estado }: { estado: ContestState | null }) {
  if (estado) {
    return (
      <Text c="gray.7" ta="center" py="xl" role="status">
        {texts.emptyState(contestStateLabels[estado])}
      </Text>
    );
  }
  return (
    <Stack gap="sm" align="center" py="lg" role="status" ta="center">
      <IconMessageReport size={40} aria-hidden color="var(--mantine-color-road-7)" />
      <Text fw={600}>{texts.empty}</Text>
      <Text c="gray.7">{texts.howTo}</Text>
      <Button component={Link} to="/extrato/listar" variant="light" size="md" leftSection={<IconListDetails size={20} aria-hidden />}>
        {texts.openStatement}
      </Button>
    </Stack>
  );
}

/**
 * Decision 56 /contestacoes: the driver's contests, newest first, 10 a page, filtered by state;
 * each with its passage, reason, dates (the operator's due date, or 'Resposta atrasada'), the
 * operator's answer with what was given back, and its record as a PDF. Kept on the phone.
 */
export function ContestsPage() {
  usePageTitle(texts.title);
  const [page, setPage] = usePageParam();
  const [estado, setEstado] = useStateParam();
  const { contests, failure } = useContestsPage(page, estado);
  const rows = contests.data?.Contestacoes;

  let body: ReactNode;
  if (contests.isPending && contests.isPaused)
    body = null; // Offline and never seen here: the notice says so.
  // Issue 25: said as soon as the read fails (its retries go on behind), never another page's rows.
  else if (failure && (!rows || contests.isPlaceholderData)) body = <Failed failure={failure} />;
  else if (isListLoading(contests) || !rows) body = <CardsLoading height={150} label={texts.loading} />;
  else if (rows.length === 0) body = <Empty estado={estado} />;
  else {
    body = (
      <Stack gap="sm">
        {rows.map((contest) => (
          <ContestCard key={contest.id} contest={contest} />
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{texts.title}</Title>
        <Text c="dimmed">{texts.subtitle}</Text>
      </Stack>
      <OfflineNotice updatedAt={contests.dataUpdatedAt} />
      <Paper withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-end" gap="sm">
            <NativeSelect
              label={texts.filter}
              size="md"
              data={stateOptions}
              value={estado ?? ''}
              onChange={(event) => setEstado(CONTEST_STATES.find((state) => state === event.currentTarget.value) ?? null)}
              w={{ base: '100%', xs: 240 }}
            />
          </Group>
          <div aria-live="polite" aria-busy={isListLoading(contests)}>
            {body}
          </div>
          <ListPagination
            page={page}
            totalPages={contests.data?.Paginacao.TotalPaginas ?? 0}
            onPageChange={setPage}
            disabled={isListLoading(contests)}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
