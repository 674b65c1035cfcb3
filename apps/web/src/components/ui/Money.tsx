import { Text, type TextProps } from '@mantine/core';
import { formatBrl, type Cents } from '@portal/domain';
import { toCents } from '../../lib/format';

type MoneyProps = Omit<TextProps, 'c' | 'children'> &
  ({ reais: number; cents?: never } | { cents: Cents; reais?: never }) & {
    /** Paint positive amounts road-sign green (balances). Negative is always red. */
    colorPositive?: boolean;
    component?: 'span' | 'p' | 'div' | 'strong';
  };

/**
 * An amount in BRL: 'R$ 1.234,56'. Negative amounts are red AND carry the minus sign
 * ('-R$ 15,90'), so colour is never the only signal. Tabular figures line up in columns.
 */
export function Money({ reais, cents, colorPositive = false, component = 'span', className, ...rest }: MoneyProps) {
  const value = cents ?? toCents(reais ?? 0);
  const negative = value < 0;
  const color = negative ? 'var(--mantine-color-red-9)' : colorPositive && value > 0 ? 'var(--mantine-color-sign-8)' : undefined;
  return (
    <Text
      component={component}
      inherit={rest.size === undefined && rest.fz === undefined}
      {...rest}
      c={color}
      className={['tabular-nums', className].filter(Boolean).join(' ')}
      data-negative={negative || undefined}
    >
      {formatBrl(value)}
    </Text>
  );
}
