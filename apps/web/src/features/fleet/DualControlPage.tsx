import { Paper, Stack, Text, Title } from '@mantine/core';
import { api, type PendingWithdrawal, type WithdrawalApprovalsResponse } from '@portal/contract';
import { fleetScreens, formatDateTime, withdrawalApprovalStateLabels, type WithdrawalApprovalStateName } from '@portal/domain';
import {
  IconCheck,
  IconCircleCheck,
  IconCircleX,
  IconClockX,
  IconDeviceFloppy,
  IconHourglassHigh,
  IconShieldOff,
  IconX,
  type Icon,
} from '@tabler/icons-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { CardList } from '../../components/ui/CardList';
import { confirmAction } from '../../components/ui/confirm';
import { ControlledCurrencyInput } from '../../components/ui/CurrencyInput';
import { isListLoading, isListNotLoaded } from '../../components/ui/DataTable';
import { DateTime } from '../../components/ui/DateTime';
import { DetailField, DetailList } from '../../components/ui/DetailFields';
import { Money } from '../../components/ui/Money';
import { NetworkButton, NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { TintedBadge } from '../../components/ui/TintedBadge';
import { TitledSection } from '../../components/ui/TitledSection';
import { toastAnswer, toastFormAnswer } from '../../components/ui/toastFailure';
import { formatReais } from '../../lib/format';
import { useApproveWithdrawal, useDeclineWithdrawal, useSetApprovalThreshold } from './api/mutations';
import { useWithdrawalApprovals } from './api/queries';
import { CompanyPage } from './CompanyOnly';
import classes from './FleetPages.module.css';
import {
  THRESHOLD_SERVER_FIELDS,
  thresholdResolver,
  thresholdText,
  type ThresholdFormInput,
  type ThresholdFormValues,
} from './thresholdForm';

const t = fleetScreens.dualControl;

type Threshold = Pick<WithdrawalApprovalsResponse, 'limite' | 'pendente'>;

/** 'Saques acima de R$ 5.000,00 esperam…' or 'Desligada…', and a change still waiting its 24 hours. */
function ThresholdState({ limite, pendente }: Threshold) {
  let waiting: string | null = null;
  if (pendente) {
    const when = formatDateTime(pendente.aPartirDe);
    waiting = pendente.valor === null ? t.pendingOff(when) : t.pendingOn(when, formatReais(pendente.valor));
  }
  return (
    <Stack gap={4} data-threshold={limite ?? 'desligada'}>
      <Text fw={700}>{limite === null ? t.thresholdOff : t.thresholdOn(formatReais(limite))}</Text>
      {waiting ? (
        <Text size="sm" c="dark.7" data-pending>
          {waiting}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The value above which a withdrawal waits for another Gestor, checked by the contract's rule before
 * it is sent, and 'Desligar' while it is on (and not already being turned off). The server's Mensagem
 * says when a change holds (at once, or in 24 hours) in a toast.
 */
function ThresholdSection({ threshold }: { threshold: Threshold }) {
  const set = useSetApprovalThreshold();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting },
  } = useForm<ThresholdFormInput, unknown, ThresholdFormValues>({ resolver: thresholdResolver, defaultValues: thresholdText(threshold) });
  const on = threshold.limite !== null && threshold.pendente?.valor !== null;

  const onSubmit = handleSubmit((values) =>
    toastFormAnswer(set.mutateAsync(values), { setError, fields: THRESHOLD_SERVER_FIELDS }, (answer) => reset(thresholdText(answer)), {
      autoClose: 10_000,
    }),
  );

  return (
    <TitledSection id="valor-dupla-aprovacao" title={t.thresholdTitle} hint={t.rule}>
      <ThresholdState limite={threshold.limite} pendente={threshold.pendente} />
      <form noValidate aria-label={t.thresholdTitle} onSubmit={(event) => void onSubmit(event)}>
        <Stack gap="md">
          <ControlledCurrencyInput control={control} name="valor" label={t.value} size="md" maw={{ sm: 320 }} />
          <div className={classes.actions}>
            <NetworkSubmitButton
              loading={isSubmitting}
              disabled={set.isPending}
              leftSection={<IconDeviceFloppy size={22} aria-hidden />}
              maw={{ xs: 320 }}
            >
              {t.save}
            </NetworkSubmitButton>
            {on ? (
              <NetworkButton
                variant="default"
                leftSection={<IconShieldOff size={20} aria-hidden />}
                loading={set.isPending && !isSubmitting}
                disabled={isSubmitting}
                onClick={() => void toastAnswer(set.mutateAsync({ valor: null }))}
              >
                {t.turnOff}
              </NetworkButton>
            ) : null}
          </div>
        </Stack>
      </form>
    </TitledSection>
  );
}

const stateLooks: Record<WithdrawalApprovalStateName, { bg: string; c: string; Icon: Icon; warning: boolean }> = {
  PENDENTE: { bg: 'yellow.1', c: 'dark.8', Icon: IconHourglassHigh, warning: true },
  APROVADO: { bg: 'sign.8', c: 'white', Icon: IconCircleCheck, warning: false },
  RECUSADO: { bg: 'gray.7', c: 'white', Icon: IconCircleX, warning: false },
  EXPIRADO: { bg: 'gray.1', c: 'dark.8', Icon: IconClockX, warning: false },
};

function ApprovalStateBadge({ estado }: { estado: WithdrawalApprovalStateName }) {
  const { bg, c, Icon, warning } = stateLooks[estado];
  return (
    <TintedBadge bg={bg} c={c} Icon={Icon} warning={warning} variant="filled" data={{ 'data-state': estado }}>
      {withdrawalApprovalStateLabels[estado]}
    </TintedBadge>
  );
}

/**
 * 'Aprovar' (asked first: the money leaves at once) and 'Recusar' of a withdrawal another Gestor
 * asked for. The answer redraws the card without these buttons, so the promise tells its Mensagem.
 */
function Decision({ withdrawal }: { withdrawal: PendingWithdrawal }) {
  const approve = useApproveWithdrawal();
  const decline = useDeclineWithdrawal();
  const value = formatReais(withdrawal.valor);
  const busy = approve.isPending || decline.isPending;

  const onApprove = async () => {
    const confirmed = await confirmAction({
      title: t.approveTitle,
      message: t.approveQuestion(value, withdrawal.chave),
      confirmLabel: t.approve,
    });
    if (confirmed) await toastAnswer(approve.mutateAsync(withdrawal.id));
  };

  return (
    <div className={classes.actions}>
      <NetworkButton
        disabled={busy}
        leftSection={<IconCheck size={20} aria-hidden />}
        loading={approve.isPending}
        aria-label={t.approveName(value)}
        onClick={() => void onApprove()}
      >
        {t.approve}
      </NetworkButton>
      <NetworkButton
        disabled={busy}
        variant="light"
        color="red"
        leftSection={<IconX size={20} aria-hidden />}
        loading={decline.isPending}
        aria-label={t.declineName(value)}
        onClick={() => void toastAnswer(decline.mutateAsync(withdrawal.id))}
      >
        {t.decline}
      </NetworkButton>
    </div>
  );
}

/** One withdrawal: value and state, the key (masked), who asked and when, until when it waits, who decided; what may be done. */
function WithdrawalCard({ withdrawal }: { withdrawal: PendingWithdrawal }) {
  const titleId = useId();
  const pending = withdrawal.estado === 'PENDENTE';
  return (
    <Paper component="article" withBorder radius="md" p="sm" aria-labelledby={titleId} data-approval={withdrawal.id}>
      <Stack gap="xs">
        <div className={classes.cardHeader}>
          <Title order={3} size="h4" id={titleId}>
            <Money reais={withdrawal.valor} />
          </Title>
          <ApprovalStateBadge estado={withdrawal.estado} />
        </div>
        <DetailList>
          <DetailField label={t.key}>
            <span style={{ overflowWrap: 'anywhere' }}>{withdrawal.chave}</span>
          </DetailField>
          <DetailField label={t.askedBy}>
            {withdrawal.pedidoPor} · <DateTime value={withdrawal.pedidoEm} />
          </DetailField>
          {pending || withdrawal.estado === 'EXPIRADO' ? (
            <DetailField label={pending ? t.expiresAt : t.expiredAt}>
              <DateTime value={withdrawal.expiraEm} />
            </DetailField>
          ) : null}
          {withdrawal.decididoPor !== null ? (
            <DetailField label={t.decidedBy}>
              {withdrawal.decididoPor} · <DateTime value={withdrawal.decididoEm} />
            </DetailField>
          ) : null}
          {withdrawal.descricao ? (
            <DetailField label={t.description} text>
              {withdrawal.descricao}
            </DetailField>
          ) : null}
        </DetailList>
        {pending && withdrawal.podeAprovar ? <Decision withdrawal={withdrawal} /> : null}
        {pending && !withdrawal.podeAprovar ? (
          <Text size="sm" fw={600} c="dark.8" data-own-request>
            {t.ownRequest}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The ones still waiting first, each group in the server's order (newest first). */
const pendingFirst = (rows: readonly PendingWithdrawal[]) =>
  [...rows].sort((a, b) => Number(b.estado === 'PENDENTE') - Number(a.estado === 'PENDENTE'));

/**
 * Decision 77 /empresa/dupla-aprovacao: for a company's Gestor, the value above which a withdrawal
 * waits for another Gestor (and a change waiting its 24 hours), changed or turned off here; and the
 * withdrawals that asked for it, the pending ones first, each approved (asked first) or declined by a
 * Gestor other than the one who asked.
 */
export function DualControlPage() {
  return (
    <CompanyPage title={t.title} subtitle={t.subtitle} reads={api.withdrawalApprovals}>
      <DualControl />
    </CompanyPage>
  );
}

function DualControl() {
  const { approvals, failure } = useWithdrawalApprovals();
  const data = approvals.data;
  return (
    <>
      <OfflineNotice updatedAt={approvals.dataUpdatedAt} />
      {/* Drawn anew from what the server says (its key): the field starts from the value asked last. */}
      {data ? <ThresholdSection key={`${data.limite}:${data.pendente?.valor}:${data.pendente?.aPartirDe}`} threshold={data} /> : null}
      <TitledSection id="saques-dupla-aprovacao" title={t.listTitle}>
        <CardList
          rows={data ? pendingFirst(data.Saques) : undefined}
          notLoaded={isListNotLoaded(approvals)}
          loading={isListLoading(approvals)}
          failure={failure}
          failedText={t.failed}
          emptyText={t.empty}
          cardHeight={170}
          loadingLabel={t.loading}
        >
          {(shown) => (
            <Stack gap="sm">
              {shown.map((withdrawal) => (
                <WithdrawalCard key={withdrawal.id} withdrawal={withdrawal} />
              ))}
            </Stack>
          )}
        </CardList>
      </TitledSection>
    </>
  );
}
