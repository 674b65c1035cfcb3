import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { StatementTransaction } from '@portal/contract';
import { messages } from '@portal/domain';
import { IconArrowRight } from '@tabler/icons-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { DateTime } from '../../components/ui/DateTime';
import { Money } from '../../components/ui/Money';
import { StatementDescription } from '../../components/ui/StatementDescription';

const listStyle = { listStyle: 'none', margin: 0, padding: 0 } as const;
const rowStyle = { borderTop: '1px solid var(--mantine-color-gray-3)' } as const;

function Movement({ row }: { row: StatementTransaction }) {
  return (
    <Group component="li" justify="space-between" align="flex-start" wrap="nowrap" gap="sm" py="xs" style={rowStyle}>
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text component="div" size="sm" fw={500}>
          <StatementDescription row={row} align="start" />
        </Text>
        <Text component="div" size="xs" c="dimmed">
          <DateTime value={row.created_at} />
        </Text>
      </Stack>
      <Money reais={row.value} colorPositive fw={600} size="sm" style={{ whiteSpace: 'nowrap' }} />
    </Group>
  );
}

/**
 * Issue 12: the three newest statement entries (description as the statement writes it, date and
 * value) and the way to the whole statement. Drawn once they are read (issue 25: a placeholder
 * here was pushed down by the notices arriving above it; the title's row says they are loading).
 * Drawn in one transition with the notices (DashboardPage).
 */
export function LastMovements({ rows }: { rows: readonly StatementTransaction[] }) {
  const titleId = useId();
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder shadow="xs" radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} size="h4" id={titleId} mb="xs">
        {messages.attention.lastMovements}
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm" py="xs">
          Nenhuma movimentação ainda.
        </Text>
      ) : (
        <ul style={listStyle}>
          {rows.map((row) => (
            <Movement key={row.transactionId} row={row} />
          ))}
        </ul>
      )}
      <Anchor component={Link} to="/extrato/listar" fw={600} mt="xs" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
        {messages.attention.seeStatement}
        <IconArrowRight size={18} aria-hidden />
      </Anchor>
    </Paper>
  );
}
