import { isApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { ERROR_TOAST_TITLE, toast } from './toast';

/** spec §8's error toast for a failed call; none for a 401 (the driver is already on the way to /login). */
export function toastFailure(error: unknown, title: string = ERROR_TOAST_TITLE): void {
  if (isApiError(error) && error.isUnauthorized) return;
  toast.error(errorMessage(error), { title });
}
