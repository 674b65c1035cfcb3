import { Box, Button, Group, Text } from '@mantine/core';
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { Dialog } from './Dialog';

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
const DIALOG_BACK_LABEL = 'Voltar';

interface PendingConfirm extends Required<ConfirmOptions> {
  id: number;
  /** False once answered: the dialog plays its closing transition, then leaves the list. */
  open: boolean;
  settle: (confirmed: boolean) => void;
}

/** The confirmations asked and not yet gone from the screen, oldest first. */
let confirms: readonly PendingConfirm[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function update(next: readonly PendingConfirm[]) {
  confirms = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => confirms;

/**
 * Opens a confirmation dialog ('Confirmar' / 'Voltar') and resolves true only when the driver
 * confirms; closing it any other way is 'Voltar'. Drawn by <ConfirmDialogs /> (the authenticated shell's).
 */
export function confirmAction({
  title,
  message,
  confirmLabel = 'Confirmar',
  cancelLabel = DIALOG_BACK_LABEL,
  danger = false,
}: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const id = nextId++;
    const settle = (confirmed: boolean) => {
      const asked = confirms.find((confirm) => confirm.id === id);
      if (!asked?.open) return;
      update(confirms.map((confirm) => (confirm.id === id ? { ...confirm, open: false } : confirm)));
      resolve(confirmed);
    };
    update([...confirms, { id, title, message, confirmLabel, cancelLabel, danger, open: true, settle }]);
  });
}

const forget = (id: number) => update(confirms.filter((confirm) => confirm.id !== id));

/** Every open confirmation answered 'Voltar' and gone: the shell that draws them is leaving (sign-out). */
function dismissAll() {
  for (const confirm of confirms) confirm.settle(false);
  update([]);
}

/** The open confirmations, the newest on top. Mounted once, by the authenticated shell. */
export function ConfirmDialogs() {
  const pending = useSyncExternalStore(subscribe, snapshot, snapshot);
  useEffect(() => dismissAll, []);
  return pending.map((confirm) => (
    <Dialog
      key={confirm.id}
      opened={confirm.open}
      onClose={() => confirm.settle(false)}
      onExitTransitionEnd={() => forget(confirm.id)}
      title={confirm.title}
      centered
      closeButtonProps={{ 'aria-label': 'Fechar' }}
    >
      <Box mb="md">{typeof confirm.message === 'string' ? <Text size="md">{confirm.message}</Text> : confirm.message}</Box>
      {/* Side by side when both labels fit; a longer one ('Pagar R$ 1.234,56') goes to a line of its own, never cut. */}
      <Group justify="flex-end" grow preventGrowOverflow={false}>
        <Button variant="default" onClick={() => confirm.settle(false)}>
          {confirm.cancelLabel}
        </Button>
        <Button color={confirm.danger ? 'red' : undefined} onClick={() => confirm.settle(true)}>
          {confirm.confirmLabel}
        </Button>
      </Group>
    </Dialog>
  ));
}
