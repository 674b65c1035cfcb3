import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ERROR_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFailure } from '../../components/ui/toastFailure';
import { applyServerErrors } from '../../lib/forms';

type ServerFields<T extends FieldValues> = Readonly<Record<string, Path<T>>>;

/**
 * applyServerErrors' map for a tag form, whose fields carry the server's names: the fields in the
 * form's order (the first one shown gets the focus), and the server's vehicleType under the axles.
 */
export function serverFields<T extends FieldValues>(order: readonly Path<T>[], axles: Path<T>): ServerFields<T> {
  return Object.fromEntries([...order.map((name) => [name, name] as const), ['vehicleType', axles] as const]);
}

/** A tag form's refused write: field messages under their fields, anything else in spec §8's error toast. */
export function showFormFailure<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: ServerFields<T>): void {
  const unshown = applyServerErrors(error, setError, fields);
  if (unshown === null) toastFailure(error);
  else if (unshown.length > 0) toast.error(unshown.join('\n'), { title: ERROR_TOAST_TITLE });
}
