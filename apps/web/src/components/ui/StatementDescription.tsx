import { ActionIcon, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { StatementTransaction } from '@portal/contract';
import { describeStatementEntry, STATEMENT_EVENTS } from '@portal/domain';
import { IconAlertTriangle, IconInfoCircle, IconUsers } from '@tabler/icons-react';
import classes from './StatementDescription.module.css';
import { StatementAccountBadge } from './StatementAccountBadge';
import { VpoPayerBadge } from './VpoPayerBadge';

/** Hover, keyboard focus and touch all open the tooltip. */
const tooltipEvents = { hover: true, focus: true, touch: true } as const;

interface StatementDescriptionProps {
  row: StatementTransaction;
  /** 'table' (a DataTable cell: on phones the card's values sit on the right) or 'start' (always from the left). */
  align?: 'table' | 'start';
  /** The account's badge under the text; the statement leaves it out, its 'Saldo após' names the account. */
  withAccount?: boolean;
}

/**
 * spec §2 /extrato/listar 'Descrição': the text, its third-party tooltip and icon, and the event label;
 * issue 33: under it, whose money the entry moved (Saldo, Saldo em outras plataformas, VPO de
 * <embarcador>) unless the row names it elsewhere; decision 52: a passage Saldo paid because its VPO ran short says so.
 * Shared by the statement and the dashboard's last movements.
 */
export function StatementDescription({ row, align = 'table', withAccount = true }: StatementDescriptionProps) {
  const { text, tooltip, icon } = describeStatementEntry(row.origin, row.placeName, row.is_third);
  const Icon = icon === 'warning' ? IconAlertTriangle : icon === 'third' ? IconUsers : IconInfoCircle;
  const color = icon === 'warning' ? 'yellow.9' : 'road.8';
  return (
    <Stack gap={0} className={align === 'table' ? classes.description : classes.start}>
      <Group gap={4} wrap="nowrap" align="center">
        <Text component="span" inherit style={{ overflowWrap: 'anywhere' }}>
          {text}
        </Text>
        {tooltip ? (
          // Fixed, not absolute: drawn at the icon before it is placed, an absolute tooltip near the
          // right edge made the page wider than a 360 px phone for a moment, and the phone then
          // zoomed out and moved the page under the finger (a tap on 'Página 2' landed on a row).
          <Tooltip label={tooltip} events={tooltipEvents} withArrow position="top" multiline={false} floatingStrategy="fixed">
            <ActionIcon
              variant="subtle"
              color={color}
              size={32}
              radius="xl"
              aria-label={tooltip}
              onClick={(event) => event.stopPropagation()}
              data-tooltip={tooltip}
            >
              <Icon size={20} aria-hidden />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
      {tooltip ? (
        <Text component="span" size="xs" c="dimmed" aria-hidden>
          {tooltip}
        </Text>
      ) : null}
      {row.event ? (
        <Text component="span" size="xs" c="dimmed">
          <VisuallyHidden>Evento: </VisuallyHidden>
          {STATEMENT_EVENTS[row.event]}
        </Text>
      ) : null}
      {withAccount ? (
        <span className={classes.badge}>
          <StatementAccountBadge conta={row.conta} />
        </span>
      ) : null}
      {row.vpo?.pagoPor === 'SALDO' ? (
        <span className={classes.badge}>
          <VpoPayerBadge pagoPor="SALDO" shipper={row.vpo.Embarcador} />
        </span>
      ) : null}
    </Stack>
  );
}
