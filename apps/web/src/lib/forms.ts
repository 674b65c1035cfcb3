import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { errorMessage } from './errors';
import { isApiError } from './http';

/**
 * Puts a refused call's field messages (422 `errors`) on the form's fields, focusing the first one shown;
 * `fields` maps the server's field names to the form's paths. Returns the messages that no field shows
 * (to show in an alert), or null when the error carries no field messages (then show errorMessage(error)).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: Readonly<Record<string, Path<T>>>,
): string[] | null {
  if (!isApiError(error)) return null;
  const found = Object.entries(error.errors).filter(([, list]) => list.length > 0);
  if (found.length === 0) return null;

  const byField = new Map(found);
  let focus = true;
  // In the order of `fields` (the form's order), so the first field shown gets the focus.
  for (const [serverName, path] of Object.entries(fields)) {
    const list = byField.get(serverName);
    if (!list) continue;
    setError(path, { type: 'server', message: list.join('\n') }, { shouldFocus: focus });
    focus = false;
    byField.delete(serverName);
  }
  return [...byField.values()].flat();
}

/**
 * applyServerErrors, then what is left to say beside the form (in an alert or a toast): the
 * messages no field shows, or errorMessage(error) when none came for a field. null when the
 * fields say it all, or when the session ended (a 401 is already on its way to /login), or the
 * company's account chosen is no longer usable (decision 77: the app said it, going back).
 */
export function serverErrorText<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: Readonly<Record<string, Path<T>>>,
): string | null {
  if (isApiError(error) && (error.isUnauthorized || error.endsAccountAccess)) return null;
  const unplaced = applyServerErrors(error, setError, fields);
  if (unplaced === null) return errorMessage(error);
  return unplaced.length > 0 ? unplaced.join('\n') : null;
}
