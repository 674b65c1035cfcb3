import { Badge } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './TintedBadge.module.css';

interface TintedBadgeProps {
  bg: string;
  c: string;
  Icon: Icon;
  /** A warning: a bordered badge with an orange icon (never colour alone). */
  warning: boolean;
  variant: 'filled' | 'light';
  children: ReactNode;
  /** data-* attributes that name what the badge marks (tests and styles read them). */
  data: Record<`data-${string}`, string>;
  /** 'sm': a quiet mark beside a row's text (the statement's account); 'lg' by default. */
  size?: 'sm' | 'lg';
}

/** A badge readable in sunlight that wraps at 360 px, with its icon: the VPO payer's and the contest's. */
export function TintedBadge({ bg, c, Icon, warning, variant, children, data, size = 'lg' }: TintedBadgeProps) {
  return (
    <Badge
      size={size}
      radius="sm"
      variant={variant}
      bg={bg}
      c={c}
      classNames={{ root: classes.root, label: classes.label }}
      data-warning={warning || undefined}
      {...data}
      leftSection={<Icon size={size === 'sm' ? 14 : 16} aria-hidden color={warning ? 'var(--mantine-color-orange-9)' : undefined} />}
    >
      {children}
    </Badge>
  );
}
