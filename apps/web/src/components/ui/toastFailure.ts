import { isApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { serverErrorText } from '../../lib/forms';
import { ERROR_TOAST_TITLE, toast, type ToastOptions } from './toast';

/**
 * spec §8's error toast for a failed call; none for a 401 (the driver is already on the way to
 * /login), nor for a company's account no longer usable (decision 77: the app said it, going back).
 */
export function toastFailure(error: unknown, title: string = ERROR_TOAST_TITLE): void {
  if (isApiError(error) && (error.isUnauthorized || error.endsAccountAccess)) return;
  toast.error(errorMessage(error), { title });
}

/**
 * A form's refused write: the server's field messages under their fields (serverErrorText), the
 * rest in spec §8's error toast, where the screen places its toasts.
 */
export function toastFormFailure<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: Readonly<Record<string, Path<T>>>,
  position?: ToastOptions['position'],
): void {
  const message = serverErrorText(error, setError, fields);
  if (message) toast.error(message, { title: ERROR_TOAST_TITLE, position });
}
