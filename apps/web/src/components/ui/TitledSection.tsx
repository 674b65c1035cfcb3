import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A section of a screen as a card: its heading (named by `id`, which labels the section), a line
 * that says what it is for, and its content (a form, a list).
 */
export function TitledSection({ id, title, hint, children }: { id: string; title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <Paper component="section" aria-labelledby={id} withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h3" id={id}>
            {title}
          </Title>
          {hint ? (
            <Text size="sm" c="gray.7">
              {hint}
            </Text>
          ) : null}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
