import { Button, Group, Loader, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { cssColor, NOTICES_ID, tones } from './AttentionList';
import type { NoticeView } from './notices';

const texts = {
  loading: 'Carregando avisos...',
  count: (n: number) => (n === 1 ? '1 aviso' : `${n} avisos`),
} as const;

/** The notices' section, brought into view and focused (a keyboard or screen reader lands on it). */
function openNotices() {
  const section = document.getElementById(NOTICES_ID);
  if (!section) return;
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  section.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
  section.focus({ preventScroll: true });
}

/**
 * Issue 25: the notices arrive seconds after the dashboard is painted, and they sit below the tiles
 * so that nothing the driver may be reaching for moves. What they are is said at the top, in the
 * title's row, whose height is the same before and after (DashboardPage): 'Carregando avisos...'
 * while they are read, then how many, in the tone of the most pressing, a tap away. Nothing when
 * there is none or the read failed (spec §8: the dashboard then says nothing).
 */
export function NoticesSummary({ loading, views }: { loading: boolean; views: readonly NoticeView[] }) {
  if (loading) {
    return (
      <Group gap={6} wrap="nowrap" role="status">
        <Loader size="xs" color="gray.6" aria-hidden />
        <Text size="sm" c="gray.7">
          {texts.loading}
        </Text>
      </Group>
    );
  }
  const first = views[0];
  if (!first) return null;
  const { color, ink, mark, icon: ToneIcon } = tones[first.tone];
  return (
    <Button
      variant="light"
      color={color}
      c={ink}
      size="sm"
      style={{ flexShrink: 0 }}
      leftSection={<ToneIcon size={18} color={cssColor(mark)} aria-hidden />}
      rightSection={<IconChevronDown size={16} aria-hidden />}
      aria-controls={NOTICES_ID}
      onClick={openNotices}
    >
      {texts.count(views.length)}
    </Button>
  );
}
