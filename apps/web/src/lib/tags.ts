import { api, type ActionResponse, type Operator, type VehicleBrand } from '@portal/contract';
import { GREENPASS_WARNING_MS, isTaggyGreenpassWarning, messages } from '@portal/domain';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { toast } from '../components/ui/toast';
import { isApiError, request } from './api';

/** GET /api/operadoras: the one list of operators the server enforces (changes rarely). */
export const operatorsQuery = queryOptions({
  queryKey: ['operadoras'],
  queryFn: ({ signal }) => request(api.operators, { signal }),
  staleTime: 60 * 60 * 1000,
});

export function useOperators() {
  return useQuery(operatorsQuery);
}

/** GET /api/veiculo/modelos: brands and their models. */
export const vehicleModelsQuery = queryOptions({
  queryKey: ['veiculo', 'modelos'],
  queryFn: ({ signal }) => request(api.vehicleModels, { signal }),
  staleTime: 60 * 60 * 1000,
});

export function useVehicleModels() {
  return useQuery(vehicleModelsQuery);
}

/** The operator's name for a CNPJ (digits), or null while unknown. */
export function operatorNameOf(operators: readonly Operator[] | undefined, cnpj: string): string | null {
  const digits = cnpj.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  return operators?.find((o) => o.Cnpj.toUpperCase() === digits)?.Nome ?? null;
}

/** 'Volvo FH 540' for a modelId, or null. */
export function modelNameOf(brands: readonly VehicleBrand[] | undefined, modelId: string): string | null {
  for (const brand of brands ?? []) {
    const model = brand.modelos.find((m) => m.modelId === modelId);
    if (model) return model.modelName.startsWith(brand.brand) ? model.modelName : `${brand.brand} ${model.modelName}`;
  }
  return null;
}

/** GET /api/veiculo/detail/{plate}. */
export const vehicleDetailQueryKey = (plate: string) => ['veiculo', 'detalhe', plate] as const;
export const vehicleDetailQuery = (plate: string) =>
  queryOptions({
    queryKey: vehicleDetailQueryKey(plate),
    queryFn: ({ signal }) => request(api.vehicleDetail, { params: { licensePlate: plate }, signal }),
    staleTime: 0,
    retry: (count, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && count < 2,
  });

/** Every cached list and detail of tags and vehicles, after any change. */
export async function invalidateTagData(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['tags'] }),
    queryClient.invalidateQueries({ queryKey: ['veiculos'] }),
    queryClient.invalidateQueries({ queryKey: ['veiculo', 'detalhe'] }),
  ]);
}

/** SPEC 8: an unsuccessful 200 reply shows its `error` (or Mensagem); null when it succeeded. */
export function answerFailure(answer: ActionResponse): string | null {
  if (answer.Sucesso) return null;
  return answer.error || answer.Mensagem || messages.session.internalError;
}

/** SPEC 8: a refused call shows the server's Mensagem (then its `error`). */
export function failureMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.message) return error.message;
    const body = error.body as { error?: unknown } | null;
    if (body && typeof body.error === 'string' && body.error) return body.error;
  }
  return messages.session.internalError;
}

/** SPEC 9 / decision 16: Taggy tags whose serial starts with 5666 get a 60 s warning. */
export function warnIfTaggyGreenpass(operatorName: string | null | undefined, serial: string): boolean {
  if (!isTaggyGreenpassWarning(operatorName, serial)) return false;
  toast.warning(messages.tag.greenpassWarning, {
    title: 'Atenção',
    autoClose: GREENPASS_WARNING_MS,
    id: 'greenpass-warning',
  });
  return true;
}
