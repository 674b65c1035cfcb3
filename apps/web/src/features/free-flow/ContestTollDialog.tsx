import { Button, Paper, Stack, Text } from '@mantine/core';
import type { FreeFlowToll } from '@portal/contract';
import { contestReasonLabels, TOLL_CONTEST_REASONS, type TollContestReason } from '@portal/domain';
import { IconArrowLeft, IconSend } from '@tabler/icons-react';
import { useId } from 'react';
import { DateTime } from '../../components/ui/DateTime';
import { Dialog } from '../../components/ui/Dialog';
import { Money } from '../../components/ui/Money';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFailure } from '../../components/ui/toastFailure';
import { freeFlowTexts as t } from '../../lib/freeFlowTexts';
import { OFFLINE_REASON, useOnline } from '../../lib/offline';
import { useContestFreeFlowToll } from './api/mutations';

/**
 * Decision 76: 'Contestar' on a toll: the toll, then its three reasons, each one button that sends
 * the contest at once (one tap, idempotent); 'Voltar' sends nothing. A flagged toll (the tag was
 * active) offers 'A tag pagou esta passagem' first and filled.
 */
export function ContestTollDialog({ toll, opened, onClose }: { toll: FreeFlowToll; opened: boolean; onClose: () => void }) {
  return (
    <Dialog
      opened={opened}
      onClose={onClose}
      title={t.contestTitle}
      centered
      size="md"
      closeButtonProps={{ 'aria-label': 'Fechar' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Reasons toll={toll} onClose={onClose} />
    </Dialog>
  );
}

function Reasons({ toll, onClose }: { toll: FreeFlowToll; onClose: () => void }) {
  const contest = useContestFreeFlowToll();
  const online = useOnline();
  const offlineId = useId();
  const send = (motivo: TollContestReason) => {
    if (contest.isPending) return;
    contest.mutate(
      { id: toll.id, motivo },
      {
        onSuccess: (answer) => {
          toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE, autoClose: 10_000 });
          onClose();
        },
        onError: (error) => toastFailure(error),
      },
    );
  };
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" px="sm" py="xs" bg="gray.0" component="section" aria-label={t.passage}>
        <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
          {toll.portico}
        </Text>
        <Text size="sm" c="gray.7" component="div" style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 8 }}>
          <span>
            <DateTime value={toll.dataPassagem} /> · {t.plate} {toll.placa}
          </span>
          <Money reais={toll.valor} fw={700} style={{ whiteSpace: 'nowrap', color: 'var(--mantine-color-dark-9)' }} />
        </Text>
      </Paper>
      <Text size="sm" c="gray.8">
        {t.contestIntro}
      </Text>
      {online ? null : (
        <Text size="sm" fw={600} id={offlineId}>
          {OFFLINE_REASON}
        </Text>
      )}
      <Stack gap="sm" role="group" aria-label={t.contestTitle}>
        {TOLL_CONTEST_REASONS.map((reason) => (
          <Button
            key={reason}
            size="md"
            fullWidth
            variant={toll.sinalizacao && reason === 'TAG_PAGOU' ? 'filled' : 'light'}
            leftSection={<IconSend size={20} aria-hidden />}
            styles={{ root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 8 }, label: { whiteSpace: 'normal' } }}
            loading={contest.isPending && contest.variables?.motivo === reason}
            disabled={!online || (contest.isPending && contest.variables?.motivo !== reason)}
            aria-describedby={online ? undefined : offlineId}
            onClick={() => send(reason)}
            data-reason={reason}
          >
            {contestReasonLabels[reason]}
          </Button>
        ))}
        <Button variant="default" size="md" fullWidth leftSection={<IconArrowLeft size={20} aria-hidden />} onClick={onClose}>
          Voltar
        </Button>
      </Stack>
    </Stack>
  );
}
