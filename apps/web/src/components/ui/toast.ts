import { notifications } from '@mantine/notifications';
import { messages, TOAST_MS } from '@portal/domain';

export type ToastTone = 'success' | 'error' | 'warning' | 'info';

export interface ToastOptions {
  title?: string;
  message: string;
  tone?: ToastTone;
  /**
   * Founding decision 16: 'top-center' on /saldo/*, 'top-right' (the default) elsewhere; both begin
   * under the shell's header (issue 25, app/global.css), and close with their button or a swipe.
   */
  position?: 'top-right' | 'top-center';
  /** Milliseconds; default 5 s (TOAST_MS). */
  autoClose?: number | false;
  id?: string;
}

const colors: Record<ToastTone, string> = {
  success: 'sign',
  error: 'red',
  warning: 'yellow',
  info: 'road',
};

/**
 * Narrower than two toasts side by side (two of 440 px and their margins), 'top-center' and
 * 'top-right' are the same place, and two toasts there covered each other (issue 25: one from the
 * screen before, one from this one). There they share the one container, and stack.
 */
const ONE_PLACE = '(max-width: 58em)';

function placement(position: ToastOptions['position']): ToastOptions['position'] {
  return position !== undefined && typeof window !== 'undefined' && window.matchMedia(ONE_PLACE).matches ? undefined : position;
}

/** Shows a toast. Needs <Notifications /> mounted (the authenticated shell does it). */
export function showToast({ title, message, tone = 'info', position, autoClose = TOAST_MS, id }: ToastOptions): string {
  return notifications.show({
    id,
    title,
    message,
    color: colors[tone],
    position: placement(position),
    autoClose,
    withBorder: true,
    closeButtonProps: { 'aria-label': 'Fechar aviso' },
  });
}

export const toast = {
  success: (message: string, options: Omit<ToastOptions, 'message' | 'tone'> = {}) => showToast({ ...options, message, tone: 'success' }),
  error: (message: string, options: Omit<ToastOptions, 'message' | 'tone'> = {}) => showToast({ ...options, message, tone: 'error' }),
  warning: (message: string, options: Omit<ToastOptions, 'message' | 'tone'> = {}) => showToast({ ...options, message, tone: 'warning' }),
  info: (message: string, options: Omit<ToastOptions, 'message' | 'tone'> = {}) => showToast({ ...options, message, tone: 'info' }),
};

/** spec §8 titles. */
export const ERROR_TOAST_TITLE = messages.toast.errorTitle;
export const SUCCESS_TOAST_TITLE = messages.toast.successTitle;
