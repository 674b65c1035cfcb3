import type { Operator, VehicleBrand } from '@portal/contract';

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
