import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  /** The way back; 'Voltar' unless a dialog has a reason for another word. */
  cancelLabel?: string;
  /** Red confirm button for destructive actions (delete, block, cancel, reject). */
  danger?: boolean;
}

/**
 * The way back of every dialog. Issue 25: 'Cancelar' is also a tag action (and 'Cancelar tag' its
 * confirmation), so a dialog that closed with 'Cancelar' could read as the action itself.
 */
export const DIALOG_BACK_LABEL = 'Voltar';

/**
 * Opens a confirmation dialog ('Confirmar' / 'Voltar') and resolves true only when the driver
 * confirms. Needs <ModalsProvider> (mounted by the authenticated shell).
 */
export function confirmAction({
  title,
  message,
  confirmLabel = 'Confirmar',
  cancelLabel = DIALOG_BACK_LABEL,
  danger = false,
}: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: boolean) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    modals.openConfirmModal({
      title,
      centered: true,
      children: typeof message === 'string' ? <Text size="md">{message}</Text> : message,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: { color: danger ? 'red' : undefined },
      groupProps: { grow: true },
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  });
}
