import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';

/** A list screen's title and subtitle, with its "add" action (full width on phones). */
export function ListPageHeader({ title, subtitle, addLabel, addTo }: { title: string; subtitle: string; addLabel: string; addTo: string }) {
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Stack gap={4}>
        <Title order={1}>{title}</Title>
        <Text c="dimmed">{subtitle}</Text>
      </Stack>
      <Button component={Link} to={addTo} size="md" leftSection={<IconPlus size={20} aria-hidden />} w={{ base: '100%', xs: 'auto' }}>
        {addLabel}
      </Button>
    </Group>
  );
}
