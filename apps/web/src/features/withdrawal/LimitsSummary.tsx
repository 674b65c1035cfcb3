import { Anchor, Box, Group, SimpleGrid, Text } from '@mantine/core';
import type { PayoutLimits } from '@portal/contract';
import { useId } from 'react';
import { Link } from 'react-router';
import { formatReais } from '../../lib/format';

/**
 * Decision 44: the limits in force, and where to change them. Three labelled figures (decision 59):
 * at 360 px a sentence holding three amounts wrapped over three lines and was read word by word.
 */
export function LimitsSummary({ limits }: { limits: PayoutLimits }) {
  const titleId = useId();
  const figures = [
    ['Por saque', limits.porSaque.valor],
    ['Por dia', limits.diario.valor],
    ['À noite (20h às 6h)', limits.noturno.valor],
  ] as const;
  return (
    <Box component="section" aria-labelledby={titleId} data-testid="limites-saque">
      <Group justify="space-between" gap="xs" mb={4}>
        <Text id={titleId} size="sm" fw={600} c="gray.7">
          Seus limites
        </Text>
        <Anchor component={Link} to="/configuracoes" size="sm" fw={600}>
          Alterar em Configurações
        </Anchor>
      </Group>
      <SimpleGrid component="dl" cols={3} spacing="xs" m={0}>
        {figures.map(([label, reais]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="gray.7">
              {label}
            </Text>
            <Text component="dd" size="sm" fw={700} m={0}>
              {formatReais(reais)}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Box>
  );
}
