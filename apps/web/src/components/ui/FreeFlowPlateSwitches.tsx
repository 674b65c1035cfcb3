// Only the free-flow switches use Mantine's Switch: its stylesheet comes with them (app/styles.ts).
import '@mantine/core/styles/Switch.css';
import { Skeleton, Stack, Switch, Text } from '@mantine/core';
import type { FreeFlowPlate } from '@portal/contract';
import { freeFlowMessages } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { freeFlowPlatesQuery, useSetFreeFlowPlates } from '../../lib/freeFlow';
import { freeFlowTexts as t } from '../../lib/freeFlowTexts';
import { formatDateTimeOrNull } from '../../lib/format';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { confirmAction } from './confirm';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast } from './toast';
import { toastFailure } from './toastFailure';
import classes from './FreeFlowSwitch.module.css';

const switchClasses = { root: classes.root, body: classes.body, label: classes.label };

/**
 * Decision 76: what the driver reads and accepts before a plate's tolls are kept (the consent,
 * the domain's freeFlowMessages.consent); `plates`: the plates it is asked for.
 */
export function askFreeFlowConsent(plates: readonly string[], all = false): Promise<boolean> {
  return confirmAction({
    title: all ? t.consentTitleAll : t.consentTitle,
    message: (
      <Stack gap="xs">
        {plates.length > 0 ? (
          <Text fw={700} className="tabular-nums">
            {plates.map(t.consentPlate).join(', ')}
          </Text>
        ) : null}
        <Text size="sm" data-consent>
          {freeFlowMessages.consent}
        </Text>
      </Stack>
    ),
    confirmLabel: t.consentConfirm,
  });
}

/**
 * A plate's two switches: 'Pedágio sem cancela' (turning it on shows the consent and asks; turning
 * it off warns that the plate's open tolls kept here are erased) and, while on, 'Pagar
 * automaticamente' (`withHelp`: what it does, under it). POST /api/livre-passagem/placas for this vehicle; the switch shows the choice
 * being sent, and is disabled while it goes and with no connection.
 */
export function FreeFlowPlateSwitches({ plate, withHelp = false }: { plate: FreeFlowPlate; withHelp?: boolean }) {
  const online = useOnline();
  const set = useSetFreeFlowPlates();
  const sending = set.isPending ? set.variables : undefined;
  const ativo = sending?.ativo ?? plate.ativo;
  const automatico = sending ? Boolean(sending.automatico) : plate.automatico;
  const disabled = !online || set.isPending;
  const since = plate.ativo ? formatDateTimeOrNull(plate.desde) : null;

  const send = (ativoNext: boolean, automaticoNext: boolean) =>
    set.mutate(
      { veiculoId: plate.veiculoId, ativo: ativoNext, automatico: automaticoNext },
      {
        onSuccess: (answer) => {
          if (answer.Sucesso) toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE });
          else toast.error(answer.Mensagem, { title: ERROR_TOAST_TITLE });
        },
        onError: (error) => toastFailure(error),
      },
    );

  const toggle = async (next: boolean) => {
    const confirmed = next
      ? await askFreeFlowConsent([plate.placa])
      : await confirmAction({ title: t.offTitleDialog, message: t.offQuestion(plate.placa), confirmLabel: t.offConfirm, danger: true });
    if (confirmed) send(next, next ? plate.automatico : false);
  };

  return (
    <div className={classes.switches} data-free-flow-plate={plate.placa}>
      <Switch
        classNames={switchClasses}
        size="md"
        label={freeFlowMessages.optInLabel}
        aria-label={t.optInName(plate.placa)}
        checked={ativo}
        disabled={disabled}
        aria-describedby={online ? undefined : OFFLINE_REASON_ID}
        onChange={(event) => void toggle(event.currentTarget.checked)}
      />
      {ativo ? (
        <Switch
          classNames={switchClasses}
          size="md"
          label={freeFlowMessages.autoPay}
          aria-label={t.autoPayName(plate.placa)}
          description={withHelp ? freeFlowMessages.autoPayHelp : undefined}
          checked={automatico}
          disabled={disabled}
          aria-describedby={online ? undefined : OFFLINE_REASON_ID}
          onChange={(event) => send(true, event.currentTarget.checked)}
        />
      ) : null}
      {since ? (
        <Text size="xs" c="gray.7">
          {t.since(since)}
        </Text>
      ) : null}
    </div>
  );
}

/**
 * A vehicle's switches where the vehicle is listed (Veículos): its plate's choice from GET
 * /api/livre-passagem/placas, read once for the whole list. A vehicle the read does not name yet
 * (just registered) is off.
 */
export function VehicleFreeFlowSwitches({ vehicleId, plate }: { vehicleId: number; plate: string }) {
  const plates = useQuery(freeFlowPlatesQuery);
  if (plates.isPending) return <Skeleton height={44} width={200} radius="sm" aria-hidden />;
  if (plates.isError && !plates.data) {
    return (
      <Text size="sm" c="gray.7">
        {freeFlowMessages.optInLabel}: {t.choiceUnavailable}
      </Text>
    );
  }
  const choice = plates.data?.Placas.find((entry) => entry.veiculoId === vehicleId) ?? {
    veiculoId: vehicleId,
    placa: plate,
    ativo: false,
    automatico: false,
    desde: null,
  };
  return <FreeFlowPlateSwitches plate={choice} />;
}
