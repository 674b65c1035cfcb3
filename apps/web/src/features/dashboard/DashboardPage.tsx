import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { StatementTransaction } from '@portal/contract';
import { messages } from '@portal/domain';
import {
  IconCash,
  IconFileInvoice,
  IconListDetails,
  IconMessageReport,
  IconQrcode,
  IconRoad,
  IconTag,
  IconTruck,
  type Icon,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { deferredRender } from '../../components/ui/deferredRender';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { useBalance } from '../../lib/balance';
import { useHydrated } from '../../lib/useStoredValue';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { formatReais } from '../../lib/format';
import { freeFlowTexts } from '../../lib/freeFlowTexts';
import { useAttention } from './api/attention';
import { useFreeFlowSummary } from './api/freeFlow';
import { AttentionList } from './AttentionList';
import { BalancePanel } from './BalancePanel';
import classes from './DashboardPage.module.css';
import { LastMovements } from './LastMovements';
import { dashboardNoticeViews, type NoticeView } from './notices';
import { NoticesSummary } from './NoticesSummary';

/** Long labels wrap instead of being cut at 360 px. */
const wrapStyles = {
  root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 8 },
  label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.25 },
} as const;

const WITHDRAWAL_BLOCKED_ID = 'motivo-sacar';

const tiles: { label: string; to: string; icon: Icon; hint: string }[] = [
  { label: 'Veículos', to: '/veiculos/listar', icon: IconTruck, hint: 'Seus veículos' },
  { label: 'Tags', to: '/tags/listar', icon: IconTag, hint: 'Tags de pedágio' },
  { label: 'VPOs', to: '/vpos/listar', icon: IconFileInvoice, hint: 'Vale-pedágio' },
  { label: 'Extrato', to: '/extrato/listar', icon: IconListDetails, hint: 'Movimentações' },
  { label: 'Contestações', to: '/contestacoes', icon: IconMessageReport, hint: 'Passagens contestadas' },
  // Decision 76: its hint says what is owed once the tolls' Resumo arrives (FreeFlowHint).
  { label: freeFlowTexts.title, to: '/livre-passagem', icon: IconRoad, hint: freeFlowTexts.tileHint },
];

/**
 * The free-flow tile's hint: what is owed ('R$ 12,34 a pagar'), or 'Desligado' with no plate on;
 * the static hint until the Resumo arrives (the prerendered page and its hydration have none: no
 * first script reads it, and the kept copy is restored after hydrating).
 */
function FreeFlowHint({ fallback }: { fallback: string }) {
  const { data } = useFreeFlowSummary();
  const summary = data?.Sucesso ? data.Resumo : undefined;
  let hint = fallback;
  if (summary && summary.valorEmAberto > 0) hint = freeFlowTexts.tileOwed(formatReais(summary.valorEmAberto));
  else if (summary?.placasAtivas === 0) hint = freeFlowTexts.tileOff;
  return (
    <Text
      size="sm"
      className={classes.changingHint}
      lineClamp={2}
      c={summary && summary.vencidos > 0 ? 'red.9' : 'dimmed'}
      fw={summary && summary.valorEmAberto > 0 ? 600 : undefined}
    >
      {hint}
    </Text>
  );
}

/**
 * A money action: a link to its screen, or a disabled button saying why not: with no connection (the
 * page's OfflineNotice), or for a reason of its own (`blocked`, said under it), as its form says it.
 */
function MoneyAction({
  to,
  icon,
  online,
  blocked,
  children,
}: {
  to: string;
  icon: ReactNode;
  online: boolean;
  blocked?: { id: string; reason: string } | null;
  children: string;
}) {
  const look = { size: 'md', fullWidth: true, styles: wrapStyles, leftSection: icon } as const;
  if (blocked) {
    return (
      <Stack gap={4}>
        <Button {...look} disabled aria-describedby={blocked.id}>
          {children}
        </Button>
        <Text size="sm" c="red.9" id={blocked.id}>
          {blocked.reason}
        </Text>
      </Stack>
    );
  }
  if (!online) {
    return (
      <Button {...look} disabled aria-describedby={OFFLINE_REASON_ID}>
        {children}
      </Button>
    );
  }
  return (
    <Button {...look} component={Link} to={to}>
      {children}
    </Button>
  );
}

/**
 * The notices and the last movements, below the tiles. One read answers both, and they are drawn in
 * one transition (deferredRender: a page of Mantine buttons is no long task): apart, the movements
 * were once on screen a frame before the notices, which then pushed them down (layout shift 0.014).
 */
const AfterTiles = deferredRender(function AfterTiles({
  views,
  movements,
}: {
  views: readonly NoticeView[];
  movements: readonly StatementTransaction[] | undefined;
}) {
  return (
    <>
      <AttentionList views={views} />
      {movements ? <LastMovements rows={movements} /> : null}
    </>
  );
});

/**
 * 'Sacar saldo via Pix', disabled below zero with the reason the form would give. Its own component:
 * the page was prerendered with no balance, so after hydration this button alone draws again, not the
 * whole page in the task that makes it live.
 */
function WithdrawAction({ online }: { online: boolean }) {
  const { data: balance } = useBalance();
  const hydrated = useHydrated();
  const noWithdrawal = hydrated && balance !== undefined && balance.Saldo < 0;
  return (
    <MoneyAction
      to="/saldo/retirar"
      online={online}
      blocked={noWithdrawal ? { id: WITHDRAWAL_BLOCKED_ID, reason: messages.withdrawal.insufficientBalance } : null}
      icon={<IconCash size={22} aria-hidden />}
    >
      Sacar saldo via Pix
    </MoneyAction>
  );
}

/**
 * spec §2 /dashboard: balance panel, the two money actions and the four tiles; issue 12 adds what
 * needs attention and the last three movements. Issue 25: both come from one read that answers
 * seconds after the page is painted, so both go below the tiles, where their arrival moves nothing
 * the driver may be reaching for (the notices above the tiles pushed them 106-127 px down, layout
 * shift 0.03-0.06); the title's row says at once that they are loading, then how many there are
 * (NoticesSummary), in a row as tall before as after. With no connection the last data seen shows
 * with its date and the money actions are disabled (founding decision 22). Decision 76: a sixth tile,
 * 'Pedágios sem cancela', and its notice, from the tolls' Resumo.
 */
export function DashboardPage() {
  usePageTitle('Painel');
  const online = useOnline();
  const { dataUpdatedAt } = useBalance();
  const attention = useAttention();
  const freeFlow = useFreeFlowSummary();
  // Loading: said in the title's row; failed (only logged) or never loaded offline: no section at all.
  const movements = attention.data?.UltimasMovimentacoes;
  const notices = attention.data?.Avisos ?? [];
  // Decision 76: the free-flow notice is computed here from the tolls' Resumo (the attention read does not carry it).
  const views = dashboardNoticeViews(notices, freeFlow.data?.Sucesso ? freeFlow.data.Resumo : undefined);
  return (
    <Stack gap="lg">
      {/* As tall as a button from the first paint: the summary appears in it without moving anything. */}
      <Group justify="space-between" align="center" wrap="nowrap" gap="sm" mih={44}>
        <Title order={1}>Painel</Title>
        <NoticesSummary loading={attention.isLoading} views={views} />
      </Group>
      <OfflineNotice updatedAt={dataUpdatedAt} />
      <BalancePanel />

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <WithdrawAction online={online} />
        <MoneyAction to="/saldo/comprar" online={online} icon={<IconQrcode size={22} aria-hidden />}>
          Comprar créditos de pedágio
        </MoneyAction>
      </SimpleGrid>

      <nav aria-label="Serviços">
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
          {tiles.map(({ label, to, icon: TileIcon, hint }) => (
            <Card
              key={to}
              component={Link}
              to={to}
              className={classes.wideOnPhone}
              withBorder
              radius="lg"
              padding="md"
              shadow="xs"
              style={{ minHeight: 112 }}
            >
              <Stack gap={6} align="flex-start">
                <ThemeIcon size={44} radius="md" variant="light" aria-hidden>
                  <TileIcon size={26} />
                </ThemeIcon>
                <Text fw={700} size="lg">
                  {label}
                </Text>
                {to === '/livre-passagem' ? (
                  <FreeFlowHint fallback={hint} />
                ) : (
                  <Text size="sm" c="dimmed">
                    {hint}
                  </Text>
                )}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      </nav>

      {/* Issue 25: below the tiles, which they never move; the most pressing first. */}
      <AfterTiles views={views} movements={movements} />
    </Stack>
  );
}
