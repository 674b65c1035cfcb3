import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import type { VehicleDetail, VehicleTag } from '@portal/contract';
import { canManage, messages } from '@portal/domain';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { OFFLINE_REASON_ID, useOnline } from '../../../lib/offline';
import { readableAlert } from '../../../components/ui/readableAlert';
import { useTagActions, type TagActionItem } from './useTagActions';

/**
 * spec §2: what the driver can do with the tag now, and below, what not and why. A tag the operator
 * manages (spec §4) offers nothing here and says so.
 */
export function TagActions({
  vehicle,
  tag,
  operatorName,
  openReplace,
}: {
  vehicle: VehicleDetail;
  tag: VehicleTag;
  operatorName: string | null;
  openReplace: () => void;
}) {
  const { items, pending } = useTagActions(vehicle, tag, operatorName, openReplace);
  const online = useOnline();
  const available = items.filter((item) => item.blocker === null);
  const unavailable = items.filter((item) => item.blocker !== null);

  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby="acoes-titulo">
      <Stack gap="md">
        <Title order={2} size="h3" id="acoes-titulo">
          O que você pode fazer
        </Title>
        {!canManage({ ...tag, operatorName }) ? (
          <Alert
            styles={readableAlert}
            color="yellow"
            variant="light"
            icon={<IconAlertCircle aria-hidden />}
            title="Esta tag não pode ser alterada aqui"
          >
            <Text size="sm">{messages.tag.whyNotManageable}</Text>
          </Alert>
        ) : (
          <>
            {available.length === 0 ? <Text>Nenhuma ação disponível para esta tag agora.</Text> : null}
            <Stack gap="sm">
              {available.map((item) => (
                <Stack key={item.action} gap={4}>
                  <AvailableAction item={item} pending={pending} online={online} />
                  {item.note}
                </Stack>
              ))}
            </Stack>
            {unavailable.length > 0 ? (
              <Stack gap="sm" mt="xs">
                <Text size="sm" fw={700} c="gray.7">
                  Indisponíveis agora
                </Text>
                {unavailable.map((item) => (
                  <UnavailableAction key={item.action} item={item} />
                ))}
              </Stack>
            ) : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** With no connection every action is disabled, pointing at the page's OfflineNotice (founding decision 22). */
function AvailableAction({ item, pending, online }: { item: TagActionItem; pending: TagActionItem['action'] | null; online: boolean }) {
  const look = { size: 'md', fullWidth: true, variant: item.variant, color: item.color, leftSection: item.icon } as const;
  if (!online && pending !== item.action) {
    return (
      <Button {...look} disabled aria-describedby={OFFLINE_REASON_ID}>
        {item.label}
      </Button>
    );
  }
  if (item.link) {
    return (
      <Button {...look} component={Link} to={item.link.to} state={item.link.state}>
        {item.label}
      </Button>
    );
  }
  return (
    <Button {...look} onClick={item.run} loading={pending === item.action} disabled={pending !== null && pending !== item.action}>
      {item.label}
    </Button>
  );
}

function UnavailableAction({ item }: { item: TagActionItem }) {
  const reasonId = `motivo-${item.action}`;
  return (
    <Stack gap={4}>
      <Button variant="default" size="sm" w="fit-content" leftSection={item.icon} disabled aria-describedby={reasonId}>
        {item.label}
      </Button>
      <Text size="sm" c="gray.7" id={reasonId}>
        {item.blocker}
      </Text>
    </Stack>
  );
}
