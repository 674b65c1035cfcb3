import { notifications } from '@mantine/notifications';
import { messages, TOAST_MS } from '@portal/domain';

export type ToastTone = 'success' | 'error' | 'warning' | 'info';

export interface ToastOptions {
  title?: string;
  message: string;
  tone?: ToastTone;
  /** Founding decision 16: 'top-center' on /saldo/*, 'top-right' (the default) elsewhere. */
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

/** Shows a toast. Needs <Notifications /> mounted (the authenticated shell does it). */
export function showToast({ title, message, tone = 'info', position, autoClose = TOAST_MS, id }: ToastOptions): string {
  return notifications.show({
    id,
    title,
    message,
    color: colors[tone],
    position,
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
