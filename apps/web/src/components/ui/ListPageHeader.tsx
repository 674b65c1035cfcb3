import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { OFFLINE_REASON_ID } from '../../lib/offline';

/**
 * A list screen's title and subtitle, with its "add" action (full width on phones). With no
 * connection (`offline`) the action is a disabled button pointing at the screen's OfflineNotice.
 * Without `addLabel` and `addTo` there is none (decision 77: a role that may not add).
 */
export function ListPageHeader({
  title,
  subtitle,
  addLabel,
  addTo,
  offline = false,
}: {
  title: string;
  subtitle: string;
  addLabel?: string;
  addTo?: string;
  offline?: boolean;
}) {
  const look = { size: 'md', leftSection: <IconPlus size={20} aria-hidden />, w: { base: '100%', xs: 'auto' } } as const;
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Stack gap={4}>
        <Title order={1}>{title}</Title>
        <Text c="dimmed">{subtitle}</Text>
      </Stack>
      {addLabel === undefined || addTo === undefined ? null : offline ? (
        <Button {...look} disabled aria-describedby={OFFLINE_REASON_ID}>
          {addLabel}
        </Button>
      ) : (
        <Button {...look} component={Link} to={addTo}>
          {addLabel}
        </Button>
      )}
    </Group>
  );
}
