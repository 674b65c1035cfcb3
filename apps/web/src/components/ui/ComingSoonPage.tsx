import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useMatches } from 'react-router';
import { usePageTitle } from './usePageTitle';

export interface RouteHandle {
  title?: string;
}

/** The honest placeholder of the screens later work builds: the route's handle gives the title. */
export function ComingSoonPage() {
  const matches = useMatches();
  const title =
    [...matches].reverse().map((m) => (m.handle as RouteHandle | undefined)?.title).find(Boolean) ??
    'Em breve';
  usePageTitle(title);
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Title order={1}>{title}</Title>
        <Text>Esta área estará disponível em breve.</Text>
        <Button component={Link} to="/dashboard" leftSection={<IconArrowLeft size={20} aria-hidden />} fullWidth maw={360}>
          Voltar ao painel
        </Button>
      </Stack>
    </Paper>
  );
}
