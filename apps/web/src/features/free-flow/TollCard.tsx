import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { api, type FreeFlowToll } from '@portal/contract';
import { CONTEST_STATES, freeFlowMessages, type ContestState } from '@portal/domain';
import {
  IconAlertOctagon,
  IconAlertTriangle,
  IconCash,
  IconFileCertificate,
  IconMessageReport,
  IconReceipt,
  IconWallet,
} from '@tabler/icons-react';
import { useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ContestStateBadge } from '../../components/ui/ContestBadge';
import { confirmAction } from '../../components/ui/confirm';
import { DateTime } from '../../components/ui/DateTime';
import { DetailField, DetailList } from '../../components/ui/DetailFields';
import { Money } from '../../components/ui/Money';
import { readableAlert } from '../../components/ui/readableAlert';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFailure } from '../../components/ui/toastFailure';
import { formatReais } from '../../lib/format';
import { daysLeftText, dueDayText, freeFlowTexts as t, payerLabel } from '../../lib/freeFlowTexts';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { mayCall, useActing } from '../../lib/actingAccount';
import { useFreeFlowProof, useFreeFlowReceipt, usePayFreeFlowToll } from './api/mutations';
import { ContestTollDialog } from './ContestTollDialog';
import { FreeFlowStateBadge } from './FreeFlowStateBadge';
import { PassageCard, PlateText } from '../../components/ui/PassageCard';
import classes from './FreeFlowPage.module.css';

const ICON = { size: 20, 'aria-hidden': true } as const;

const isContestState = (value: string): value is ContestState => (CONTEST_STATES as readonly string[]).includes(value);

/** What a network action's button carries offline: disabled, pointing at the page's reason. */
function offline(online: boolean) {
  return { disabled: !online, 'aria-describedby': online ? undefined : OFFLINE_REASON_ID };
}

/**
 * 'Pagar': asks first (the value, paid from Saldo), then sends once: a second tap while the question
 * is open or the payment is on its way does nothing (the button is disabled), and a payment whose
 * answer was lost is sent again with its Idempotency-Key (lib/api.ts). The answer's Mensagem is the toast.
 */
function PayButton({ toll }: { toll: FreeFlowToll }) {
  const online = useOnline();
  const pay = usePayFreeFlowToll();
  const [asking, setAsking] = useState(false);
  const busy = useRef(false);
  const value = formatReais(toll.valor);

  const onPay = async () => {
    if (busy.current) return;
    busy.current = true;
    setAsking(true);
    const confirmed = await confirmAction({
      title: t.payTitle,
      message: (
        <Stack gap="xs">
          <Text>{t.payQuestion(value, toll.portico, toll.placa)}</Text>
          <Text size="sm" c="gray.8">
            {t.payFrom}
          </Text>
        </Stack>
      ),
      confirmLabel: `${t.pay} ${value}`,
    });
    setAsking(false);
    if (!confirmed) {
      busy.current = false;
      return;
    }
    pay.mutate(toll.id, {
      onSuccess: (answer) => {
        if (answer.Sucesso) toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE, autoClose: 10_000 });
        else toast.error(answer.Mensagem, { title: ERROR_TOAST_TITLE });
      },
      onError: (error) => toastFailure(error),
      onSettled: () => {
        busy.current = false;
      },
    });
  };

  return (
    <Button
      size="md"
      leftSection={<IconCash {...ICON} />}
      loading={pay.isPending}
      {...offline(online)}
      disabled={!online || asking || pay.isPending}
      aria-label={t.payName(value, toll.portico)}
      onClick={() => void onPay()}
    >
      {t.pay}
    </Button>
  );
}

/** A PDF of the toll: saved under the server's name; needs the network. */
function PdfButton({
  label,
  name,
  icon,
  pending,
  onPress,
}: {
  label: string;
  name: string;
  icon: ReactNode;
  pending: boolean;
  onPress: () => void;
}) {
  const online = useOnline();
  return (
    <Button size="md" variant="light" leftSection={icon} loading={pending} {...offline(online)} aria-label={name} onClick={onPress}>
      {label}
    </Button>
  );
}

function ReceiptButton({ toll }: { toll: FreeFlowToll }) {
  const receipt = useFreeFlowReceipt();
  return (
    <PdfButton
      label={t.receipt}
      name={t.receiptName(toll.portico)}
      icon={<IconReceipt {...ICON} />}
      pending={receipt.isPending}
      onPress={() => receipt.mutate(toll.id, { onError: (error) => toastFailure(error) })}
    />
  );
}

function ProofButton({ toll }: { toll: FreeFlowToll }) {
  const proof = useFreeFlowProof();
  return (
    <PdfButton
      label={t.proof}
      name={t.proofName(toll.portico)}
      icon={<IconFileCertificate {...ICON} />}
      pending={proof.isPending}
      onPress={() => proof.mutate(toll.id, { onError: (error) => toastFailure(error) })}
    />
  );
}

/** 'Contestar' and its dialog of three reasons. */
function ContestButton({ toll, variant }: { toll: FreeFlowToll; variant: 'filled' | 'light' }) {
  const online = useOnline();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size="md"
        variant={variant}
        leftSection={<IconMessageReport {...ICON} />}
        {...offline(online)}
        aria-label={t.contestName(toll.portico)}
        onClick={() => setOpened(true)}
      >
        {t.contest}
      </Button>
      <ContestTollDialog toll={toll} opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}

/** What can still be owed: open or past its day. */
const isOwed = (toll: FreeFlowToll) => toll.estado === 'EM_ABERTO' || toll.estado === 'VENCIDO';

/** The deadline and its days: 'dd/mm/aaaa · faltam N dias' while owed, the day alone otherwise. */
function Deadline({ toll }: { toll: FreeFlowToll }) {
  const day = dueDayText(toll.vencimento);
  if (!isOwed(toll)) return <span className="tabular-nums">{day}</span>;
  const overdue = toll.diasRestantes < 0;
  return (
    <span>
      <span className="tabular-nums">{day}</span>{' '}
      <Text component="span" inherit fw={700} c={overdue ? 'red.9' : toll.diasRestantes <= 1 ? 'orange.9' : undefined} data-days-left>
        · {daysLeftText(toll.diasRestantes)}
      </Text>
    </span>
  );
}

/**
 * Decision 76: one free-flow toll: gantry, highway and km, the passage in São Paulo time, the value,
 * the deadline with its days, its state; the tag-was-active warning with 'Contestar', the wait for
 * Saldo, the evasion risk once overdue; 'Pagar', 'Ver comprovante', 'Comprovante para recurso'.
 */
export function TollCard({ toll }: { toll: FreeFlowToll }) {
  // Decision 77: a Motorista sees, contests and proves their trucks' tolls; paying and receipts are the money's roles.
  const { role } = useActing();
  const owed = isOwed(toll);
  const contested = toll.contestacao;
  // Flagged: the warning carries 'Contestar'. Otherwise a toll still standing can be contested among the actions.
  const flagged = toll.sinalizacao !== null && contested === null && toll.estado !== 'CANCELADO';
  const contestable = !flagged && contested === null && toll.estado !== 'CANCELADO';
  return (
    <PassageCard
      title={toll.portico}
      badges={
        <Group gap={6}>
          <FreeFlowStateBadge estado={toll.estado} />
          {contested && isContestState(contested.estado) ? <ContestStateBadge estado={contested.estado} atrasada={false} /> : null}
        </Group>
      }
      passage={
        <>
          <span>
            {t.highwayKm(toll.rodovia, toll.km)}, {t.direction(toll.sentido)}
          </span>
          <DateTime value={toll.dataPassagem} />
          <PlateText label={t.plate} plate={toll.placa} />
        </>
      }
      marks={{ 'data-toll': toll.id, 'data-estado': toll.estado }}
      style={toll.estado === 'VENCIDO' ? { borderInlineStart: '4px solid var(--mantine-color-red-8)' } : undefined}
    >
      <DetailList>
        <DetailField label={t.value}>
          <Money reais={toll.valor} fw={700} style={{ whiteSpace: 'nowrap' }} />
        </DetailField>
        <DetailField label={t.due}>
          <Deadline toll={toll} />
        </DetailField>
        {toll.pagoEm ? (
          <DetailField label={t.paidAt}>
            <DateTime value={toll.pagoEm} />
          </DetailField>
        ) : null}
        {toll.pagoPor ? <DetailField label={t.paidBy}>{payerLabel(toll.pagoPor)}</DetailField> : null}
      </DetailList>

      {toll.estado === 'VENCIDO' ? (
        <Alert
          color="red"
          variant="light"
          radius="md"
          icon={<IconAlertOctagon aria-hidden />}
          title={freeFlowMessages.overdue}
          styles={readableAlert}
          data-overdue
        >
          <Text size="sm" c="dark.7">
            {freeFlowMessages.overdueWhatToDo}
          </Text>
        </Alert>
      ) : null}

      {flagged ? (
        <Alert color="yellow" variant="light" radius="md" icon={<IconAlertTriangle aria-hidden />} styles={readableAlert} data-flag>
          <Stack gap="xs" align="flex-start">
            <Text size="sm" fw={700} c="dark.8">
              {freeFlowMessages.tagWasActive}
            </Text>
            <ContestButton toll={toll} variant="filled" />
          </Stack>
        </Alert>
      ) : null}

      {toll.aguardandoSaldo && owed ? (
        <Group gap="xs" wrap="nowrap" align="flex-start" data-waiting-balance>
          <IconWallet size={20} aria-hidden style={{ flexShrink: 0, color: 'var(--mantine-color-road-8)' }} />
          <Stack gap={2} align="flex-start">
            <Text size="sm">{t.waitingBalance}</Text>
            <Anchor component={Link} to="/saldo/comprar" size="sm" fw={600}>
              {t.buyCredit}
            </Anchor>
          </Stack>
        </Group>
      ) : null}

      <div className={classes.actions}>
        {owed && mayCall(role, api.payFreeFlowToll) ? <PayButton toll={toll} /> : null}
        {toll.estado === 'PAGO' && mayCall(role, api.freeFlowTollReceipt) ? <ReceiptButton toll={toll} /> : null}
        <ProofButton toll={toll} />
        {contestable ? <ContestButton toll={toll} variant="light" /> : null}
      </div>
    </PassageCard>
  );
}
