import { Alert, Button, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { PixAutomaticAuthorization, PixAutomaticResponse } from '@portal/contract';
import { pixAutomaticMessages } from '@portal/domain';
import { IconInfoCircle, IconShoppingCart } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { FormPage } from '../../components/ui/FormPage';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { deferredRender } from '../../components/ui/deferredRender';
import { ReadFailed } from '../../components/ui/ReadFailed';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { attentionQueryKey } from '../../lib/attention';
import { balanceQueryKey } from '../../lib/balance';
import { usePixAutomatic } from './api/queries';
import { EndedNote, NewAutomaticForm } from './NewAutomaticForm';

const WaitingAutomatic = lazy(() => import('./WaitingAutomatic').then((m) => ({ default: m.WaitingAutomatic })));
const ActiveAutomatic = lazy(() => import('./ActiveAutomatic').then((m) => ({ default: m.ActiveAutomatic })));

const texts = {
  loading: 'Carregando a recarga automática...',
  failed: 'Não foi possível carregar a sua recarga automática.',
  buy: 'Comprar saldo agora',
  howTitle: 'Como funciona',
} as const;

/** The Central Bank's rules in the driver's words (decision 58): shown whatever the state. */
function HowItWorks() {
  return (
    <Alert color="road" variant="light" icon={<IconInfoCircle aria-hidden />} title={texts.howTitle}>
      <Stack gap={6}>
        <Text size="sm" c="dark.7">
          {pixAutomaticMessages.howItWorks}
        </Text>
        <Text size="sm" c="dark.7">
          {pixAutomaticMessages.free} {pixAutomaticMessages.noticeBefore}
        </Text>
        <Text size="sm" c="dark.7" fw={600}>
          {pixAutomaticMessages.bankAppCancel}
        </Text>
      </Stack>
    </Alert>
  );
}

function Loading() {
  return (
    <Stack gap="sm" role="status" aria-busy aria-label={texts.loading}>
      <Skeleton height={220} radius="lg" />
      <Skeleton height={96} radius="lg" />
    </Stack>
  );
}

const isLive = (a: PixAutomaticAuthorization | null): a is PixAutomaticAuthorization =>
  a !== null && (a.estado === 'AGUARDANDO' || a.estado === 'ATIVA');

/** The first Pix paid (or the debit cancelled) while the screen was open: the balance and the notices are asked again. */
function useRefreshOnChange(estado: string | undefined) {
  const queryClient = useQueryClient();
  const previous = useRef(estado);
  useEffect(() => {
    if (previous.current !== undefined && estado !== undefined && previous.current !== estado) {
      void Promise.all([balanceQueryKey, attentionQueryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    }
    previous.current = estado;
  }, [estado, queryClient]);
}

interface ContentProps {
  answer: PixAutomaticResponse | undefined;
  failed: boolean;
  retrying: boolean;
  onRetry: () => void;
}

/** What the read says, drawn in a transition (deferredRender): its answer is never one long task. */
const Content = deferredRender(function ContentView({ answer, failed, retrying, onRetry }: ContentProps) {
  const authorization = answer?.RecargaAutomatica ?? null;
  // Said at the first failure, not after the retries (issue 25: no silent moment).
  if (!answer) return failed ? <ReadFailed message={texts.failed} retrying={retrying} onRetry={onRetry} /> : <Loading />;
  if (isLive(authorization)) {
    return (
      <Suspense fallback={<Loading />}>
        {authorization.estado === 'AGUARDANDO' ? (
          <WaitingAutomatic authorization={authorization} />
        ) : (
          <ActiveAutomatic authorization={authorization} />
        )}
      </Suspense>
    );
  }
  if (!answer.Disponivel) {
    return (
      <Alert color="yellow" variant="light" role="status" icon={<IconInfoCircle aria-hidden />}>
        <Stack gap="sm" align="flex-start">
          <Text c="dark.7">{pixAutomaticMessages.unavailable}</Text>
          <Button component={Link} to="/saldo/comprar" leftSection={<IconShoppingCart size={20} aria-hidden />}>
            {texts.buy}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return (
    <>
      {authorization ? <EndedNote authorization={authorization} /> : null}
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
        <NewAutomaticForm />
      </Paper>
    </>
  );
});

/**
 * Decision 58, /saldo/recarga-automatica (from 'Comprar saldo'): the recurring top-up by Pix
 * Automático. With none (or the last one ended): how it works and the form (value and frequency).
 * Waiting: the QR Code of the first Pix, which also carries the consent. Active: the next debit,
 * the last cycles, 'Alterar valor' and 'Cancelar'. The waiting and active panels (the QR Code's
 * library among them) load only for a driver who has one.
 */
export function PixAutomaticPage() {
  usePageTitle(pixAutomaticMessages.title);
  const query = usePixAutomatic();
  const answer = query.data;
  const authorization = answer?.RecargaAutomatica ?? null;
  useRefreshOnChange(authorization ? `${authorization.id}:${authorization.estado}` : undefined);
  const { refetch } = query;
  const onRetry = useCallback(() => void refetch(), [refetch]);

  return (
    <FormPage>
      <Title order={1}>{pixAutomaticMessages.title}</Title>
      <OfflineNotice updatedAt={answer ? query.dataUpdatedAt : undefined} />
      <Content answer={answer} failed={query.isError || query.failureCount > 0} retrying={query.isFetching} onRetry={onRetry} />
      <HowItWorks />
    </FormPage>
  );
}
