import { Alert, Box, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { pushOptInTexts as t } from '@portal/domain';
import { IconBell, IconBellOff, IconBellRinging, IconRefresh } from '@tabler/icons-react';
import { memo } from 'react';
import { readableAlert } from '../../components/ui/readableAlert';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { PermissionRefusedError } from '../../lib/webPush';
import { pushFailureMessage, useDevicePush, useDisablePush, useEnablePush } from './api/notifications';

const TITLE_ID = 'notificacoes';

/** What will be sent, said before the driver allows anything. */
const WhatIsSent = memo(function WhatIsSent() {
  return (
    <Stack gap={4}>
      <Text size="sm" id="notificacoes-o-que">
        {t.intro}
      </Text>
      <Box component="ul" aria-labelledby="notificacoes-o-que" m={0} pl="lg" style={{ fontSize: 'var(--mantine-font-size-sm)' }}>
        {t.events.map((event) => (
          <li key={event}>{event}</li>
        ))}
      </Box>
      <Text size="sm" c="gray.7">
        {t.perDevice}
      </Text>
    </Stack>
  );
});

/** 'Ativadas/Desativadas neste aparelho.' and the one button that changes it. */
const Toggle = memo(function Toggle({ enabled }: { enabled: boolean }) {
  const enable = useEnablePush();
  const disable = useDisablePush();
  const online = useOnline();
  const working = enable.isPending || disable.isPending;
  // Blocked at the prompt: the section shows how to allow it instead (the state reads 'denied').
  const refusedOutright = enable.error instanceof PermissionRefusedError && enable.error.permission === 'denied';
  const failure =
    enable.isError && !refusedOutright
      ? { title: t.enableFailedTitle, error: enable.error }
      : disable.isError
        ? { title: t.disableFailedTitle, error: disable.error }
        : null;
  const press = () => {
    enable.reset();
    disable.reset();
    if (enabled) disable.mutate();
    else enable.mutate();
  };

  return (
    <Stack gap="md">
      <Group gap="xs" wrap="nowrap" role="status">
        {enabled ? (
          <IconBellRinging size={22} color="var(--mantine-color-green-8)" aria-hidden style={{ flexShrink: 0 }} />
        ) : (
          <IconBellOff size={22} color="var(--mantine-color-gray-7)" aria-hidden style={{ flexShrink: 0 }} />
        )}
        <Text fw={600}>{enabled ? t.enabled : t.disabled}</Text>
      </Group>
      {failure ? (
        <Alert color="red" variant="light" title={failure.title}>
          <Text size="sm">{pushFailureMessage(failure.error)}</Text>
        </Alert>
      ) : null}
      <Button
        fullWidth
        size="md"
        variant={enabled ? 'default' : 'filled'}
        leftSection={enabled ? <IconBellOff size={20} aria-hidden /> : <IconBell size={20} aria-hidden />}
        loading={working}
        disabled={!online}
        aria-describedby={online ? undefined : OFFLINE_REASON_ID}
        onClick={press}
      >
        {failure ? t.retry : enabled ? t.disable : t.enable}
      </Button>
    </Stack>
  );
});

/** The device can never receive: said plainly, no button. */
function Unsupported() {
  return (
    <Alert role="note" color="gray" variant="light" title={t.unsupportedTitle} styles={readableAlert}>
      <Text size="sm" c="dark.7">
        {t.unsupportedBody}
      </Text>
    </Alert>
  );
}

/** Blocked in the browser: where to allow it, and a way to look again once it is. */
function Denied({ checking, onRecheck }: { checking: boolean; onRecheck: () => void }) {
  return (
    <Alert role="note" color="yellow" variant="light" title={t.deniedTitle} styles={readableAlert}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm" c="dark.7">
          {t.deniedBody}
        </Text>
        <Button variant="light" size="sm" leftSection={<IconRefresh size={18} aria-hidden />} loading={checking} onClick={onRecheck}>
          {t.recheck}
        </Button>
      </Stack>
    </Alert>
  );
}

/** Issue 25: Web Push on this device, with what will be sent said first. */
export function NotificationsSection() {
  const device = useDevicePush();
  const state = device.data;

  return (
    <Paper component="section" aria-labelledby={TITLE_ID} withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
      <Stack gap="md">
        <Title order={2} size="h3" id={TITLE_ID}>
          {t.title}
        </Title>
        <WhatIsSent />
        {state === 'unsupported' || device.isError ? (
          <Unsupported />
        ) : state === 'denied' ? (
          <Denied checking={device.isFetching} onRecheck={() => void device.refetch()} />
        ) : state === 'enabled' || state === 'disabled' ? (
          <Toggle enabled={state === 'enabled'} />
        ) : (
          // Read from the browser in a moment: the status line and the button, the same heights.
          <Stack gap="md" aria-busy>
            <Skeleton height={24} width={220} radius="sm" />
            <Skeleton height={42} radius="sm" />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
