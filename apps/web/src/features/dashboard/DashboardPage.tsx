import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { api, type Endpoint, type StatementTransaction } from '@portal/contract';
import { budgetScreens, fleetScreens, messages, type ActingRole } from '@portal/domain';
import {
  IconBuildingWarehouse,
  IconCash,
  IconChartPie,
  IconClipboardList,
  IconFileInvoice,
  IconGauge,
  IconListDetails,
  IconMessageReport,
  IconQrcode,
  IconRoad,
  IconShieldCheck,
  IconTag,
  IconTruck,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { deferredRender } from '../../components/ui/deferredRender';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { mayCall, useActing } from '../../lib/actingAccount';
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
import { DriverVehicles } from './DriverVehicles';
import { Invitations } from './Invitations';
import { LastMovements } from './LastMovements';
import { dashboardNoticeViews, type NoticeView } from './notices';
import { NoticesSummary } from './NoticesSummary';

/** Long labels wrap instead of being cut at 360 px. */
const wrapStyles = {
  root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 8 },
  label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.25 },
} as const;

const WITHDRAWAL_BLOCKED_ID = 'motivo-sacar';

interface Tile {
  label: string;
  to: string;
  icon: Icon;
  hint: string;
  /** The read its screen opens with: decision 77, the tile is shown to a role that may make it. */
  reads: Pick<Endpoint, 'capability'>;
}

const tiles: Tile[] = [
  { label: 'Veículos', to: '/veiculos/listar', icon: IconTruck, hint: 'Seus veículos', reads: api.vehicles },
  { label: 'Tags', to: '/tags/listar', icon: IconTag, hint: 'Tags de pedágio', reads: api.tags },
  { label: 'VPOs', to: '/vpos/listar', icon: IconFileInvoice, hint: 'Vale-pedágio', reads: api.driverVpos },
  { label: 'Extrato', to: '/extrato/listar', icon: IconListDetails, hint: 'Movimentações', reads: api.statement },
  { label: 'Contestações', to: '/contestacoes', icon: IconMessageReport, hint: 'Passagens contestadas', reads: api.driverContests },
  // Decision 76: its hint says what is owed once the tolls' Resumo arrives (FreeFlowHint).
  { label: freeFlowTexts.title, to: '/livre-passagem', icon: IconRoad, hint: freeFlowTexts.tileHint, reads: api.freeFlowTolls },
];

/**
 * Decision 77: a company's pages, each for the roles that may make its read: a Gestor (and the
 * company's own login) all of them, a Financeiro the cost centres and the budgets.
 */
const companyTiles: Tile[] = [
  { label: fleetScreens.membersTile, to: '/empresa/membros', icon: IconUsers, hint: fleetScreens.membersHint, reads: api.members },
  {
    label: fleetScreens.fleetVehiclesTile,
    to: '/empresa/veiculos',
    icon: IconBuildingWarehouse,
    hint: fleetScreens.fleetVehiclesHint,
    reads: api.fleetVehicles,
  },
  {
    label: fleetScreens.auditTile,
    to: '/empresa/auditoria',
    icon: IconClipboardList,
    hint: fleetScreens.auditHint,
    reads: api.auditEvents,
  },
  {
    label: fleetScreens.costCentresTile,
    to: '/empresa/centros-de-custo',
    icon: IconChartPie,
    hint: fleetScreens.costCentresHint,
    reads: api.costCentres,
  },
  {
    label: fleetScreens.dualControlTile,
    to: '/empresa/dupla-aprovacao',
    icon: IconShieldCheck,
    hint: fleetScreens.dualControlHint,
    reads: api.withdrawalApprovals,
  },
  // Decision 78: a Gestor's and the Financeiro's.
  { label: budgetScreens.tile, to: '/empresa/orcamentos', icon: IconGauge, hint: budgetScreens.tileHint, reads: api.vehicleBudgets },
];

/** The tiles of a menu, two a row on a phone (an odd last one spans both), three from 768 px. */
function TileGrid({ label, tiles: shown }: { label: string; tiles: readonly Tile[] }) {
  return (
    <nav aria-label={label}>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        {shown.map(({ label: title, to, icon: TileIcon, hint }) => (
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
                {title}
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
  );
}

/** The tiles this role may open. */
const tilesFor = (role: ActingRole, list: readonly Tile[]) => list.filter((tile) => mayCall(role, tile.reads));

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
 * 'Pedágios sem cancela', and its notice, from the tolls' Resumo. Decision 77: what the role in use may
 * not do is not offered (the balance, each money action, each tile: the capability of the call it
 * makes); a role that may not read the balance (a Motorista) gets their vehicles and passages
 * instead; a company's Gestor gets its menu ('Membros', 'Veículos da frota', 'Auditoria', 'Centros de
 * custo', 'Dupla aprovação'), a Financeiro the part of it they may open ('Centros de custo'); the
 * person's own account, the companies' invitations.
 */
export function DashboardPage() {
  usePageTitle('Painel');
  const { role } = useActing();
  return mayCall(role, api.balance) ? <MoneyDashboard /> : <DriverDashboard />;
}

/** The company's menu: its pages the role in use may open. */
function CompanyMenu() {
  const { role, isCompany } = useActing();
  const shown = isCompany ? tilesFor(role, companyTiles) : [];
  if (shown.length === 0) return null;
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {fleetScreens.companyMenu}
      </Title>
      <TileGrid label={fleetScreens.companyMenu} tiles={shown} />
    </Stack>
  );
}

/** The dashboard of a role that reads the balance: the person on their own account, a Gestor, a Financeiro. */
function MoneyDashboard() {
  const online = useOnline();
  const { role, company } = useActing();
  const { dataUpdatedAt } = useBalance();
  const attention = useAttention();
  const freeFlow = useFreeFlowSummary(mayCall(role, api.freeFlowTolls));
  // Loading: said in the title's row; failed (only logged) or never loaded offline: no section at all.
  const movements = attention.data?.UltimasMovimentacoes;
  const notices = attention.data?.Avisos ?? [];
  // Decision 76: the free-flow notice is computed here from the tolls' Resumo (the attention read does not carry it).
  const views = dashboardNoticeViews(notices, freeFlow.data?.Sucesso ? freeFlow.data.Resumo : undefined);
  const withdraw = mayCall(role, api.withdraw);
  const buy = mayCall(role, api.createPixCharge);
  return (
    <Stack gap="lg">
      {/* As tall as a button from the first paint: the summary appears in it without moving anything. */}
      <Group justify="space-between" align="center" wrap="nowrap" gap="sm" mih={44}>
        <Title order={1}>Painel</Title>
        <NoticesSummary loading={attention.isLoading} views={views} />
      </Group>
      <OfflineNotice updatedAt={dataUpdatedAt} />
      <BalancePanel />

      {withdraw || buy ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {withdraw ? <WithdrawAction online={online} /> : null}
          {buy ? (
            <MoneyAction to="/saldo/comprar" online={online} icon={<IconQrcode size={22} aria-hidden />}>
              Comprar créditos de pedágio
            </MoneyAction>
          ) : null}
        </SimpleGrid>
      ) : null}

      <TileGrid label="Serviços" tiles={tilesFor(role, tiles)} />
      <CompanyMenu />
      {/* Decision 77: below the tiles, which they never move; on the person's own account only. */}
      <Invitations enabled={company === null} />

      {/* Issue 25: below the tiles, which they never move; the most pressing first. */}
      <AfterTiles views={views} movements={movements} />
    </Stack>
  );
}

/**
 * Decision 77: a Motorista on a company's account: no balance, no money, no notices (all of them the
 * account's money); the vehicles assigned to them, the way to their passages, and the screens of
 * their vehicles and tags.
 */
function DriverDashboard() {
  const { role, company } = useActing();
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" wrap="nowrap" gap="sm" mih={44}>
        <Title order={1}>Painel</Title>
      </Group>
      {company ? <Text c="dimmed">{fleetScreens.driverIntro(company.name)}</Text> : null}
      <DriverVehicles />
      {mayCall(role, api.vehiclePassages) ? (
        <Button
          component={Link}
          to="/veiculos/passagens"
          variant="light"
          size="md"
          leftSection={<IconRoad size={22} aria-hidden />}
          w={{ base: '100%', xs: 'auto' }}
          styles={wrapStyles}
        >
          {fleetScreens.driverVehicles.passages}
        </Button>
      ) : null}
      <TileGrid label="Serviços" tiles={tilesFor(role, tiles)} />
      <CompanyMenu />
    </Stack>
  );
}
