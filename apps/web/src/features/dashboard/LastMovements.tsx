import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { StatementTransaction } from '@portal/contract';
import { messages } from '@portal/domain';
import { IconArrowRight } from '@tabler/icons-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { DateTime } from '../../components/ui/DateTime';
import { deferredRender } from '../../components/ui/deferredRender';
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
 * value) and the way to the whole statement. `rows` undefined while they load.
 */
function LastMovementsView({ rows }: { rows: readonly StatementTransaction[] | undefined }) {
  const titleId = useId();
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder shadow="xs" radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} size="h4" id={titleId} mb="xs">
        {messages.attention.lastMovements}
      </Title>
      {rows === undefined ? (
        <Stack gap="sm" aria-busy>
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} height={36} radius="sm" />
          ))}
        </Stack>
      ) : rows.length === 0 ? (
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

/** Drawn in a transition when the entries arrive (deferredRender). */
export const LastMovements = deferredRender(LastMovementsView);
