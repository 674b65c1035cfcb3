import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { PixAutomaticAuthorization } from '@portal/contract';
import { pixAutomaticFrequencyLabels, pixAutomaticMessages, pixAutomaticStateLabels } from '@portal/domain';
import { IconX } from '@tabler/icons-react';
import { confirmAction } from '../../components/ui/confirm';
import { Money } from '../../components/ui/Money';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { isApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { useCancelAutomatic } from './api/queries';
import { position } from './NewAutomaticForm';

const texts = {
  value: 'Valor',
  frequency: 'Frequência',
  cancel: 'Cancelar recarga automática',
  confirmTitle: 'Cancelar a recarga automática?',
  confirm: 'Cancelar',
  back: 'Voltar',
} as const;

const STATE_COLOR: Record<PixAutomaticAuthorization['estado'], string> = {
  AGUARDANDO: 'yellow',
  ATIVA: 'sign',
  RECUSADA: 'red',
  CANCELADA: 'gray',
  EXPIRADA: 'gray',
};

/** The authorization at a glance: its state, value and frequency. */
export function AutomaticSummary({ authorization }: { authorization: PixAutomaticAuthorization }) {
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
      <Stack gap={0}>
        <Text size="sm" c="dimmed" fw={600}>
          {texts.value}
        </Text>
        <Money reais={authorization.valor} fz="calc(1.75rem * var(--mantine-scale))" fw={700} lh={1.2} />
        <Text size="sm" c="dark.7">
          {texts.frequency}: {pixAutomaticFrequencyLabels[authorization.frequencia]}
        </Text>
      </Stack>
      <Badge size="lg" variant="light" color={STATE_COLOR[authorization.estado]} c="dark.7" data-testid="estado-recarga">
        {pixAutomaticStateLabels[authorization.estado]}
      </Badge>
    </Group>
  );
}

/** 'Cancelar recarga automática', after a dialog whose two answers cannot be mistaken ('Cancelar' / 'Voltar'). */
export function CancelAutomaticButton({ authorization }: { authorization: PixAutomaticAuthorization }) {
  const online = useOnline();
  const cancel = useCancelAutomatic();
  const onCancel = async () => {
    const confirmed = await confirmAction({
      title: texts.confirmTitle,
      message: (
        <Stack gap="xs">
          <Text size="md">{pixAutomaticMessages.cancelConfirm}</Text>
          <Text size="sm" c="dimmed">
            {pixAutomaticMessages.bankAppCancel}
          </Text>
        </Stack>
      ),
      confirmLabel: texts.confirm,
      cancelLabel: texts.back,
      danger: true,
    });
    if (!confirmed) return;
    cancel.mutate(authorization.id, {
      onSuccess: (answer) => toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE, position }),
      onError: (error) => {
        if (isApiError(error) && error.isUnauthorized) return;
        toast.error(errorMessage(error), { title: ERROR_TOAST_TITLE, position });
      },
    });
  };
  return (
    <Button
      variant="outline"
      color="red"
      fullWidth
      // Its whole name at 360 px: the label wraps instead of being cut.
      h="auto"
      mih={42}
      py={8}
      styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
      leftSection={<IconX size={20} aria-hidden />}
      loading={cancel.isPending}
      disabled={!online}
      aria-describedby={online ? undefined : OFFLINE_REASON_ID}
      onClick={() => void onCancel()}
    >
      {texts.cancel}
    </Button>
  );
}
