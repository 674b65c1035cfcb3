import { Button, Card, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconCash,
  IconFileInvoice,
  IconListDetails,
  IconQrcode,
  IconTag,
  IconTruck,
  type Icon,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { BalancePanel } from './BalancePanel';

/** Long labels wrap instead of being cut at 360 px. */
const wrapStyles = {
  root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 8 },
  label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.25 },
} as const;

const tiles: { label: string; to: string; icon: Icon; hint: string }[] = [
  { label: 'Veículos', to: '/veiculos/listar', icon: IconTruck, hint: 'Seus veículos' },
  { label: 'Tags', to: '/tags/listar', icon: IconTag, hint: 'Tags de pedágio' },
  { label: 'VPOs', to: '/vpos/listar', icon: IconFileInvoice, hint: 'Vale-pedágio' },
  { label: 'Extrato', to: '/extrato/listar', icon: IconListDetails, hint: 'Movimentações' },
];

/** SPEC 2 /dashboard: balance panel, the two money actions and the four tiles. */
export function DashboardPage() {
  usePageTitle('Painel');
  return (
    <Stack gap="lg">
      <Title order={1}>Painel</Title>
      <BalancePanel />

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Button component={Link} to="/saldo/retirar" size="md" fullWidth styles={wrapStyles} leftSection={<IconCash size={22} aria-hidden />}>
          Sacar saldo via Pix
        </Button>
        <Button component={Link} to="/saldo/comprar" size="md" fullWidth styles={wrapStyles} leftSection={<IconQrcode size={22} aria-hidden />}>
          Comprar créditos de pedágio
        </Button>
      </SimpleGrid>

      <nav aria-label="Serviços">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          {tiles.map(({ label, to, icon: TileIcon, hint }) => (
            <Card
              key={to}
              component={Link}
              to={to}
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
                <Text size="sm" c="dimmed">
                  {hint}
                </Text>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      </nav>
    </Stack>
  );
}
