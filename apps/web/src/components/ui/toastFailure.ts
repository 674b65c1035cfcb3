import { isApiError } from '../../lib/api';
import { answerFailure, errorMessage } from '../../lib/errors';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { serverErrorText } from '../../lib/forms';
import { ERROR_TOAST_TITLE, SUCCESS_TOAST_TITLE, toast, type ToastOptions } from './toast';

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

/**
 * A form's write: once the server took it, `onSaved` (the fields start over, an edit closes) and its
 * Mensagem in a success toast; refused, its field messages under their fields and the rest in a
 * toast (toastFormFailure).
 */
export async function toastFormAnswer<T extends FieldValues, A extends { Mensagem: string }>(
  answer: Promise<A>,
  form: { setError: UseFormSetError<T>; fields: Readonly<Record<string, Path<T>>> },
  onSaved: (answer: A) => void,
  options: Omit<ToastOptions, 'message' | 'tone'> = {},
): Promise<void> {
  try {
    const done = await answer;
    onSaved(done);
    toast.success(done.Mensagem, { title: SUCCESS_TOAST_TITLE, ...options });
  } catch (failure) {
    toastFormFailure(failure, form.setError, form.fields, options.position);
  }
}

/**
 * A write's answer told in a toast, however the screen changed meanwhile (mutateAsync's promise: a
 * card the answer redraws or takes away loses mutate's own callbacks): the server's Mensagem, or
 * spec §8's error (an unsuccessful answer's `error` or Mensagem, a failed call's errorMessage).
 */
export function toastAnswer(answer: Promise<{ Sucesso: boolean; Mensagem: string; error?: string }>): Promise<void> {
  return answer.then(
    (done) => {
      const failure = done.error || answerFailure(done);
      if (failure) toast.error(failure, { title: ERROR_TOAST_TITLE });
      else toast.success(done.Mensagem, { title: SUCCESS_TOAST_TITLE });
    },
    (error: unknown) => toastFailure(error),
  );
}
