import type { Operator, VehicleBrand } from '@portal/contract';
import { isValidCnpj, stripDocument } from '@portal/domain';
import operatorsFile from '../../data/operators.json' with { type: 'json' };
import modelsFile from '../../data/vehicle-models.json' with { type: 'json' };

export interface OperatorEntry {
  name: string;
  cnpj: string;
  /** The real CNPJ is not known: replace before production. */
  placeholder: boolean;
}

/** The operator list (src/data/operators.json) and the truck catalogue (src/data/vehicle-models.json). */
export class Catalogue {
  readonly operators: readonly OperatorEntry[];
  readonly brands: readonly VehicleBrand[];
  private readonly byCnpj: ReadonlyMap<string, OperatorEntry>;
  private readonly modelIds: ReadonlySet<string>;

  constructor(operators: readonly OperatorEntry[] = operatorsFile.operators, brands: readonly VehicleBrand[] = modelsFile.brands) {
    for (const o of operators) if (!isValidCnpj(o.cnpj)) throw new Error(`CNPJ inválido para a operadora ${o.name}: ${o.cnpj}`);
    this.operators = operators;
    this.brands = brands;
    this.byCnpj = new Map(operators.map((o) => [o.cnpj, o]));
    this.modelIds = new Set(brands.flatMap((b) => b.modelos.map((m) => m.modelId)));
    if (this.modelIds.size !== brands.reduce((n, b) => n + b.modelos.length, 0)) throw new Error('modelId repetido no catálogo');
  }

  operatorList(): Operator[] {
    return this.operators.map((o) => ({ Nome: o.name, Cnpj: o.cnpj }));
  }

  operator(cnpj: string): OperatorEntry | undefined {
    return this.byCnpj.get(cnpj);
  }

  operatorByName(name: string): OperatorEntry {
    const found = this.operators.find((o) => o.name === name);
    if (!found) throw new Error(`Operadora ausente do catálogo: ${name}`);
    return found;
  }

  /** 'SemParar', 'semparar', '90200002000117' or '90.200.002/0001-17': what an operator types in the CLI. */
  findOperator(nameOrCnpj: string): OperatorEntry | undefined {
    const wanted = nameOrCnpj.trim().toLowerCase();
    return this.byCnpj.get(stripDocument(nameOrCnpj)) ?? this.operators.find((o) => o.name.toLowerCase() === wanted);
  }

  hasModel(modelId: string): boolean {
    return this.modelIds.has(modelId);
  }
}
