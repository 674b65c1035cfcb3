import { Anchor, Box, Group, Stack, Text } from '@mantine/core';
import type { PayoutLimits } from '@portal/contract';
import { useId } from 'react';
import { Link } from 'react-router';
import { formatReais } from '../../lib/format';

/**
 * Decision 44: the limits in force, and where to change them. One labelled figure a line (decision
 * 59): at 360 px a sentence holding three amounts wrapped over three lines and was read word by word.
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
      <Text id={titleId} size="sm" fw={600} c="gray.7" mb={4}>
        Seus limites
      </Text>
      <Stack component="dl" gap={2} m={0}>
        {figures.map(([label, reais]) => (
          <Group key={label} justify="space-between" gap="xs" wrap="nowrap">
            <Text component="dt" size="sm" c="gray.7">
              {label}
            </Text>
            <Text component="dd" size="sm" fw={700} m={0} className="tabular-nums">
              {formatReais(reais)}
            </Text>
          </Group>
        ))}
      </Stack>
      <Anchor component={Link} to="/configuracoes" size="sm" fw={600} mt={4} display="inline-block">
        Alterar em Configurações
      </Anchor>
    </Box>
  );
}
