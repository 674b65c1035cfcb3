import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Invitation } from '@portal/contract';
import { fleetRoleDescriptions, fleetRoleLabels, fleetScreens } from '@portal/domain';
import { IconBuildingWarehouse, IconCheck, IconX } from '@tabler/icons-react';
import { confirmAction } from '../../components/ui/confirm';
import { DateTime } from '../../components/ui/DateTime';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFailure } from '../../components/ui/toastFailure';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { useAnswerInvitation, useInvitations } from './api/invitations';

const t = fleetScreens.invitations;

/** One invitation: who invites, as what (and what that role may do), 'Aceitar' and 'Recusar' (asked first). */
function InvitationCard({ invitation }: { invitation: Invitation }) {
  const online = useOnline();
  const answer = useAnswerInvitation();
  const role = fleetRoleLabels[invitation.papel];
  const pending = answer.isPending ? answer.variables.accept : null;

  // The answer takes this card off the list before mutate's own callbacks would run (an unmounted
  // observer's never do): the promise tells the person either way.
  const send = (accept: boolean) =>
    answer.mutateAsync({ id: invitation.id, accept }).then(
      (reply) => {
        if (reply.Sucesso) toast.success(reply.Mensagem, { title: SUCCESS_TOAST_TITLE, autoClose: 10_000 });
        else toast.error(reply.Mensagem, { title: ERROR_TOAST_TITLE });
      },
      (error: unknown) => toastFailure(error),
    );

  const decline = async () => {
    const confirmed = await confirmAction({
      title: t.declineTitle,
      message: t.declineQuestion(invitation.empresa),
      confirmLabel: t.decline,
      danger: true,
    });
    if (confirmed) await send(false);
  };

  const offline = { disabled: !online || answer.isPending, 'aria-describedby': online ? undefined : OFFLINE_REASON_ID };
  return (
    <Paper component="article" withBorder radius="md" p="md" data-invitation={invitation.id}>
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconBuildingWarehouse size={24} aria-hidden style={{ flexShrink: 0, color: 'var(--mantine-color-road-8)' }} />
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {t.text(invitation.empresa, invitation.documento, role)}
          </Text>
        </Group>
        <Text size="sm" c="gray.8">
          {fleetRoleDescriptions[invitation.papel]}
        </Text>
        <Text size="sm" c="gray.7">
          {t.invitedBy(invitation.convidadoPor)} · <DateTime value={invitation.convidadoEm} />
        </Text>
        <Group gap="xs" grow preventGrowOverflow={false}>
          <Button
            leftSection={<IconCheck size={20} aria-hidden />}
            loading={pending === true}
            {...offline}
            aria-label={t.acceptName(invitation.empresa)}
            onClick={() => void send(true)}
          >
            {t.accept}
          </Button>
          <Button
            variant="default"
            leftSection={<IconX size={20} aria-hidden />}
            loading={pending === false}
            {...offline}
            aria-label={t.declineName(invitation.empresa)}
            onClick={() => void decline()}
          >
            {t.decline}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Decision 77: on the person's own account, a card for each company's invitation waiting for their
 * answer. Nothing while there is none (nor while it loads, nor when the read failed: as the notices).
 */
export function Invitations({ enabled }: { enabled: boolean }) {
  const invitations = useInvitations(enabled);
  const list = invitations.data?.Convites ?? [];
  if (!enabled || list.length === 0) return null;
  return (
    <Stack component="section" gap="sm" aria-labelledby="convites-empresas">
      <Title order={2} size="h3" id="convites-empresas">
        {t.title}
      </Title>
      {list.map((invitation) => (
        <InvitationCard key={invitation.id} invitation={invitation} />
      ))}
    </Stack>
  );
}
