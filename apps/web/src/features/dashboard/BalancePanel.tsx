import { Badge, Button, Divider, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { messages } from '@portal/domain';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect } from 'react';
import { EARLY_BALANCE_ATTRIBUTE, SLOT_ATTRIBUTE } from '../../early-paint/balanceMarkup';
import { Money } from '../../components/ui/Money';
import { useBalance } from '../../lib/balance';
import { useHydrated } from '../../lib/useStoredValue';

const HERO_SIZE = 'calc(2.25rem * var(--mantine-scale))';
const HERO_LINE = `calc(${HERO_SIZE} * 1.2)`;
const SMALL_LINE = 'calc(var(--mantine-font-size-xl) * 1.2)';

/** A balance as the panel shows it (also the build's templates for the first script: early-paint/). */
export function BalanceFigure({ value, hero }: { value: number; hero: boolean }) {
  return <Money reais={value} colorPositive fz={hero ? HERO_SIZE : 'xl'} fw={700} lh={1.2} />;
}

function Figure({ label, value, loading, hero }: { label: string; value: number | undefined; loading: boolean; hero: boolean }) {
  // Issue 25: a balance below zero says so in words too. Drawn after hydration (the first script
  // paints the figure alone), inside the label's line: nothing moves when it appears.
  const hydrated = useHydrated();
  const negative = hero && hydrated && !loading && value !== undefined && value < 0;
  return (
    <Stack gap={2}>
      <Text component="h2" size={hero ? 'md' : 'sm'} fw={600} c="dimmed" m={0}>
        {label}
        {negative ? (
          <Badge component="span" color="red" variant="light" size="md" tt="none" ml="xs" style={{ verticalAlign: 'text-bottom' }}>
            {messages.attention.negativeBalanceMark}
          </Badge>
        ) : null}
      </Text>
      {loading || value === undefined ? (
        // Exactly the figure's line box (font size x line height 1.2): nothing moves when it arrives.
        <Skeleton height={hero ? HERO_LINE : SMALL_LINE} width={hero ? 220 : 160} radius="sm" {...{ [SLOT_ATTRIBUTE]: '' }} />
      ) : (
        <BalanceFigure value={value} hero={hero} />
      )}
    </Stack>
  );
}

/** 'Saldo de pedágio' (Saldo) and 'Saldo em outras plataformas' (SaldoTerceiro). spec §8: failures only logged. */
export function BalancePanel() {
  const { data, isPending, isError, error, refetch, isFetching } = useBalance();

  useEffect(() => {
    if (isError) console.error('Falha ao carregar o saldo', error);
  }, [isError, error]);

  return (
    <Paper withBorder shadow="xs" p="lg" radius="lg" aria-busy={isPending} aria-live="polite" {...{ [EARLY_BALANCE_ATTRIBUTE]: '' }}>
      {isError && !data ? (
        <Stack gap="sm" align="flex-start">
          <Text fw={600}>Saldo de pedágio</Text>
          <Text>Não foi possível mostrar seu saldo agora. Tente novamente em instantes.</Text>
          <Button
            variant="light"
            size="sm"
            leftSection={<IconRefresh size={18} aria-hidden />}
            onClick={() => void refetch()}
            loading={isFetching}
          >
            Tentar novamente
          </Button>
        </Stack>
      ) : (
        <Stack gap="md">
          <Figure label="Saldo de pedágio" value={data?.Saldo} loading={isPending} hero />
          <Divider />
          <Figure label="Saldo em outras plataformas" value={data?.SaldoTerceiro} loading={isPending} hero={false} />
        </Stack>
      )}
    </Paper>
  );
}
