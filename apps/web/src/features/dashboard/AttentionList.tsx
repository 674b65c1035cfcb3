import { Anchor, Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import {
  IconAlertOctagon,
  IconAlertTriangle,
  IconArrowUpRight,
  IconChevronDown,
  IconChevronUp,
  IconClockHour4,
  IconKey,
  IconLock,
  IconMessageReport,
  type Icon,
} from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFailure } from '../../components/ui/toastFailure';
import { useOpenContest } from '../../lib/contests';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { DUPLICATE_NOTICE, type NoticeTone, type NoticeView } from './notices';

/** At most this many lines before 'Ver mais': the tiles below stay within reach on a 360x800 phone. */
const VISIBLE_NOTICES = 2;

/**
 * `color` tints the line's edge and the action; `ink` is the action's label and `mark` the icon, both
 * readable on white and on the tint (WCAG AA: yellow's own darkest shade is not).
 */
export const tones: Record<NoticeTone, { color: string; ink: string; mark: string; icon: Icon }> = {
  danger: { color: 'red', ink: 'red.9', mark: 'red.9', icon: IconLock },
  debt: { color: 'red', ink: 'red.9', mark: 'red.9', icon: IconAlertOctagon },
  warning: { color: 'yellow', ink: 'dark.7', mark: 'orange.9', icon: IconAlertTriangle },
  waiting: { color: 'road', ink: 'road.9', mark: 'road.9', icon: IconClockHour4 },
  security: { color: 'orange', ink: 'dark.7', mark: 'orange.9', icon: IconKey },
  info: { color: 'gray', ink: 'dark.7', mark: 'gray.7', icon: IconArrowUpRight },
};

/** 'red.9' -> its CSS variable. */
export const cssColor = (shade: string) => `var(--mantine-color-${shade.replace('.', '-')})`;

const listStyle = { listStyle: 'none', margin: 0, padding: 0 } as const;

/** Decision 56: 'Contestar' sends the contest at once, reason 'Cobrança duplicada'; the notice leaves when the notices are read again. */
function ContestNoticeAction({ notice, passagemId, online }: { notice: NoticeView; passagemId: number; online: boolean }) {
  const { color, ink } = tones[notice.tone];
  const open = useOpenContest();
  const contest = () =>
    open.mutate(
      { passagemId, motivo: 'DUPLICADA' },
      {
        onSuccess: (answer) => toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE, autoClose: 10_000 }),
        onError: (error) => toastFailure(error),
      },
    );
  return (
    <Button
      size="compact-sm"
      variant="light"
      color={color}
      c={ink}
      style={{ flexShrink: 0 }}
      leftSection={<IconMessageReport size={16} aria-hidden />}
      loading={open.isPending || open.isSuccess}
      disabled={!online}
      aria-describedby={online ? undefined : OFFLINE_REASON_ID}
      aria-label={notice.actionName}
      onClick={contest}
    >
      {notice.action}
    </Button>
  );
}

function NoticeAction({ notice, online }: { notice: NoticeView; online: boolean }) {
  const { color, ink } = tones[notice.tone];
  const look = { size: 'compact-sm', variant: 'light', color, c: ink, style: { flexShrink: 0 } } as const;
  if (notice.contestPassageId !== undefined)
    return <ContestNoticeAction notice={notice} passagemId={notice.contestPassageId} online={online} />;
  if (notice.needsNetwork && !online) {
    return (
      <Button {...look} disabled aria-label={notice.actionName} aria-describedby={OFFLINE_REASON_ID}>
        {notice.action}
      </Button>
    );
  }
  return (
    <Button {...look} component={Link} to={notice.to} aria-label={notice.actionName}>
      {notice.action}
    </Button>
  );
}

function NoticeLine({ notice, online }: { notice: NoticeView; online: boolean }) {
  const { color, mark, icon: ToneIcon } = tones[notice.tone];
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      pl="xs"
      pr={6}
      py={6}
      data-tipo={notice.key}
      style={{ borderInlineStart: `4px solid ${cssColor(`${color}.7`)}` }}
    >
      {notice.detail !== undefined ? (
        // Issue 25: a notice that says what it means gets the line's whole width, its action below.
        <Group gap={8} wrap="nowrap" align="flex-start">
          <ToneIcon size={20} color={cssColor(mark)} style={{ flexShrink: 0 }} aria-hidden />
          <Stack gap={4} align="flex-start" style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" lh={1.3} fw={700}>
              {notice.text}
            </Text>
            <Text size="sm" lh={1.3}>
              {notice.detail}
            </Text>
            <NoticeAction notice={notice} online={online} />
          </Stack>
        </Group>
      ) : (
        <Group gap={8} wrap="nowrap">
          <ToneIcon size={20} color={cssColor(mark)} style={{ flexShrink: 0 }} aria-hidden />
          {notice.contestPassageId === undefined ? (
            <Text size="sm" lh={1.3} style={{ flex: 1, minWidth: 0 }}>
              {notice.text}
            </Text>
          ) : (
            // Before contesting in one tap, the way to look at the passage in the statement.
            <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" lh={1.3}>
                {notice.text}
              </Text>
              <Anchor component={Link} to={notice.to} size="sm" fw={600} c="road.9" style={{ alignSelf: 'flex-start' }}>
                {DUPLICATE_NOTICE.seeStatement}
              </Anchor>
            </Stack>
          )}
          <NoticeAction notice={notice} online={online} />
        </Group>
      )}
    </Paper>
  );
}

/** The notices' section, where the summary at the top of the dashboard takes the driver (NoticesSummary). */
export const NOTICES_ID = 'avisos';

/**
 * Issue 12: what needs the driver's attention, one compact line each. Two at most until 'Ver mais
 * (N)'; nothing at all when there is nothing to say. Issue 25: below the tiles, so that their
 * arrival moves nothing the driver may be reaching for; announced at the top by NoticesSummary.
 * Drawn in one transition with the last movements (DashboardPage). `views`: dashboardNoticeViews's.
 */
export function AttentionList({ views }: { views: readonly NoticeView[] }) {
  const online = useOnline();
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  if (views.length === 0) return null;
  const hidden = views.length - VISIBLE_NOTICES;
  const shown = expanded || hidden <= 0 ? views : views.slice(0, VISIBLE_NOTICES);

  return (
    <Box
      component="section"
      aria-label="Avisos"
      id={NOTICES_ID}
      tabIndex={-1}
      style={{ scrollMarginTop: 'calc(var(--portal-header-height, 4rem) + var(--mantine-spacing-md))' }}
    >
      <Stack component="ul" id={listId} gap={6} style={listStyle}>
        {shown.map((notice) => (
          <NoticeLine key={notice.key} notice={notice} online={online} />
        ))}
      </Stack>
      {hidden > 0 ? (
        // Far enough from the last notice that their 44 px targets do not overlap ('Ver no extrato' above it).
        <Button
          variant="subtle"
          size="compact-sm"
          mt="md"
          aria-expanded={expanded}
          aria-controls={listId}
          rightSection={expanded ? <IconChevronUp size={16} aria-hidden /> : <IconChevronDown size={16} aria-hidden />}
          onClick={() => setExpanded((open) => !open)}
        >
          {expanded ? 'Ver menos' : `Ver mais (${hidden})`}
        </Button>
      ) : null}
    </Box>
  );
}
