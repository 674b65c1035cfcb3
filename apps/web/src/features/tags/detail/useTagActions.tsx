import { Text } from '@mantine/core';
import type { VehicleDetail, VehicleTag } from '@portal/contract';
import { formatBrl, formatSerial, messages, TAG_MONTHLY_FEE_CENTS, tagActionBlocker, type TagAction } from '@portal/domain';
import { IconBan, IconLock, IconLockOpen, IconPencil, IconPlayerPlay, IconReplace, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { confirmAction } from '../../../components/ui/confirm';
import { toast } from '../../../components/ui/toast';
import { toastFailure } from '../../../components/ui/toastFailure';
import { useActivateTag, useBlockTag, useCancelTag, useReleaseTag, useRemoveTag } from '../api/mutations';
import { ActivationFeeNote } from './ActivationFeeNote';

export interface TagActionItem {
  action: TagAction;
  label: string;
  icon: ReactNode;
  variant: 'filled' | 'light' | 'outline';
  color?: string;
  /** Why the action is not available now (the tag's state named), or null. */
  blocker: string | null;
  note?: ReactNode;
  /** A button runs this... */
  run?: () => void;
  /** ...a link opens this route (Editar, spec §2: with the vehicle and its tag as navigation state). */
  link?: { to: string; state: unknown };
}

const ICON = { size: 20, 'aria-hidden': true } as const;

/** A serial inside a sentence, kept on one line. */
function Serial({ children }: { children: string }) {
  return (
    <strong className="tabular-nums" style={{ whiteSpace: 'nowrap' }}>
      {children}
    </strong>
  );
}

/** The tag's actions, each with why it is unavailable, and which one is running. */
export function useTagActions(vehicle: VehicleDetail, tag: VehicleTag, operatorName: string | null, openReplace: () => void) {
  const navigate = useNavigate();
  const activate = useActivateTag();
  const release = useReleaseTag();
  const block = useBlockTag();
  const cancel = useCancelTag();
  const remove = useRemoveTag();
  const serial = formatSerial(tag.serialNumber);
  const blockerOf = (action: TagAction) => tagActionBlocker(action, { ...tag, operatorName });
  const outcome = (success: string, options: { title?: string; errorTitle?: string; after?: () => void } = {}) => ({
    onSuccess: () => {
      toast.success(success, options.title ? { title: options.title } : {});
      options.after?.();
    },
    onError: (error: unknown) => toastFailure(error, options.errorTitle),
  });
  /**
   * spec §9: block, cancel and delete ask first ('{verb} a tag {serial}{rest}'), and so does 'Ativar',
   * which charges the month (issue 33); `then` runs once confirmed. A press made before the app was
   * live is pressed again once it is (early-paint/): it opens this question, it never charges alone.
   */
  const askFirst =
    (title: string, verb: string, rest: string, labels: { confirmLabel: string; danger?: boolean }, then: () => void) => () =>
      void confirmAction({
        title,
        message: (
          <Text>
            {verb} a tag <Serial>{serial}</Serial>
            {rest}
          </Text>
        ),
        danger: true,
        ...labels,
      }).then((confirmed) => {
        if (confirmed) then();
      });

  const items: TagActionItem[] = [
    {
      action: 'activate',
      label: 'Ativar',
      icon: <IconPlayerPlay {...ICON} />,
      variant: 'filled',
      color: 'sign',
      blocker: blockerOf('activate'),
      note: <ActivationFeeNote />,
      run: askFirst(
        'Ativar tag',
        'Ativar',
        messages.tag.activateQuestionRest(formatBrl(TAG_MONTHLY_FEE_CENTS)),
        { confirmLabel: 'Ativar', danger: false },
        () => activate.mutate({ serialNumber: tag.serialNumber, licensePlate: vehicle.LicensePlate }, outcome(messages.tag.activated)),
      ),
    },
    {
      action: 'edit',
      label: 'Editar',
      icon: <IconPencil {...ICON} />,
      variant: 'light',
      blocker: blockerOf('edit'),
      link: { to: `/tags/editar/${vehicle.LicensePlate}`, state: { vehicle, tag } },
    },
    {
      action: 'release',
      label: 'Liberar',
      icon: <IconLockOpen {...ICON} />,
      variant: 'filled',
      blocker: blockerOf('release'),
      run: () => release.mutate(tag.serialNumber, outcome(messages.tag.released)),
    },
    {
      action: 'block',
      label: 'Bloquear',
      icon: <IconLock {...ICON} />,
      variant: 'outline',
      color: 'red',
      blocker: blockerOf('block'),
      run: askFirst(
        'Bloquear tag',
        'Bloquear',
        '? Enquanto bloqueada, ela não passa nas praças de pedágio. Você pode liberá-la depois.',
        { confirmLabel: 'Bloquear' },
        () => block.mutate(tag.serialNumber, outcome(messages.tag.blocked)),
      ),
    },
    {
      action: 'replace',
      label: 'Substituir',
      icon: <IconReplace {...ICON} />,
      variant: 'outline',
      blocker: blockerOf('replace'),
      run: openReplace,
    },
    {
      action: 'cancel',
      label: 'Cancelar',
      icon: <IconBan {...ICON} />,
      variant: 'outline',
      color: 'red',
      blocker: blockerOf('cancel'),
      run: askFirst('Cancelar tag', 'Cancelar', '? Uma tag cancelada não pode ser usada de novo.', { confirmLabel: 'Cancelar tag' }, () =>
        cancel.mutate(tag.serialNumber, outcome(messages.tag.cancelled)),
      ),
    },
    {
      action: 'remove',
      label: 'Excluir',
      icon: <IconTrash {...ICON} />,
      variant: 'outline',
      color: 'red',
      blocker: blockerOf('remove'),
      run: askFirst(
        'Excluir tag',
        'Excluir',
        ` do veículo ${vehicle.LicensePlate}? Esta ação não pode ser desfeita.`,
        { confirmLabel: 'Excluir' },
        () =>
          remove.mutate(
            tag.serialNumber,
            outcome(`A tag ${serial} foi excluída.`, {
              title: messages.tag.removed,
              errorTitle: messages.tag.removeFailed,
              after: () => void navigate('/tags/listar'),
            }),
          ),
      ),
    },
  ];

  const running: Partial<Record<TagAction, boolean>> = {
    activate: activate.isPending,
    release: release.isPending,
    block: block.isPending,
    cancel: cancel.isPending,
    remove: remove.isPending,
  };
  const pending = items.find((item) => running[item.action])?.action ?? null;
  return { items, pending };
}
