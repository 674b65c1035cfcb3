import { Badge, type BadgeProps } from '@mantine/core';
import { messages, statusOf } from '@portal/domain';

/** Filled, high-contrast badges that read in sunlight: white on green/red/grey, black on yellow. */
const badgeStyles = {
  green: { bg: 'sign.8', c: 'white' },
  red: { bg: 'red.8', c: 'white' },
  yellow: { bg: 'yellow.4', c: 'dark.9' },
  gray: { bg: 'gray.7', c: 'white' },
} as const;

interface TagStatusBadgeProps extends Omit<BadgeProps, 'color' | 'children'> {
  /** The tag's status code (spec §4); null is inactive. */
  code: number | null;
  /** Founding decision 7: a vehicle without a tag shows 'Sem tag'. */
  noTag?: boolean;
}

/** spec §4 badge: Ativa (green), Bloqueada (red), Inativa (yellow), Cancelada (gray; also any unknown code). */
export function TagStatusBadge({ code, noTag = false, ...rest }: TagStatusBadgeProps) {
  if (noTag) {
    return (
      <Badge color="gray.8" variant="outline" size="lg" radius="sm" {...rest}>
        {messages.vehicle.noTag}
      </Badge>
    );
  }
  const status = statusOf(code);
  const look = badgeStyles[status.color];
  return (
    <Badge variant="filled" size="lg" radius="sm" bg={look.bg} c={look.c} data-status={status.state} {...rest}>
      {status.label}
    </Badge>
  );
}
