import { Anchor, Text } from '@mantine/core';
import type { PayoutLimits } from '@portal/contract';
import { Link } from 'react-router';
import { formatReais } from '../../lib/format';

/** Decision 44: the limits in force in one line, and where to change them. */
export function LimitsSummary({ limits }: { limits: PayoutLimits }) {
  return (
    <Text size="sm" c="gray.7" data-testid="limites-saque">
      Seus limites: {formatReais(limits.porSaque.valor)} por saque, {formatReais(limits.diario.valor)} por dia e{' '}
      {formatReais(limits.noturno.valor)} à noite (20h às 6h).{' '}
      <Anchor component={Link} to="/configuracoes" size="sm" fw={600}>
        Alterar em Configurações
      </Anchor>
    </Text>
  );
}
