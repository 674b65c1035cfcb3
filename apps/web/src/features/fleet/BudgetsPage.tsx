import { Checkbox, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { api, type VehicleBudget } from '@portal/contract';
import { budgetScreens as t } from '@portal/domain';
import { IconDeviceFloppy, IconLock, IconLockOpen, IconTrash } from '@tabler/icons-react';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { CardList } from '../../components/ui/CardList';
import { ControlledCurrencyInput } from '../../components/ui/CurrencyInput';
import { isListLoading, isListNotLoaded } from '../../components/ui/DataTable';
import { ListPagination } from '../../components/ui/ListPagination';
import { NetworkButton, NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { TintedBadge } from '../../components/ui/TintedBadge';
import { toastAnswer, toastFormAnswer } from '../../components/ui/toastFailure';
import { formatReais } from '../../lib/format';
import { usePageParam } from '../../lib/usePageParam';
import { CompanyPage } from './CompanyOnly';
import classes from './FleetPages.module.css';
import { useSetVehicleBudget, useVehicleBudgets } from './api/budgets';
import { BUDGET_SERVER_FIELDS, budgetResolver, budgetText, type BudgetFormInput, type BudgetFormValues } from './budgetForm';

/** 'AAAA-MM' as 'mm/aaaa'. */
const monthText = (month: string) => `${month.slice(5, 7)}/${month.slice(0, 4)}`;

/** What the month spent against the budget: a bar (red from 100 %, orange from 80 %) and its words. */
function Spending({ budget }: { budget: VehicleBudget }) {
  if (budget.orcamento === null) {
    return (
      <Text size="sm" c="dark.7">
        {t.spentNoBudget(formatReais(budget.gasto))}
      </Text>
    );
  }
  const color = budget.percentual >= 100 ? 'red.8' : budget.percentual >= 80 ? 'orange.7' : 'sign.7';
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600} className="tabular-nums" data-percent={budget.percentual}>
        {t.spentOf(formatReais(budget.gasto), formatReais(budget.orcamento), budget.percentual)}
      </Text>
      <Progress value={Math.min(budget.percentual, 100)} color={color} size="lg" radius="sm" aria-label={t.progressLabel(budget.placa)} />
    </Stack>
  );
}

/**
 * One vehicle: what its month spent, and its budget's form (the value and the block at 100 %),
 * checked by the contract's rule; 'Tirar orçamento' while it has one. The card is drawn anew when
 * the server's answer changes the budget (its key), which starts the form over from it.
 */
function BudgetCard({ budget, month }: { budget: VehicleBudget; month: string }) {
  const set = useSetVehicleBudget();
  const titleId = useId();
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<BudgetFormInput, unknown, BudgetFormValues>({ resolver: budgetResolver, defaultValues: budgetText(budget) });

  const onSubmit = handleSubmit((values) =>
    toastFormAnswer(set.mutateAsync({ id: budget.veiculoId, ...values }), { setError, fields: BUDGET_SERVER_FIELDS }, () => undefined),
  );

  return (
    <Paper component="article" withBorder radius="md" p="md" aria-labelledby={titleId} data-vehicle={budget.placa}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={2} size="h4" id={titleId} className="tabular-nums">
            {budget.placa}
          </Title>
          {budget.bloqueadaPeloOrcamento ? (
            <TintedBadge bg="red.8" c="white" Icon={IconLock} warning={false} variant="filled" data={{ 'data-blocked': 'orcamento' }}>
              {t.blockedBadge}
            </TintedBadge>
          ) : budget.bloquearNoLimite ? (
            <TintedBadge bg="gray.1" c="dark.8" Icon={IconLockOpen} warning={false} variant="light" data={{ 'data-block-at-limit': 'sim' }}>
              {t.blockAtLimitBadge}
            </TintedBadge>
          ) : null}
        </Group>
        <Text size="xs" c="dark.6" tt="uppercase" fw={700}>
          {t.month(monthText(month))}
        </Text>
        <Spending budget={budget} />
        <form noValidate aria-label={t.saveName(budget.placa)} onSubmit={(event) => void onSubmit(event)}>
          <Stack gap="sm">
            <ControlledCurrencyInput control={control} name="valor" label={t.value} size="md" maw={{ sm: 320 }} />
            <Controller
              control={control}
              name="bloquearNoLimite"
              render={({ field }) => (
                <Checkbox
                  size="md"
                  label={t.blockAtLimit}
                  description={t.blockAtLimitHint}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                  onBlur={field.onBlur}
                  name={field.name}
                />
              )}
            />
            <div className={classes.actions}>
              <NetworkSubmitButton
                loading={isSubmitting}
                disabled={set.isPending}
                leftSection={<IconDeviceFloppy size={22} aria-hidden />}
                aria-label={t.saveName(budget.placa)}
                maw={{ xs: 320 }}
              >
                {t.save}
              </NetworkSubmitButton>
              {budget.orcamento !== null ? (
                <NetworkButton
                  variant="default"
                  leftSection={<IconTrash size={20} aria-hidden />}
                  loading={set.isPending && !isSubmitting}
                  disabled={isSubmitting}
                  aria-label={t.removeName(budget.placa)}
                  onClick={() => void toastAnswer(set.mutateAsync({ id: budget.veiculoId, valor: null, bloquearNoLimite: false }))}
                >
                  {t.remove}
                </NetworkButton>
              ) : null}
            </div>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}

function Budgets() {
  const [page, setPage] = usePageParam();
  const { budgets, failure } = useVehicleBudgets(page);
  const loading = isListLoading(budgets);
  const month = budgets.data?.mes ?? '';
  return (
    <>
      <OfflineNotice updatedAt={budgets.dataUpdatedAt} />
      <CardList
        rows={budgets.data?.Orcamentos}
        notLoaded={isListNotLoaded(budgets)}
        loading={loading}
        failure={failure}
        failedText={t.failed}
        emptyText={t.empty}
        cardHeight={260}
      >
        {(rows) => (
          <Stack gap="sm">
            {rows.map((budget) => (
              <BudgetCard key={`${budget.veiculoId}:${budget.orcamento ?? ''}:${budget.bloquearNoLimite}`} budget={budget} month={month} />
            ))}
          </Stack>
        )}
      </CardList>
      <ListPagination
        page={page}
        totalPages={failure ? 0 : (budgets.data?.Paginacao.TotalPaginas ?? 0)}
        onPageChange={setPage}
        disabled={loading}
      />
    </>
  );
}

/** Decision 78 /empresa/orcamentos: each vehicle's monthly toll budget and what the month spent (Gestor and Financeiro). */
export function BudgetsPage() {
  return (
    <CompanyPage title={t.title} subtitle={t.subtitle} reads={api.vehicleBudgets}>
      <Budgets />
    </CompanyPage>
  );
}
